#include "portfolio/refutation.hpp"

#include "engines/engine_table.hpp"
#include "explain/explanation.hpp"
#include "explain/real_time_facts.hpp"
#include "explain/why.hpp"
#include "refute/first_failure.hpp"
#include "refute/minimal_core.hpp"
#include "refute/relevant_relaxed.hpp"

#include <algorithm>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>

namespace ariadne::portfolio {

namespace {

using Clock = std::chrono::steady_clock;

search::StopSignal within(const search::StopSignal& limits, Clock::duration budget) {
  search::StopSignal stop = limits;
  stop.deadline = std::min(stop.deadline, Clock::now() + budget);
  return stop;
}

}  // namespace

Clock::duration core_budget(const CheckOptions& options, Clock::duration verdict_time) {
  const double verdict_seconds = std::chrono::duration<double>(verdict_time).count();
  const double seconds = options.core_seconds > 0 ? options.core_seconds
                                                  : kCoreBudgetFloorSeconds + kCoreBudgetPerVerdict * verdict_seconds;
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

void record_core(std::span<const Operation* const> core_ops, Clock::time_point started, CheckResult& result) {
  result.core_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
  for (const Operation* op : core_ops) result.core.push_back(op->id);
  std::sort(result.core.begin(), result.core.end());
}

void describe_refutation(const Refutation& refutation, const Model& model, const CheckOptions& options,
                         const Limits& limits, CheckResult& result) {
  if (!keeps_real_time(refutation.sub.consistency)) {
    describe_program_order_refutation(refutation, model, options, limits, result);
    return;
  }
  const search::SubHistory& sub = refutation.sub;
  result.failing_partition_ops.reserve(sub.ops.size());
  for (const Operation* op : sub.ops) result.failing_partition_ops.push_back(op->id);
  // Where it goes wrong, within a budget proportional to the refutation's own cost.
  // It is a courtesy, not the verdict: if it runs out of memory, the answer stands.
  // With the refuting engine's own ops to start from, the search takes a few prefix
  // checks, each costing up to what the verdict did, so it gets twice the verdict's
  // time.
  search::MemoryBudget memory(limits.memory_limit() > 0 ? limits.memory_limit() : options.memory_limit, &limits);
  limits.enter(Phase::failing_op);
  const auto courtesy = std::max<Clock::duration>(std::chrono::milliseconds(250), refutation.refuting_ops.empty()
                                                                                      ? refutation.verdict_time / 4
                                                                                      : 2 * refutation.verdict_time);
  // The refuting engine's row says what its work is worth to the failing-op search:
  // a solver's refutation says nothing about how long a native search would need, so
  // the search then gets only the minimum budget.
  const std::uint64_t per_step =
      refutation.winner ? engines::engine_row(*refutation.winner).failing_op_steps_per_step : 0;
  const std::uint64_t budget = std::max(engines::kFailingOpMinSteps, per_step * refutation.steps);
  std::optional<refute::FirstFailure> first;
  try {
    first = refute::find_first_failure(sub, model, memory, within(refutation.limits, courtesy), budget,
                                       refutation.refuting_ops);
    if (first && options.prefix) {
      if (auto order =
              refute::linearize_prefix(sub, model, *first, memory, within(refutation.limits, courtesy), budget)) {
        result.prefix_linearization = std::move(*order);
      }
    }
  } catch (const std::bad_alloc&) {
  }

  std::optional<std::uint32_t> failing_index;
  if (first) {
    result.failing_op = first->op->id;
    const auto it = std::find(sub.ops.begin(), sub.ops.end(), first->op);
    failing_index = static_cast<std::uint32_t>(it - sub.ops.begin());
  }

  limits.enter(Phase::core);
  const auto core_started = Clock::now();
  std::vector<const Operation*> core_ops;
  // The partition relaxed and described once, for the core search and then the
  // explanation (each pass costs about a verdict on a 10^6-op partition).
  std::shared_ptr<const refute::RelaxedRelevance> relevance = refutation.relevance;
  if (options.minimal_core) {
    if (!relevance) relevance = std::make_shared<const refute::RelaxedRelevance>(sub.ops, model);
    refute::CoreSearch core;
    try {
      core = refute::find_minimal_core(sub.ops, model, failing_index,
                                       within(refutation.limits, core_budget(options, refutation.verdict_time)),
                                       memory.limit(), refutation.refuting_ops, relevance);
    } catch (const std::logic_error& e) {
      // The core search found an order for a refutation confirmed before: two checks
      // disagree, which no third can settle here.
      throw InternalError("the confirmed refutation" + refutation.partition +
                          " is contradicted by the core search: " + e.what());
    }
    for (const std::uint32_t i : core.core) core_ops.push_back(sub.ops[i]);
    result.core_minimal = core.minimal;
  } else {
    core_ops = sub.ops;
  }
  record_core(core_ops, core_started, result);

  if (core_ops.size() <= explain::kMaxListedOps) result.core_real_time = explain::real_time_facts(core_ops);
  explain::CoreSummary summary;
  summary.core = core_ops;
  summary.partition_ops = sub.ops;
  summary.partition = refutation.partition;
  summary.minimal = result.core_minimal;
  summary.shrinking_skipped = !options.minimal_core;
  summary.facts_known = core_ops.size() <= explain::kMaxListedOps;
  summary.facts = result.core_real_time;
  summary.deadline = refutation.limits.deadline;
  summary.limits = &limits;
  summary.relevance = relevance.get();
  limits.enter(Phase::explanation);
  result.explanation = explain::explain_core(model, summary);
  const explain::Why why = explain::explain_why(model, summary, first ? first->op : nullptr, result.consistency);
  result.why = why.sentence;
  result.why_ops = why.ops;
  if (first) {
    const Operation& op = *first->op;
    result.explanation += "Everything before event " + std::to_string(op.ret) +
                          " can be linearized; the completion of " + explain::name_op(model, op) + " at event " +
                          std::to_string(op.ret) +
                          " is the first result that no order of the operations so far can explain.\n";
  }
}

}  // namespace ariadne::portfolio
