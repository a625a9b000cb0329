// A reference decision procedure for the encoder's formulas on tiny histories, which
// shares no code with the solver back-ends, so encodings can be tested on their own.
//
// An order formula is decided by enumerating what the back-ends search for: every
// total order of the ops that respects real time, with every choice of which ops
// with an open presence literal take effect. Each such choice fixes the order atoms
// and the presence literals; the remaining variables (the encodings' helpers) are
// then decided by a small DPLL [DavisLogemannLoveland62]. A positional formula has
// no order atoms and goes to the DPLL whole.
#pragma once

#include "encoder/formula.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace ariadne::testing {

// Truth values of variables 1..variable_count (index 0 unused).
struct Assignment {
  std::vector<bool> values;
  bool operator()(encoder::Literal literal) const {
    const bool v = values[static_cast<std::size_t>(literal < 0 ? -literal : literal)];
    return literal < 0 ? !v : v;
  }
};

// Enumeration is factorial in the number of ops.
inline constexpr std::uint32_t kOracleMaxOps = 7;

// How order atoms that involve an op that did not take effect are treated.
enum class AbsentOps : std::uint8_t {
  ordered,  // absent ops still sit in the enumerated total order (an SMT back-end's
            // integer positions order every op)
  free,     // their atoms are left to the DPLL, as the decoder ignores them
};

// A satisfying assignment whose order atoms come from one real-time-respecting total
// order, or nullopt when none exists. Throws std::invalid_argument for formulas of
// more than kOracleMaxOps ops.
std::optional<Assignment> solve_by_enumeration(const encoder::Formula& formula, AbsentOps absent = AbsentOps::free);

// Every order of the ops that took effect under `assignment` that a decoder may
// produce: for an order formula, every total order of them that respects real time
// and every order atom between two of them; for a positional formula, the one order
// of their positions. These are the orders an encoding must make legal.
std::vector<std::vector<std::uint32_t>> orders_allowed_by(const encoder::Formula& formula,
                                                          const Assignment& assignment);

// Whether `formula` holds under `assignment`: every clause has a true literal.
bool satisfies(const encoder::Formula& formula, const Assignment& assignment);

}  // namespace ariadne::testing
