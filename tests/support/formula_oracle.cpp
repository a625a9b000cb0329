// The reference decision procedure (see the header): enumeration of total orders and
// presence choices, and a plain DPLL for what they leave open.
#include "support/formula_oracle.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <span>
#include <stdexcept>
#include <string>

namespace ariadne::testing {

namespace {

using encoder::Formula;
using encoder::kFalse;
using encoder::kTrue;
using encoder::Literal;

// Davis-Putnam-Logemann-Loveland: unit propagation over occurrence lists, branching
// on the first open literal of the first clause not yet satisfied. No learning: the
// formulas it sees are small, and a plain search is easy to trust.
class Dpll {
 public:
  explicit Dpll(const Formula& formula)
      : clauses_(formula.clauses()),
        variable_count_(static_cast<std::size_t>(formula.variable_count)),
        occurrences_(2 * (variable_count_ + 1)) {
    for (std::size_t c = 0; c < clauses_.size(); ++c) {
      for (const Literal l : clauses_[c]) occurrences_[slot(l)].push_back(c);
    }
  }

  std::optional<Assignment> solve(std::span<const Literal> assumptions) {
    values_.assign(variable_count_ + 1, 0);
    trail_.clear();
    propagated_ = 0;
    for (const auto& clause : clauses_) {
      if (clause.empty() || (clause.size() == 1 && !assign(clause[0]))) return std::nullopt;
    }
    for (const Literal l : assumptions) {
      if (!assign(l)) return std::nullopt;
    }
    if (!search()) return std::nullopt;
    Assignment assignment;
    assignment.values.assign(variable_count_ + 1, false);
    for (std::size_t v = 1; v <= variable_count_; ++v) assignment.values[v] = values_[v] > 0;
    return assignment;
  }

 private:
  static std::size_t slot(Literal l) {
    return l > 0 ? 2 * static_cast<std::size_t>(l) : 2 * static_cast<std::size_t>(-l) + 1;
  }

  int value(Literal l) const {
    const int v = values_[static_cast<std::size_t>(std::abs(l))];
    return l > 0 ? v : -v;
  }

  bool assign(Literal l) {
    if (value(l) != 0) return value(l) > 0;
    values_[static_cast<std::size_t>(std::abs(l))] = static_cast<signed char>(l > 0 ? 1 : -1);
    trail_.push_back(l);
    return true;
  }

  bool propagate() {
    while (propagated_ < trail_.size()) {
      const Literal falsified = -trail_[propagated_++];
      for (const std::size_t c : occurrences_[slot(falsified)]) {
        Literal open = 0;
        int open_count = 0;
        bool satisfied = false;
        for (const Literal l : clauses_[c]) {
          const int v = value(l);
          if (v > 0) {
            satisfied = true;
            break;
          }
          if (v == 0) {
            open = l;
            ++open_count;
          }
        }
        if (satisfied) continue;
        if (open_count == 0) return false;
        if (open_count == 1) assign(open);
      }
    }
    return true;
  }

  Literal pick_branch() const {
    for (const auto& clause : clauses_) {
      Literal open = 0;
      bool satisfied = false;
      for (const Literal l : clause) {
        const int v = value(l);
        if (v > 0) {
          satisfied = true;
          break;
        }
        if (v == 0 && open == 0) open = l;
      }
      if (!satisfied) return open;  // never 0: propagation found no conflict
    }
    return 0;
  }

  bool search() {
    if (!propagate()) return false;
    const Literal branch = pick_branch();
    if (branch == 0) return true;
    const std::size_t mark = trail_.size();
    for (const Literal choice : {branch, -branch}) {
      assign(choice);
      if (search()) return true;
      while (trail_.size() > mark) {
        values_[static_cast<std::size_t>(std::abs(trail_.back()))] = 0;
        trail_.pop_back();
      }
      propagated_ = mark;
    }
    return false;
  }

  std::vector<std::vector<Literal>> clauses_;
  std::size_t variable_count_;
  std::vector<std::vector<std::size_t>> occurrences_;  // per literal slot: clauses holding it
  std::vector<signed char> values_;                    // per variable: 1, -1, or 0 (open)
  std::vector<Literal> trail_;
  std::size_t propagated_ = 0;
};

// must_precede[a][b]: a completed before b was invoked (the closure of the reduction).
std::vector<std::vector<bool>> real_time_closure(const Formula& formula) {
  const std::uint32_t n = formula.op_count;
  std::vector<std::vector<bool>> before(n, std::vector<bool>(n, false));
  for (const auto& [a, b] : formula.real_time) before[a][b] = true;
  for (std::uint32_t k = 0; k < n; ++k) {
    for (std::uint32_t a = 0; a < n; ++a) {
      for (std::uint32_t b = 0; b < n; ++b) {
        if (before[a][k] && before[k][b]) before[a][b] = true;
      }
    }
  }
  return before;
}

// Calls `visit` with every order of `ops` in which a comes before b whenever
// before[a][b].
template <typename Visit>
void for_each_linear_extension(const std::vector<std::uint32_t>& ops, const std::vector<std::vector<bool>>& before,
                               Visit&& visit) {
  std::vector<std::uint32_t> order;
  std::vector<bool> used(ops.size(), false);
  const auto extend = [&](const auto& self) -> void {
    if (order.size() == ops.size()) {
      visit(order);
      return;
    }
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (used[i]) continue;
      bool ready = true;
      for (std::size_t j = 0; j < ops.size() && ready; ++j) {
        if (!used[j] && j != i && before[ops[j]][ops[i]]) ready = false;
      }
      if (!ready) continue;
      used[i] = true;
      order.push_back(ops[i]);
      self(self);
      order.pop_back();
      used[i] = false;
    }
  };
  extend(extend);
}

}  // namespace

bool satisfies(const Formula& formula, const Assignment& assignment) {
  bool clause_satisfied = false;
  for (const Literal l : formula.clause_literals) {
    if (l == 0) {
      if (!clause_satisfied) return false;
      clause_satisfied = false;
    } else if (assignment(l)) {
      clause_satisfied = true;
    }
  }
  return true;
}

std::optional<Assignment> solve_by_enumeration(const Formula& formula, AbsentOps absent) {
  Dpll dpll(formula);
  if (formula.positional()) return dpll.solve({});
  const std::uint32_t n = formula.op_count;
  if (n > kOracleMaxOps) {
    throw std::invalid_argument("the formula oracle enumerates orders of at most " + std::to_string(kOracleMaxOps) +
                                " ops, not " + std::to_string(n));
  }
  std::vector<std::uint32_t> open_presence;
  for (std::uint32_t op = 0; op < n; ++op) {
    if (formula.presence[op] != kTrue && formula.presence[op] != kFalse) open_presence.push_back(op);
  }
  std::vector<std::uint32_t> all_ops(n);
  for (std::uint32_t op = 0; op < n; ++op) all_ops[op] = op;

  std::set<std::vector<Literal>> tried;
  std::optional<Assignment> found;
  for_each_linear_extension(all_ops, real_time_closure(formula), [&](const std::vector<std::uint32_t>& order) {
    if (found) return;
    std::vector<std::uint32_t> position(n);
    for (std::uint32_t p = 0; p < n; ++p) position[order[p]] = p;
    for (std::uint32_t subset = 0; subset < (1u << open_presence.size()) && !found; ++subset) {
      std::vector<bool> present(n, true);
      std::vector<Literal> assumptions;
      for (std::size_t k = 0; k < open_presence.size(); ++k) {
        const bool in = (subset >> k) & 1u;
        present[open_presence[k]] = in;
        assumptions.push_back(in ? formula.presence[open_presence[k]] : -formula.presence[open_presence[k]]);
      }
      for (std::uint32_t op = 0; op < n; ++op) {
        if (formula.presence[op] == kFalse) present[op] = false;
      }
      for (const encoder::OrderAtom& atom : formula.order_atoms) {
        if (absent == AbsentOps::free && (!present[atom.before] || !present[atom.after])) continue;
        assumptions.push_back(position[atom.before] < position[atom.after] ? atom.var : -atom.var);
      }
      if (!tried.insert(assumptions).second) continue;
      found = dpll.solve(assumptions);
    }
  });
  if (found && !satisfies(formula, *found)) throw std::logic_error("the formula oracle's DPLL returned a non-model");
  return found;
}

std::vector<std::vector<std::uint32_t>> orders_allowed_by(const Formula& formula, const Assignment& assignment) {
  std::vector<std::uint32_t> present;
  for (std::uint32_t op = 0; op < formula.op_count; ++op) {
    if (assignment(formula.presence[op])) present.push_back(op);
  }
  if (formula.positional()) {
    std::vector<std::pair<std::size_t, std::uint32_t>> by_position;
    for (const std::uint32_t op : present) {
      const auto& at = formula.positions[op];
      std::size_t count = 0;
      for (std::size_t p = 0; p < at.size(); ++p) {
        if (assignment(at[p])) {
          by_position.emplace_back(p, op);
          ++count;
        }
      }
      if (count != 1) {
        throw std::logic_error("op " + std::to_string(op) + " took effect at " + std::to_string(count) + " positions");
      }
    }
    std::ranges::sort(by_position);
    std::vector<std::uint32_t> order;
    for (const auto& [p, op] : by_position) order.push_back(op);
    return {order};
  }
  std::vector<std::vector<bool>> before = real_time_closure(formula);
  std::vector<bool> is_present(formula.op_count, false);
  for (const std::uint32_t op : present) is_present[op] = true;
  for (const encoder::OrderAtom& atom : formula.order_atoms) {
    if (!is_present[atom.before] || !is_present[atom.after]) continue;
    if (assignment(atom.var)) {
      before[atom.before][atom.after] = true;
    } else {
      before[atom.after][atom.before] = true;
    }
  }
  std::vector<std::vector<std::uint32_t>> orders;
  for_each_linear_extension(present, before, [&](const std::vector<std::uint32_t>& order) { orders.push_back(order); });
  return orders;
}

}  // namespace ariadne::testing
