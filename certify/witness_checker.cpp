// Witness replay. Three independent checks, each O(n) or O(n log n), in O(n) memory:
// 1. membership: ids exist, none twice, every op that must take effect is present;
// 2. real time: no op is placed before one that completed before it was invoked;
//    scanning the order, each op's return must come after every earlier op's call.
//    Under sequential consistency, program order instead: scanning the order, a
//    completed op must have been invoked after every op of its process placed
//    earlier (a crashed op is no one's predecessor, and is checked as the later op);
// 3. legality: the model replays the order. A crashed op's result is unknown, so a
//    step may allow several states; the replay tracks the set of states reachable so
//    far (usually one) instead of trusting any engine's choice. Keyed models are
//    replayed key by key, which is exact by locality [HerlihyWing90].
#include "certify/witness_checker.hpp"

#include <ariadne/certificate.hpp>

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace ariadne::certify {

namespace {

std::string describe(const Model& model, const Operation& op) {
  return "op " + std::to_string(op.id) + " (process " + std::to_string(op.process) + ", " +
         model.describe_operation(op) + ")";
}

constexpr std::size_t kMaxTrackedStates = 1u << 16;

}  // namespace

namespace {

// Program order (2, sequential): per process, the latest-invoked op placed so far.
// Per key (sequential-per-key, a partitioned model): per process and key, since each
// key is an order of its own.
std::optional<std::string> check_program_order(const Model& model, std::span<const Operation* const> placed,
                                               bool per_key) {
  std::unordered_map<Value, const Operation*, ValueHash> latest;
  for (const Operation* op : placed) {
    Value thread = Value::integer(op->process);
    if (per_key) thread = Value::vector({std::move(thread), model.partition_key(*op)});
    const Operation*& seen = latest[thread];
    if (seen && op->must_take_effect() && seen->call > op->call) {
      return describe(model, *op) + " was invoked before " + describe(model, *seen) +
             " by the same process, yet is placed after it";
    }
    if (!seen || op->call > seen->call) seen = op;
  }
  return std::nullopt;
}

// Membership (1) and real time or program order (2); fills `placed` with the ops in
// order.
std::optional<std::string> check_placement(const History& history, const Model& model,
                                           std::span<const std::uint32_t> order, Consistency consistency,
                                           std::vector<const Operation*>& placed) {
  const auto& ops = history.ops;
  // Op ids are event positions, below event_count: one slot per event finds an op in
  // O(1) (a binary search per id costs a cache miss per probe on large histories).
  constexpr std::uint32_t kAbsent = UINT32_MAX;
  std::uint64_t id_bound = history.event_count;
  for (const Operation& op : ops) id_bound = std::max<std::uint64_t>(id_bound, std::uint64_t{op.id} + 1);
  std::vector<std::uint32_t> index_of(id_bound, kAbsent);
  for (std::uint32_t i = 0; i < ops.size(); ++i) index_of[ops[i].id] = i;

  // One bit per operation of the history, by position: a hash set of ids would cost
  // some forty bytes per operation, which for ten million is most of a gigabyte.
  std::vector<bool> seen(ops.size(), false);
  placed.reserve(order.size());
  for (std::uint32_t id : order) {
    const std::uint32_t i = id < index_of.size() ? index_of[id] : kAbsent;
    if (i == kAbsent) {
      return "the linearization names op " + std::to_string(id) + ", which is not an operation of the history";
    }
    if (seen[i]) return "the linearization places " + describe(model, ops[i]) + " twice";
    seen[i] = true;
    placed.push_back(&ops[i]);
  }
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (ops[i].must_take_effect() && !seen[i]) {
      return "the linearization leaves out " + describe(model, ops[i]) + ", which completed";
    }
  }

  if (!keeps_real_time(consistency)) {
    return check_program_order(model, placed, consistency == Consistency::sequential_per_key && model.is_partitioned());
  }
  const Operation* latest_call = nullptr;
  for (const Operation* op : placed) {
    if (latest_call && op->ret < latest_call->call) {
      return describe(model, *op) + " completed before " + describe(model, *latest_call) +
             " was invoked, yet is placed after it";
    }
    if (!latest_call || op->call > latest_call->call) latest_call = op;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_order(const History& history, const Model& model, std::span<const std::uint32_t> order,
                                       Consistency consistency) {
  std::vector<const Operation*> placed;
  return check_placement(history, model, order, consistency, placed);
}

std::optional<std::string> check_legality(const Model& model, std::span<const Operation* const> part) {
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
      return describe(model, *part[i]) +
             " cannot take effect where the linearization puts it: the model's state there is " + state_text +
             (states.size() > 1 ? " (or one of " + std::to_string(states.size()) + " states)" : "");
    }
    if (next.size() > kMaxTrackedStates) {
      return "replaying the linearization branches into more than " + std::to_string(kMaxTrackedStates) +
             " model states; the certificate cannot be checked";
    }
    states.swap(next);
  }
  return std::nullopt;
}

std::optional<std::string> check_linearization(const History& history, const Model& model,
                                               std::span<const std::uint32_t> order) {
  return check_linearization(history, model, order, Consistency::linearizable);
}

std::optional<std::string> check_linearization(const History& history, const Model& model,
                                               std::span<const std::uint32_t> order, Consistency consistency) {
  std::vector<const Operation*> placed;
  if (auto problem = check_placement(history, model, order, consistency, placed)) return problem;
  // 3. Legality, per partition.
  std::unordered_map<Value, std::vector<const Operation*>, ValueHash> partitions;
  std::vector<const std::vector<const Operation*>*> in_first_seen_order;
  for (const Operation* op : placed) {
    auto [it, inserted] = partitions.try_emplace(model.is_partitioned() ? model.partition_key(*op) : Value());
    if (inserted) in_first_seen_order.push_back(&it->second);
    it->second.push_back(op);
  }
  for (const auto* part : in_first_seen_order) {
    if (auto problem = check_legality(model, *part)) return problem;
  }
  return std::nullopt;
}

}  // namespace ariadne::certify

namespace ariadne {

std::optional<std::string> verify_linearization(const History& history, const Model& model,
                                                std::span<const std::uint32_t> order) {
  return certify::check_linearization(history, model, order);
}

}  // namespace ariadne
