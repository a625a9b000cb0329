// The Z3 back-end: order atoms become integer difference constraints, so the order
// they describe is transitive by construction and no cycle ever needs cutting
// (transitive_order() is true). Each op gets an integer position p<op>; an order atom
// b says p_before < p_after when true and p_after < p_before when false; every
// real-time pair says p_first < p_second. That is quantifier-free integer difference
// logic plus booleans, which Z3's QF_IDL solver accepts (checked by the tests), and
// its difference-logic theory is made for exactly these constraints.
//
// Constraint groups are tracked with one assumption literal per group, and the
// unsat core names the groups a refutation needed. Positional formulas carry no order
// atoms and need no integers: they are only clauses.
#include "solvers/solver.hpp"

#include <z3++.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace ariadne::solvers {

namespace {

// z3++ reports errors as z3::exception; the engine expects a solver's failures as
// std::runtime_error.
template <typename Action>
auto translating_errors(Action&& action) {
  try {
    return action();
  } catch (const z3::exception& e) {
    throw std::runtime_error(std::string("z3: ") + e.msg());
  }
}

class Z3Solver final : public Solver {
 public:
  Z3Solver() : solver_(context_, "QF_IDL"), assumptions_(context_) {}

  std::string name() const override { return "z3"; }
  bool transitive_order() const override { return true; }

  void load(const encoder::Formula& formula, bool track_groups) override {
    translating_errors([&] {
      variables_.clear();
      variables_.reserve(static_cast<std::size_t>(formula.variable_count) + 1);
      variables_.push_back(context_.bool_val(true));  // index 0 is never a variable
      for (encoder::Literal v = 1; v <= formula.variable_count; ++v) {
        if (interrupted_at(static_cast<std::size_t>(v))) return;
        variables_.push_back(context_.bool_const(("b" + std::to_string(v)).c_str()));
      }
      solver_.add(literal(encoder::kTrue));  // variable 1 is the constant true

      std::vector<std::optional<z3::expr>> group_guard(formula.groups.size());
      if (track_groups) {
        for (std::uint32_t group = 0; group < formula.groups.size(); ++group) {
          group_guard[group] = context_.bool_const(("g" + std::to_string(group)).c_str());
          assumptions_.push_back(*group_guard[group]);
          group_of_assumption_.emplace(group_guard[group]->id(), group);
        }
      }
      z3::expr_vector clause(context_);
      std::size_t clause_index = 0;
      for (encoder::Literal lit : formula.clause_literals) {
        if (lit != 0) {
          clause.push_back(literal(lit));
          continue;
        }
        if (interrupted_at(clause_index)) return;
        const std::uint32_t group = formula.clause_groups[clause_index++];
        if (track_groups && group != encoder::kNoGroup) clause.push_back(!*group_guard[group]);
        solver_.add(z3::mk_or(clause));
        clause = z3::expr_vector(context_);
      }

      positions_.clear();
      if (formula.positional()) return;
      for (std::uint32_t op = 0; op < formula.op_count; ++op) {
        positions_.push_back(context_.int_const(("p" + std::to_string(op)).c_str()));
      }
      // The SAT back-end reads a false atom as "after precedes before", a strict order
      // between the two ops; saying only b == (p_before < p_after) would let a false
      // atom mean equal positions, and equal positions have no order to decode.
      for (std::size_t i = 0; i < formula.order_atoms.size(); ++i) {
        if (interrupted_at(i)) return;
        const encoder::OrderAtom& atom = formula.order_atoms[i];
        const z3::expr holds = literal(atom.var);
        solver_.add(z3::implies(holds, positions_[atom.before] < positions_[atom.after]));
        solver_.add(z3::implies(!holds, positions_[atom.after] < positions_[atom.before]));
      }
      for (std::size_t i = 0; i < formula.real_time.size(); ++i) {
        if (interrupted_at(i)) return;
        solver_.add(positions_[formula.real_time[i].first] < positions_[formula.real_time[i].second]);
      }
    });
  }

  void add_clause(std::span<const encoder::Literal> clause) override {
    translating_errors([&] {
      z3::expr_vector literals(context_);
      for (encoder::Literal lit : clause) literals.push_back(literal(lit));
      solver_.add(z3::mk_or(literals));
    });
  }

  SolveResult solve() override {
    {
      // The flag stays set: once interrupted, every solve answers `stopped` at once.
      std::lock_guard lock(check_mutex_);
      if (interrupted_.load(std::memory_order_relaxed)) return SolveResult::stopped;
      checking_ = true;
    }
    model_.reset();
    std::optional<z3::check_result> result;
    std::optional<z3::exception> failure;
    try {
      result = assumptions_.empty() ? solver_.check() : solver_.check(assumptions_);
      if (*result == z3::sat) model_ = solver_.get_model();
    } catch (const z3::exception& e) {
      failure = e;
    }
    {
      std::lock_guard lock(check_mutex_);
      checking_ = false;
    }
    check_finished_.notify_all();
    if (failure) throw std::runtime_error(std::string("z3: ") + failure->msg());
    switch (*result) {
      case z3::sat: return SolveResult::satisfiable;
      case z3::unsat: return SolveResult::unsatisfiable;
      case z3::unknown: return SolveResult::stopped;
    }
    return SolveResult::stopped;
  }

  bool value(encoder::Literal lit) const override {
    if (!model_) throw std::logic_error("z3: value() without a model");
    return translating_errors([&] { return model_->eval(literal(lit), true).is_true(); });
  }

  std::optional<std::vector<std::int64_t>> positions() const override {
    if (!model_) throw std::logic_error("z3: positions() without a model");
    if (positions_.empty()) return std::nullopt;
    return translating_errors([&] {
      std::vector<std::int64_t> values;
      values.reserve(positions_.size());
      for (const z3::expr& position : positions_) {
        std::int64_t value = 0;
        if (!model_->eval(position, true).is_numeral_i64(value)) {
          throw std::runtime_error("z3: a position does not fit 64 bits");
        }
        values.push_back(value);
      }
      return values;
    });
  }

  std::vector<std::uint32_t> failed_groups() const override {
    return translating_errors([&] {
      std::vector<std::uint32_t> failed;
      if (assumptions_.empty()) return failed;
      for (const z3::expr& assumption : solver_.unsat_core()) {
        if (auto it = group_of_assumption_.find(assumption.id()); it != group_of_assumption_.end()) {
          failed.push_back(it->second);
        }
      }
      std::sort(failed.begin(), failed.end());
      return failed;
    });
  }

  void stop_loading_when(std::function<bool()> over_budget) override { over_budget_ = std::move(over_budget); }

  // Z3 acts on an interrupt only while a check is registered with the context and
  // forgets one that arrives earlier. A check that solve() has begun may not have
  // registered yet, so the interrupt is repeated until that check returns. The window
  // is microseconds; the repetition is bounded so that a caller is never held for
  // long by a check that is slow to notice.
  void interrupt() override {
    constexpr auto kRetryPeriod = std::chrono::milliseconds(1);
    constexpr auto kRetryWindow = std::chrono::seconds(1);
    interrupted_.store(true, std::memory_order_relaxed);
    std::unique_lock lock(check_mutex_);
    const auto give_up = std::chrono::steady_clock::now() + kRetryWindow;
    while (checking_ && std::chrono::steady_clock::now() < give_up) {
      context_.interrupt();
      check_finished_.wait_for(lock, kRetryPeriod);
    }
  }

  // Z3 counts its allocations process-wide only (Z3_get_estimated_alloc_size). This
  // reports the growth since this solver was created, which is exact while it is the
  // only Z3 solver; while several run at once, each one's figure also moves with the
  // others' allocations and frees, so it is a rough share, not a measurement.
  std::size_t memory_bytes() const override {
    const std::uint64_t now = Z3_get_estimated_alloc_size();
    return now > allocated_before_ ? static_cast<std::size_t>(now - allocated_before_) : 0;
  }

 private:
  // Loading a large formula takes a while (2.9-3.9 s for a 2,000-op crash storm on
  // the shared 2-core machine, and about a hundred times the formula's own size in
  // memory: 197 MB for a formula of 2 MB) and Z3 cannot be interrupted during it:
  // load() looks at the flag and the memory budget every 512 items and stops early,
  // and the flag, being sticky, makes the next solve() answer `stopped`. A single Z3
  // call can still grow by a lot at once (a table doubling from 115 to 253 MB was
  // measured), which only the race's watch on the resident size then catches.
  bool interrupted_at(std::size_t item) {
    if ((item & 511) != 0) return false;
    if (over_budget_ && over_budget_()) interrupted_.store(true, std::memory_order_relaxed);
    return interrupted_.load(std::memory_order_relaxed);
  }

  z3::expr literal(encoder::Literal lit) const {
    const z3::expr& variable = variables_.at(static_cast<std::size_t>(lit > 0 ? lit : -lit));
    return lit > 0 ? variable : !variable;
  }

  // Declared first so that it is read before the context allocates anything.
  std::uint64_t allocated_before_ = Z3_get_estimated_alloc_size();
  z3::context context_;
  z3::solver solver_;
  z3::expr_vector assumptions_;                                      // per tracked group
  std::unordered_map<unsigned, std::uint32_t> group_of_assumption_;  // by Z3 ast id
  std::vector<z3::expr> variables_;                                  // by variable number
  std::vector<z3::expr> positions_;                                  // by op, unless positional
  std::optional<z3::model> model_;                                   // after satisfiable

  std::function<bool()> over_budget_;  // polled while loading
  std::atomic<bool> interrupted_{false};
  std::mutex check_mutex_;
  std::condition_variable check_finished_;
  bool checking_ = false;  // guarded by check_mutex_
};

}  // namespace

std::unique_ptr<Solver> make_z3_solver() { return std::make_unique<Z3Solver>(); }

void limit_z3_memory(std::uint64_t bytes) {
  const std::uint64_t megabytes = std::max<std::uint64_t>(1, bytes >> 20);
  z3::set_param("memory_max_size", static_cast<int>(std::min<std::uint64_t>(megabytes, INT32_MAX)));
}

}  // namespace ariadne::solvers
