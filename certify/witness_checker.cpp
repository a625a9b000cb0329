// Witness replay. Three independent checks, each O(n) or O(n log n):
// 1. membership: ids exist, none twice, every op that must take effect is present;
// 2. real time: no op is placed before one that completed before it was invoked;
//    scanning the order, each op's return must come after every earlier op's call;
// 3. legality: the model replays the order. A crashed op's result is unknown, so a
//    step may allow several states; the replay tracks the set of states reachable so
//    far (usually one) instead of trusting any engine's choice. Keyed models are
//    replayed key by key, which is exact by locality [HerlihyWing90].
#include "certify/witness_checker.hpp"

#include <algorithm>
#include <map>
#include <unordered_set>
#include <vector>

namespace ariadne::certify {

namespace {

std::string describe(const Model& model, const Operation& op) {
  return "op " + std::to_string(op.id) + " (process " + std::to_string(op.process) + ", " +
         model.describe_operation(op) + ")";
}

constexpr std::size_t kMaxTrackedStates = 1u << 16;

}  // namespace

std::optional<std::string> check_linearization(const History& history, const Model& model,
                                               std::span<const std::uint32_t> order) {
  const auto& ops = history.ops;
  auto find = [&](std::uint32_t id) -> const Operation* {
    auto it = std::lower_bound(ops.begin(), ops.end(), id,
                               [](const Operation& op, std::uint32_t v) { return op.id < v; });
    return it != ops.end() && it->id == id ? &*it : nullptr;
  };

  // 1. Membership.
  std::vector<const Operation*> placed;
  placed.reserve(order.size());
  std::unordered_set<std::uint32_t> seen;
  for (std::uint32_t id : order) {
    const Operation* op = find(id);
    if (!op) return "the linearization names op " + std::to_string(id) + ", which is not an operation of the history";
    if (!seen.insert(id).second) return "the linearization places " + describe(model, *op) + " twice";
    placed.push_back(op);
  }
  for (const Operation& op : ops) {
    if (op.must_take_effect() && !seen.count(op.id)) {
      return "the linearization leaves out " + describe(model, op) + ", which completed";
    }
  }

  // 2. Real time.
  const Operation* latest_call = nullptr;
  for (const Operation* op : placed) {
    if (latest_call && op->ret < latest_call->call) {
      return describe(model, *op) + " completed before " + describe(model, *latest_call) +
             " was invoked, yet is placed after it";
    }
    if (!latest_call || op->call > latest_call->call) latest_call = op;
  }

  // 3. Legality, per partition.
  std::map<Value, std::vector<const Operation*>> partitions;
  for (const Operation* op : placed) {
    partitions[model.is_partitioned() ? model.partition_key(*op) : Value()].push_back(op);
  }
  for (const auto& [key, part] : partitions) {
    auto compiled = model.compile(part);
    std::vector<StateId> states{compiled->initial()};
    std::vector<StateId> next;
    for (std::uint32_t i = 0; i < part.size(); ++i) {
      next.clear();
      for (StateId s : states) compiled->step(s, i, next);
      std::sort(next.begin(), next.end());
      next.erase(std::unique(next.begin(), next.end()), next.end());
      if (next.empty()) {
        std::string state_text = compiled->describe_state(states.front());
        return describe(model, *part[i]) + " cannot take effect where the linearization puts it: the model's state there is " +
               state_text + (states.size() > 1 ? " (or one of " + std::to_string(states.size()) + " states)" : "");
      }
      if (next.size() > kMaxTrackedStates) {
        return "replaying the linearization branches into more than " + std::to_string(kMaxTrackedStates) +
               " model states; the certificate cannot be checked";
      }
      states.swap(next);
    }
  }
  return std::nullopt;
}

}  // namespace ariadne::certify
