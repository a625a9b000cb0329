#include "refute/switchable_check.hpp"

#include "encoder/encode.hpp"
#include "solvers/solver_engine.hpp"

#include <atomic>
#include <new>

namespace ariadne::refute {

namespace {

// Cycle cuts per model: sixteen times the verdict engines' cap. The cuts stay in the
// solver for every later question, and on a 219-op register history taking more at
// once saves a quarter of the core's time; a verdict, asked once, does not gain.
constexpr std::size_t kCutsPerModel = 4096;

}  // namespace

std::unique_ptr<SwitchableCheck> SwitchableCheck::make(std::span<const Operation* const> ops, const Model& model,
                                                       const RelaxedRelevance& relevance,
                                                       const std::vector<bool>& candidate,
                                                       const search::StopSignal& stop, std::uint64_t memory_limit,
                                                       std::chrono::steady_clock::duration encoding_budget) {
  std::unique_ptr<SwitchableCheck> check(new SwitchableCheck(stop, memory_limit));
  check->relaxed_ = relax_both_ways(ops, candidate, relevance.irrelevant_to_every_subset(candidate));

  check->selector_of_.assign(ops.size(), std::nullopt);
  std::uint32_t selectors = 0;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (candidate[i]) check->selector_of_[i] = selectors++;
  }
  encoder::EncodeOptions options;
  options.selectors.resize(check->relaxed_.ops.size());
  for (std::uint32_t r = 0; r < check->relaxed_.ops.size(); ++r) {
    const auto selector = check->selector_of_[check->relaxed_.source_index[r]];
    if (!selector) continue;
    options.selectors[r].side =
        check->relaxed_.kept[r] ? encoder::OpSelector::Side::kept : encoder::OpSelector::Side::relaxed;
    options.selectors[r].selector = *selector;
  }
  const RelaxedSolverLimits limits{stop, memory_limit};
  const auto encoding_deadline = std::chrono::steady_clock::now() + encoding_budget;
  options.should_stop = [&] { return limits.stopped() || std::chrono::steady_clock::now() > encoding_deadline; };
  options.memory_ok = [&limits](std::size_t bytes) { return limits.formula_fits(bytes); };
  try {
    check->formula_ = encoder::encode(model, check->relaxed_.pointers(), options);
  } catch (const encoder::EncodingStopped&) {
    return nullptr;
  } catch (const encoder::EncodingUnsupported&) {
    return nullptr;
  }

  check->solver_ = solvers::make_cadical_solver();
  solvers::Solver& solver = *check->solver_;
  if (!limits.load_fits(solver.load_bytes_estimate(check->formula_), check->formula_)) return nullptr;
  solver.stop_when([&stop] { return stop.check() != search::StopSignal::Why::none; });
  try {
    solver.load(check->formula_, false);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
  return check;
}

RelaxedDecision SwitchableCheck::decide(const std::vector<bool>& keep, const search::StopSignal* stop) {
  ++decisions_;
  std::vector<encoder::Literal> assumptions;
  for (std::uint32_t i = 0; i < keep.size(); ++i) {
    if (keep[i]) assumptions.push_back(formula_.selectors.at(selector_of_.at(i).value()));
  }
  const RelaxedSolverLimits limits{stop ? *stop : stop_, memory_limit_};
  std::atomic<std::uint64_t> held{0};
  const solvers::FormulaHooks hooks = limits.hooks(*solver_, formula_, held);
  solvers::FormulaDecision decision;
  try {
    decision = solvers::decide_loaded(*solver_, formula_, assumptions, hooks, {}, kCutsPerModel);
  } catch (const std::bad_alloc&) {
    return {};
  }
  RelaxedDecision result;
  switch (decision.outcome) {
    case search::Outcome::linearizable: return RelaxedDecision::ordered(decision.linearization, relaxed_);
    case search::Outcome::not_linearizable:
      result.verdict = RelaxedVerdict::not_linearizable;
      result.hinted = true;
      for (std::uint32_t i = 0; i < keep.size(); ++i) {
        if (keep[i] && solver_->failed(formula_.selectors[*selector_of_[i]])) result.needed.push_back(i);
      }
      return result;
    default: return result;
  }
}

}  // namespace ariadne::refute
