#include "explain/relaxed_check.hpp"

#include "encoder/encode.hpp"
#include "solvers/solver.hpp"
#include "solvers/solver_engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <new>

namespace ariadne::explain {

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
                               const search::StopSignal& stop, std::uint64_t memory_limit)
    : ops_(ops), model_(model), relevance_(ops, model), stop_(stop), memory_limit_(memory_limit) {}

namespace {

// The quick search starts at a few milliseconds of WGL (RelaxedChecker::search_steps_)
// and grows up to about a second.
constexpr std::uint64_t kMaxQuickSearchSteps = 1 << 24;
// The search often settles every candidate (mutex histories) or none (registers with
// many relaxed writes, which WGL must place everywhere): after this many misses in a
// row the solver goes first...
constexpr int kSearchMissesBeforeSolverFirst = 2;
// ...until a solver decision takes this long: some relaxed histories are hard for
// CDCL (a second or more per refutation) yet easy for WGL given more steps, so the
// search gets another chance, with eight times the steps.
constexpr std::chrono::milliseconds kSlowSolverDecision(200);

}  // namespace

RelaxedHistory RelaxedChecker::relaxed_of(const std::vector<bool>& keep) {
  ++decisions_;
  const std::vector<bool> leave_out = relevance_.irrelevant(keep);
  return relax(ops_, keep, &leave_out);
}

RelaxedDecision RelaxedChecker::decide(const std::vector<bool>& keep) {
  const RelaxedHistory relaxed = relaxed_of(keep);
  if (!encodable_) return decide_by_search(relaxed, 0);
  return decide_by_solver(relaxed);
}

RelaxedDecision RelaxedChecker::decide_quickly(const std::vector<bool>& keep) {
  const RelaxedHistory relaxed = relaxed_of(keep);
  if (!encodable_) return decide_by_search(relaxed, 0);
  if (search_misses_ < kSearchMissesBeforeSolverFirst) {
    RelaxedDecision quick = decide_by_search(relaxed, search_steps_);
    if (quick.verdict != RelaxedVerdict::undecided || stop_.check() != search::StopSignal::Why::none) {
      search_misses_ = 0;
      return quick;
    }
    ++search_misses_;
  }
  const auto started = std::chrono::steady_clock::now();
  RelaxedDecision decision = decide_by_solver(relaxed);
  if (std::chrono::steady_clock::now() - started > kSlowSolverDecision && search_steps_ < kMaxQuickSearchSteps) {
    search_misses_ = 0;
    search_steps_ *= 8;
  }
  return decision;
}

RelaxedDecision RelaxedChecker::decide_by_search_only(const std::vector<bool>& keep, std::uint64_t step_budget) {
  return decide_by_search(relaxed_of(keep), step_budget);
}

RelaxedDecision RelaxedChecker::decide_by_solver(const RelaxedHistory& relaxed) {
  const std::vector<const Operation*> pointers = relaxed.pointers();
  const RelaxedSolverLimits limits{stop_, memory_limit_};
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
    // Too many states to unroll, or kv reads with too many decompositions: relaxing
    // more ops rarely changes that, so later decisions go straight to the search.
    encodable_ = false;
    return decide_by_search(relaxed, 0);
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
    case search::Outcome::linearizable:
      return RelaxedDecision::ordered(decision.linearization, relaxed);
    case search::Outcome::not_linearizable: {
      result.verdict = RelaxedVerdict::not_linearizable;
      result.hinted = true;
      std::vector<bool> mentioned(ops_.size(), false);
      for (const std::uint32_t group : decision.failed_groups) {
        for (const std::uint32_t op : formula.groups[group].ops) {
          if (relaxed.kept[op]) mentioned[relaxed.source_index[op]] = true;
        }
      }
      relevance_.add_potential_writers(mentioned);
      std::vector<bool> kept(ops_.size(), false);
      for (std::uint32_t r = 0; r < relaxed.ops.size(); ++r) kept[relaxed.source_index[r]] = relaxed.kept[r];
      for (std::uint32_t i = 0; i < ops_.size(); ++i) {
        if (mentioned[i] && kept[i]) result.needed.push_back(i);
      }
      return result;
    }
    default:
      return result;
  }
}

RelaxedDecision RelaxedChecker::decide_by_search(const RelaxedHistory& relaxed, std::uint64_t step_budget) {
  search::SubHistory sub;
  sub.ops = relaxed.pointers();
  search::MemoryBudget memory(memory_limit_);
  RelaxedDecision result;
  try {
    auto engine = search::make_wgl_required_first(sub, model_, memory, stop_);
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

}  // namespace ariadne::explain
