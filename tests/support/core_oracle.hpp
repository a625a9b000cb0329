// Checking a core from the outside, for the core tests: relax the history as the core
// contract says and decide it with an engine of the caller's choice, through check(),
// so every "linearizable" answer is replayed by the certificate checker.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "refute/relaxed_history.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ariadne::testing {

// The ops of the partition that holds op `id` (the whole history for unpartitioned
// models), in call order.
inline std::vector<const Operation*> partition_of(const History& history, const Model& model, std::uint32_t id) {
  const Operation* anchor = nullptr;
  for (const Operation& op : history.ops) {
    if (op.id == id) anchor = &op;
  }
  std::vector<const Operation*> ops;
  for (const Operation& op : history.ops) {
    if (!model.is_partitioned() || model.partition_key(op) == model.partition_key(*anchor)) ops.push_back(&op);
  }
  return ops;
}

// keep[i] for each op of `partition`: whether its id is in `core`.
inline std::vector<bool> kept_by(std::span<const Operation* const> partition, std::span<const std::uint32_t> core) {
  std::vector<bool> keep(partition.size(), false);
  for (std::size_t i = 0; i < partition.size(); ++i) {
    for (const std::uint32_t id : core) keep[i] = keep[i] || partition[i]->id == id;
  }
  return keep;
}

inline Verdict decide_relaxed(std::span<const Operation* const> partition, const std::vector<bool>& keep,
                              const Model& model, const CheckOptions& options) {
  const History relaxed = refute::relax(partition, keep).as_history("relaxed");
  CheckOptions quiet = options;
  quiet.minimal_core = false;
  return check(relaxed, model, quiet).verdict;
}

struct MinimalityCheck {
  bool refuted = false;  // the core's relaxed history is not linearizable
  int necessary = 0;     // ops whose relaxation alone made it linearizable
  int undecided = 0;     // relaxations the engine could not decide in time
};

// Re-solves the core's relaxed history, then each relaxation with one more op relaxed.
inline MinimalityCheck check_minimality(std::span<const Operation* const> partition,
                                        std::span<const std::uint32_t> core, const Model& model,
                                        const CheckOptions& options) {
  MinimalityCheck result;
  std::vector<bool> keep = kept_by(partition, core);
  result.refuted = decide_relaxed(partition, keep, model, options) == Verdict::not_linearizable;
  for (std::size_t i = 0; i < partition.size(); ++i) {
    if (!keep[i]) continue;
    keep[i] = false;
    switch (decide_relaxed(partition, keep, model, options)) {
      case Verdict::linearizable: ++result.necessary; break;
      case Verdict::unknown: ++result.undecided; break;
      case Verdict::not_linearizable: break;
    }
    keep[i] = true;
  }
  return result;
}

}  // namespace ariadne::testing
