// A sequential-consistency refutation described: core, program-order facts, words.
#include "explain/program_order_facts.hpp"
#include "explain/why.hpp"
#include "portfolio/refutation.hpp"
#include "refute/program_order_core.hpp"

#include <algorithm>

namespace ariadne::portfolio {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

void describe_program_order_refutation(const Refutation& refutation, const Model& model, const CheckOptions& options,
                                       const Limits& limits, CheckResult& result) {
  const search::SubHistory& sub = refutation.sub;
  result.failing_partition_ops.reserve(sub.ops.size());
  for (const Operation* op : sub.ops) result.failing_partition_ops.push_back(op->id);

  limits.enter(Phase::core);
  const auto core_started = Clock::now();
  std::vector<const Operation*> core_ops;
  if (options.minimal_core) {
    search::StopSignal stop = refutation.limits;
    stop.deadline = std::min(stop.deadline, Clock::now() + core_budget(options, refutation.verdict_time));
    const std::uint64_t memory = limits.memory_limit() > 0 ? limits.memory_limit() : options.memory_limit;
    const refute::CoreSearch core = refute::find_program_order_core(sub.ops, model, stop, memory);
    for (const std::uint32_t i : core.core) core_ops.push_back(sub.ops[i]);
    result.core_minimal = core.minimal;
  } else {
    core_ops = sub.ops;
  }
  record_core(core_ops, core_started, result);

  result.core_real_time = explain::program_order_facts(core_ops);
  limits.enter(Phase::explanation);
  const std::string condition = result.consistency == Consistency::sequential_per_key
                                    ? "sequentially consistent" + refutation.partition
                                    : "sequentially consistent";
  result.explanation =
      explain::explain_program_order_core(model, core_ops, result.core_real_time, result.core_minimal, condition);
  // The same shapes as under real time, stated in program order.
  explain::CoreSummary summary;
  summary.core = core_ops;
  summary.partition_ops = sub.ops;
  summary.partition = refutation.partition;
  summary.minimal = result.core_minimal;
  summary.deadline = refutation.limits.deadline;
  summary.limits = &limits;
  const explain::Why why = explain::explain_why(model, summary, nullptr, result.consistency);
  result.why = why.sentence;
  result.why_ops = why.ops;
}

}  // namespace ariadne::portfolio
