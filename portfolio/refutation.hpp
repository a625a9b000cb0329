// What a "not linearizable" answer comes with, once a partition is refuted: the first
// failing op (Knossos' view), the longest linearizable prefix on request, a minimal
// core with its real-time facts, and the explanation in words.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "refute/relevant_relaxed.hpp"
#include "search/search_engine.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ariadne::portfolio {

// Only refutations confirmed by decide() (confirmation.hpp) are described or kept, so a
// core search that finds an order for one is a bug.
struct Refutation {
  search::SubHistory sub;                   // the refuted partition (its ops outlive this)
  std::string partition;                    // " on key 3", or empty
  std::optional<Engine> winner;             // the engine that refuted it
  std::uint64_t steps = 0;                  // model steps the refutation took
  std::vector<std::uint32_t> refuting_ops;  // the winner's, if any (SearchEngine::refuting_ops)
  std::chrono::steady_clock::duration verdict_time{};
  search::StopSignal limits;  // the check's own deadline and cancel flag (its Limits outlive this)
  // The partition relaxed and described once (linearizability only), shared by the
  // confirmation, the core search and the explanation; nullptr until one needs it.
  std::shared_ptr<const refute::RelaxedRelevance> relevance;
};

// Fills failing_partition_ops, core, core_minimal, core_ms, core_real_time, failing_op, explanation and
// prefix_linearization of `result`. Each part is bounded: the failing-op search by a
// quarter of the verdict's time (at least 250 ms), the prefix by as much again, the
// core by core_seconds (by default 2 s plus ten times the verdict's time), and all by the check's own limits; a part
// that runs out leaves a valid but weaker answer (no failing op, a core not minimal).
// Each part enters its Phase in `limits` and stops at them.
// How long shrinking a core may take. Minimising takes one decision per core op at
// least. A user who asked for a budget (--core-budget) gets it; otherwise the core may
// take a multiple of what the verdict took, plus a floor, so what the user waits for
// stays proportional.
std::chrono::steady_clock::duration core_budget(const CheckOptions& options,
                                                std::chrono::steady_clock::duration verdict_time);

// Records the core found (or the whole partition) in `result`: its op ids in
// ascending order, and the time since `started`.
void record_core(std::span<const Operation* const> core_ops, std::chrono::steady_clock::time_point started,
                 CheckResult& result);

// Under the sequential conditions (refutation.sub.consistency) it hands over to
// describe_program_order_refutation.
void describe_refutation(const Refutation& refutation, const Model& model, const CheckOptions& options,
                         const Limits& limits, CheckResult& result);

// The same for a history (or key) that is not sequentially consistent: a minimal core
// under program order (refute/program_order_core.hpp), its program-order facts in
// core_real_time, and the explanation. There is no failing op and no prefix: both are
// read off real time, which this condition does not keep.
void describe_program_order_refutation(const Refutation& refutation, const Model& model, const CheckOptions& options,
                                       const Limits& limits, CheckResult& result);

}  // namespace ariadne::portfolio
