// The solver-neutral formula the encoder produces and solvers/ translates.
//
// Literals are DIMACS-style: variable v >= 1 is the literal v, its negation -v.
// Variable 1 is the constant true (a unit clause says so), so a presence or order
// that is already decided is simply the literal 1 or -1.
//
// Three kinds of content:
//  - clauses over boolean variables, each tagged with the constraint group it comes
//    from (which ops it is about), so that a solver can report which groups it needed;
//  - order atoms: variables that mean "op a is linearized before op b". A SAT back-end
//    treats them as plain variables and makes them transitive lazily (cutting cycles
//    the solver proposes); an SMT back-end defines them as integer differences
//    pos(a) < pos(b), where transitivity is built in;
//  - the transitive reduction of real-time order, which every back-end must respect.
// A positional formula (the bounded-unrolling fallback) instead names, for every op,
// the literals "op sits at position p", and has no order atoms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ariadne::encoder {

using Literal = std::int32_t;
inline constexpr Literal kTrue = 1;
inline constexpr Literal kFalse = -1;
inline constexpr std::uint32_t kNoGroup = UINT32_MAX;

// ops are indices into the op span the formula was encoded from.
struct OrderAtom {
  Literal var = 0;  // positive: true iff `before` precedes `after`
  std::uint32_t before = 0;
  std::uint32_t after = 0;
};

struct ConstraintGroup {
  std::string name;                // e.g. "read 12 reads from one write"
  std::vector<std::uint32_t> ops;  // the ops the group's clauses speak about
};

struct Formula {
  std::uint32_t op_count = 0;
  std::int32_t variable_count = 1;  // variables are 1..variable_count
  // Clauses, flat, each ended by a 0; clause_groups[k] is the group of clause k.
  std::vector<Literal> clause_literals;
  std::vector<std::uint32_t> clause_groups;
  std::vector<ConstraintGroup> groups;
  std::vector<OrderAtom> order_atoms;
  // Real-time order, transitively reduced: first completed before second was invoked.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> real_time;
  // Per op: the literal "the op took effect" (kTrue for completed ops).
  std::vector<Literal> presence;
  // With EncodeOptions::selectors: selector k's variable, which keeps its op.
  std::vector<Literal> selectors;
  // Positional formulas only: positions[op][p] is "op sits at position p".
  std::vector<std::vector<Literal>> positions;
  // How the model's legality was encoded, for reports: "reads-from (register family)".
  std::string encoding;

  bool positional() const { return !positions.empty(); }
  std::size_t clause_count() const { return clause_groups.size(); }
  // The clauses one by one, for readers that want them apart (proofs, test oracles).
  std::vector<std::vector<Literal>> clauses() const;
  std::size_t memory_bytes() const;
};

}  // namespace ariadne::encoder
