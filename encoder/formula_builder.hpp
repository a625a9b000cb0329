// Building a Formula: fresh variables, order literals created on demand, clauses
// simplified against constants, constraint groups, and the stop and memory checks
// every theory needs while it emits clauses.
//
// Order literals are created only for the pairs some constraint mentions, and only
// when real time leaves the pair open: "a before b" is the constant true when a
// completed before b was invoked. A total order over all ops is never materialised;
// the back-ends only need the mentioned pairs to be consistent with some total order
// (SAT: no cycle among chosen pairs and real-time edges; SMT: integer positions).
#pragma once

#include <ariadne/history.hpp>

#include "encoder/encode.hpp"
#include "encoder/formula.hpp"
#include "encoder/real_time.hpp"

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace ariadne::encoder {

class FormulaBuilder {
 public:
  FormulaBuilder(std::span<const Operation* const> ops, const EncodeOptions& options);

  std::uint32_t op_count() const { return formula_.op_count; }
  const Operation& op(std::uint32_t i) const { return *ops_[i]; }
  const RealTimeOrder& real_time() const { return real_time_; }
  bool precedes(std::uint32_t a, std::uint32_t b) const { return real_time_.precedes(a, b); }
  // Whether precedes() is real time (an interval order), not program order.
  bool orders_by_real_time() const { return keeps_real_time(options_.consistency); }

  Literal new_variable();
  // "a is linearized before b": a constant when real time decides it.
  Literal order(std::uint32_t a, std::uint32_t b);
  Literal presence(std::uint32_t op) const { return formula_.presence[op]; }
  void set_presence(std::uint32_t op, Literal literal) { formula_.presence[op] = literal; }

  // Clauses added until the next begin_group() belong to this group.
  void begin_group(std::string name, std::vector<std::uint32_t> ops);
  void end_group() { group_ = kNoGroup; }
  // Adds `op` to the open group's ops: for an op whose interval the group's clauses
  // rely on without naming it (real time pruned a candidate, or fixed an order to a
  // constant). Core minimisation reads the ops of the groups a refutation needed.
  void mention(std::uint32_t op);

  void add_clause(std::initializer_list<Literal> literals) { add_clause(std::span(literals.begin(), literals.size())); }
  void add_clause(std::span<const Literal> literals);
  // condition -> every literal of `consequences`.
  void add_implications(Literal condition, std::span<const Literal> consequences);
  // At most one of `literals` is true (pairwise when few, a sequential counter
  // [Sinz05] otherwise).
  void add_at_most_one(std::span<const Literal> literals);

  // Throws EncodingStopped when the caller asked to stop. Theories call it in their
  // outer loops; add_clause calls it every few thousand clauses.
  void poll();

  // Switchable formulas (EncodeOptions::selectors): selector k's literal.
  void set_selectors(std::vector<Literal> selectors) { formula_.selectors = std::move(selectors); }
  Literal selector(std::uint32_t k) const { return formula_.selectors.at(k); }

  // Positional formulas: the literals "op at position p", set by the unrolling.
  void set_positions(std::vector<std::vector<Literal>> positions) { formula_.positions = std::move(positions); }

  Formula finish(std::string encoding);

 private:
  // What building holds, for --memory-limit: the formula so far, and beside it the
  // index of order atoms and the real-time order, which can outweigh the clauses.
  std::size_t memory_bytes() const;
  // Throws EncodingUnsupported when what building holds, `growth` bytes more, would
  // not fit the memory limit.
  void check_memory(std::size_t growth);

  std::span<const Operation* const> ops_;
  const EncodeOptions& options_;
  RealTimeOrder real_time_;
  Formula formula_;
  std::unordered_map<std::uint64_t, Literal> order_atoms_;  // key: (min op << 32) | max op
  std::uint32_t group_ = kNoGroup;
  std::uint32_t clauses_since_poll_ = 0;
  std::vector<Literal> scratch_;
};

}  // namespace ariadne::encoder
