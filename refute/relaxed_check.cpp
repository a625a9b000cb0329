#include "refute/relaxed_check.hpp"

#include "encoder/encode.hpp"
#include "refute/decision_race.hpp"
#include "refute/relaxed_closure.hpp"
#include "refute/relaxed_mutex.hpp"
#include "solvers/solver.hpp"
#include "solvers/solver_engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <new>

namespace ariadne::refute {

solvers::FormulaHooks RelaxedSolverLimits::hooks(const solvers::Solver& solver, const encoder::Formula& formula,
                                                 std::atomic<std::uint64_t>& held) const {
  solvers::FormulaHooks hooks;
  // Freeing a large solver takes a while; it must be done by the deadline too.
  hooks.should_stop = [this, &held] {
    return stopped() || search::teardown_due(stop, held.load(std::memory_order_relaxed));
  };
  hooks.memory_ok = [this, &solver, &formula, &held] {
    held.store(solver.memory_bytes(), std::memory_order_relaxed);
    return solver.memory_bytes() + formula.memory_bytes() <= memory_limit &&
           (!stop.limits || stop.limits->reached() != Limit::memory);
  };
  hooks.load_fits = [this, &formula](std::size_t bytes) { return load_fits(bytes, formula); };
  return hooks;
}

RelaxedChecker::RelaxedChecker(std::span<const Operation* const> ops, const Model& model,
                               const search::StopSignal& stop, std::uint64_t memory_limit,
                               std::shared_ptr<const RelaxedRelevance> relevance)
    : ops_(ops),
      model_(model),
      relevance_(relevance ? std::move(relevance) : std::make_shared<const RelaxedRelevance>(ops, model)),
      stop_(stop),
      memory_limit_(memory_limit) {}

namespace {

// The closure look's budget (relaxed_closure.hpp), in model steps: a few milliseconds.
constexpr std::uint64_t kClosureSteps = 1 << 16;
// Looks in a row that answered nothing before the partition does without them: on a
// mutex history the supply of relaxed releases is what every answer turns on, so
// every look runs into paths that need more of them than there are.
constexpr int kLookMissesBeforeGivingUp = 16;

}  // namespace

RelaxedHistory RelaxedChecker::relaxed_of(const std::vector<bool>& keep) {
  ++decisions_;
  const std::vector<bool> leave_out = relevance_->irrelevant(keep);
  return relax(ops_, keep, &leave_out);
}

bool RelaxedChecker::worth_encoding(const RelaxedHistory& relaxed) const {
  std::size_t unencodable = SIZE_MAX;
  {
    const std::lock_guard lock(unencodable_mutex_);
    unencodable = unencodable_kept_;
  }
  if (unencodable == SIZE_MAX) return true;
  const auto kept = static_cast<std::size_t>(std::count(relaxed.kept.begin(), relaxed.kept.end(), true));
  return 2 * kept <= unencodable;
}

RelaxedDecision RelaxedChecker::decide(const std::vector<bool>& keep) {
  const RelaxedHistory relaxed = relaxed_of(keep);
  if (worth_encoding(relaxed)) {
    bool unsupported = false;
    RelaxedDecision decision = decide_by_solver(relaxed, stop_, memory_limit_, &unsupported);
    if (!unsupported) return decision;
  }
  return decide_by_search(relaxed, 0, stop_, memory_limit_, true);
}

RelaxedDecision RelaxedChecker::decide_quickly(const RelaxedHistory& relaxed,
                                               std::optional<std::chrono::steady_clock::duration> budget) {
  if (RelaxedDecision look = this->look(relaxed); look.verdict != RelaxedVerdict::undecided) return look;
  search::StopSignal within = stop_;
  if (budget) within.deadline = std::min(within.deadline, std::chrono::steady_clock::now() + *budget);
  if (worth_encoding(relaxed)) {
    // Each side may hold up to half the memory limit.
    std::atomic<bool> unsupported{false};
    RelaxedDecision decision = race_decision(
        within,
        [&](const search::StopSignal& stop) { return decide_by_search(relaxed, 0, stop, memory_limit_ / 2, false); },
        [&](const search::StopSignal& stop) {
          bool found_unsupported = false;
          RelaxedDecision by_solver = decide_by_solver(relaxed, stop, memory_limit_ / 2, &found_unsupported);
          unsupported = found_unsupported;
          return by_solver;
        });
    // Unless the solver found that the model has no direct encoding, which stopped the
    // search racing it.
    if (!unsupported || decision.verdict != RelaxedVerdict::undecided) return decision;
  }
  return decide_by_search(relaxed, 0, within, memory_limit_, false);
}

RelaxedDecision RelaxedChecker::look(const RelaxedHistory& relaxed) {
  if (RelaxedDecision swept = decide_mutex_by_sweep(relaxed, *relevance_); swept.verdict != RelaxedVerdict::undecided) {
    return swept;
  }
  return look_by_closure(relaxed, stop_, memory_limit_);
}

RelaxedDecision RelaxedChecker::search_until_stopped(const RelaxedHistory& relaxed, const search::StopSignal& stop,
                                                     std::uint64_t memory_limit) {
  return decide_by_search(relaxed, 0, stop, memory_limit, false);
}

RelaxedDecision RelaxedChecker::look_by_closure(const RelaxedHistory& relaxed, const search::StopSignal& stop,
                                                std::uint64_t memory_limit) {
  if (!closure_applies_) return {};
  const ClosureDecision closure = decide_by_closure(relaxed, model_, stop, kClosureSteps, memory_limit / 4);
  look_misses_ = closure.decision.verdict == RelaxedVerdict::undecided ? look_misses_ + 1 : 0;
  if (closure.too_many_states || look_misses_ >= kLookMissesBeforeGivingUp) closure_applies_ = false;
  return closure.decision;
}

RelaxedDecision RelaxedChecker::decide_by_solver(const RelaxedHistory& relaxed, const search::StopSignal& stop,
                                                 std::uint64_t memory_limit, bool* unsupported) {
  const std::vector<const Operation*> pointers = relaxed.pointers();
  const RelaxedSolverLimits limits{stop, memory_limit};
  encoder::Formula formula;
  try {
    encoder::EncodeOptions options;
    options.should_stop = [&limits] { return limits.stopped(); };
    // The command's resident-memory measure too: a formula (and the solver's copy of
    // it) must fit in what the rest of the command has left.
    options.memory_ok = [&limits](std::size_t bytes) { return limits.formula_fits(bytes); };
    formula = encoder::encode(model_, pointers, options);
  } catch (const encoder::EncodingStopped&) {
    return {};
  } catch (const encoder::EncodingUnsupported&) {
    // Too many states to unroll, or kv reads with too many decompositions. Relaxing a
    // few more ops rarely changes that, so later decisions go straight to the search,
    // until one keeps at most half as many ops: relaxed reads are left out of the
    // formula (encoder/encode.cpp), and a core question that keeps a few reads of a
    // one-key kv history is encoded in microseconds where the partition is not.
    const auto kept = static_cast<std::size_t>(std::count(relaxed.kept.begin(), relaxed.kept.end(), true));
    const std::lock_guard lock(unencodable_mutex_);
    unencodable_kept_ = std::min(unencodable_kept_, kept);
    *unsupported = true;
    return {};
  }
  const std::unique_ptr<solvers::Solver> solver = solvers::make_cadical_solver();
  std::atomic<std::uint64_t> held{0};
  const solvers::FormulaHooks hooks = limits.hooks(*solver, formula, held);
  solvers::DecisionRecording recording;
  recording.track_groups = true;
  solvers::FormulaDecision decision;
  try {
    decision = solvers::decide_formula(*solver, formula, hooks, recording);
  } catch (const std::bad_alloc&) {
    return {};
  }
  RelaxedDecision result;
  switch (decision.outcome) {
    case search::Outcome::linearizable: return RelaxedDecision::ordered(decision.linearization, relaxed);
    case search::Outcome::not_linearizable: {
      result.verdict = RelaxedVerdict::not_linearizable;
      result.hinted = true;
      std::vector<bool> mentioned(ops_.size(), false);
      for (const std::uint32_t group : decision.failed_groups) {
        for (const std::uint32_t op : formula.groups[group].ops) {
          if (relaxed.kept[op]) mentioned[relaxed.source_index[op]] = true;
        }
      }
      relevance_->add_potential_writers(mentioned);
      std::vector<bool> kept(ops_.size(), false);
      for (std::uint32_t r = 0; r < relaxed.ops.size(); ++r) kept[relaxed.source_index[r]] = relaxed.kept[r];
      for (std::uint32_t i = 0; i < ops_.size(); ++i) {
        if (mentioned[i] && kept[i]) result.needed.push_back(i);
      }
      return result;
    }
    default: return result;
  }
}

RelaxedDecision RelaxedChecker::decide_by_search(const RelaxedHistory& relaxed, std::uint64_t step_budget,
                                                 const search::StopSignal& stop, std::uint64_t memory_limit,
                                                 bool closure_first) {
  // The sweep decides a mutex's relaxed history exactly, whatever called the search.
  if (RelaxedDecision swept = decide_mutex_by_sweep(relaxed, *relevance_); swept.verdict != RelaxedVerdict::undecided) {
    return swept;
  }
  if (closure_first) {
    if (RelaxedDecision look = look_by_closure(relaxed, stop, memory_limit);
        look.verdict != RelaxedVerdict::undecided) {
      return look;
    }
  }
  search::SubHistory sub;
  sub.ops = relaxed.pointers();
  search::MemoryBudget memory(memory_limit);
  RelaxedDecision result;
  try {
    auto engine = search::make_wgl(sub, model_, memory, stop);
    search::Outcome outcome = engine->run(step_budget ? step_budget : 1 << 16);
    while (outcome == search::Outcome::undecided && step_budget == 0) outcome = engine->run(1 << 16);
    if (outcome == search::Outcome::linearizable) {
      result = RelaxedDecision::ordered(engine->linearization(), relaxed);
    } else if (outcome == search::Outcome::not_linearizable) {
      result.verdict = RelaxedVerdict::not_linearizable;
    }
  } catch (const std::bad_alloc&) {
  }
  return result;
}

}  // namespace ariadne::refute
