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

// The replay found no state in which `op` can take effect; `states` were possible
// just before it, the first of them described as `state`.
std::string cannot_take_effect(const Model& model, const Operation& op, const std::string& state, std::size_t states) {
  return describe(model, op) + " cannot take effect where the linearization puts it: the model's state there is " +
         state + (states > 1 ? " (or one of " + std::to_string(states) + " states)" : "");
}

constexpr std::string_view kUncheckable = "; the certificate cannot be checked";

std::string too_many_states() {
  return "replaying the linearization branches into more than " + std::to_string(kMaxTrackedStates) + " model states" +
         std::string(kUncheckable);
}

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
// With `left_out`, a failed op kept as an observation may be missing from the order
// (docs/command-line.md: a linearization lists every :ok op and each crashed op that took effect);
// those missing are listed there, for the legality check to place. Without it, every
// op that must take effect must be present (check_order(), whose callers replay each
// partition's order as it is).
std::optional<std::string> check_placement(const History& history, const Model& model,
                                           std::span<const std::uint32_t> order, Consistency consistency,
                                           std::vector<const Operation*>& placed,
                                           std::vector<const Operation*>* left_out = nullptr) {
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
    if (!ops[i].must_take_effect() || seen[i]) continue;
    if (left_out && ops[i].status == OpStatus::failed) {
      left_out->push_back(&ops[i]);
      continue;
    }
    return "the linearization leaves out " + describe(model, ops[i]) + ", which completed";
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

bool uncheckable(std::string_view problem) { return problem.ends_with(kUncheckable); }

std::optional<std::string> check_legality(const Model& model, std::span<const Operation* const> part) {
  std::optional<Value> end_state;
  return check_legality(model, part, end_state);
}

std::optional<std::string> check_legality(const Model& model, std::span<const Operation* const> part,
                                          std::optional<Value>& end_state) {
  end_state.reset();
  auto compiled = model.compile(part);
  std::vector<StateId> states{compiled->initial()};
  std::vector<StateId> next;
  for (std::uint32_t i = 0; i < part.size(); ++i) {
    next.clear();
    for (StateId s : states) compiled->step(s, i, next);
    // One state in, one out: the common step of a deterministic model, nothing to merge.
    if (next.size() > 1) {
      std::sort(next.begin(), next.end());
      next.erase(std::unique(next.begin(), next.end()), next.end());
    }
    if (next.empty()) {
      return cannot_take_effect(model, *part[i], compiled->describe_state(states.front()), states.size());
    }
    if (next.size() > kMaxTrackedStates) return too_many_states();
    states.swap(next);
  }
  if (states.size() == 1) end_state = compiled->state_value(states.front());
  return std::nullopt;
}

namespace {

// Legality (3) of one partition whose order leaves out failed observations
// (`left_out`), which the replay must place itself. Each may stand at any point of its
// window in `part`: after every op of `part` that completed before it was invoked, and
// before every op invoked after it completed (so real time holds against the placed
// ops, and by locality [HerlihyWing90] the partitions' orders still compose into one
// of the whole history); and after every left-out op that completed before it was
// invoked. It stands only where it changes nothing (the model steps it from the state
// there to that state alone, as the etcd model's failed cas does wherever the register
// holds another value), so placing it never harms what follows: on each path of model
// states, placing it at the first point of its window that allows it is as good as any
// other, and the replay does exactly that. It tracks, as the plain replay does, every
// state reachable so far, each with the left-out ops opened but not yet placed; a path
// on which one is still unplaced when its window closes ends there.
std::optional<std::string> check_legality_placing(const Model& model, std::span<const Operation* const> part,
                                                  std::span<const Operation* const> left_out) {
  const std::size_t m = part.size();
  std::vector<const Operation*> all(part.begin(), part.end());
  all.insert(all.end(), left_out.begin(), left_out.end());
  auto compiled = model.compile(all);
  // Windows as gaps 0..m (gap g lies just before part[g]): opens[i] the first gap a
  // left-out op may take, closes[i] the last.
  // Found by binary search on the latest call among part[..g] and the earliest
  // completion among part[g..], both monotone in g.
  std::vector<std::uint64_t> latest_call(m), earliest_ret(m);
  for (std::size_t g = 0; g < m; ++g) latest_call[g] = std::max(part[g]->call, g > 0 ? latest_call[g - 1] : 0);
  for (std::size_t g = m; g-- > 0;) earliest_ret[g] = std::min(part[g]->ret, g + 1 < m ? earliest_ret[g + 1] : kNever);
  std::vector<std::size_t> closes(left_out.size());
  std::vector<std::vector<std::uint32_t>> opening(m + 1);
  for (std::uint32_t i = 0; i < left_out.size(); ++i) {
    // The first gap after every op that completed before it was invoked...
    const auto open = std::partition_point(earliest_ret.begin(), earliest_ret.end(),
                                           [&](std::uint64_t ret) { return ret < left_out[i]->call; });
    opening[static_cast<std::size_t>(open - earliest_ret.begin())].push_back(i);
    // ...and the last before every op invoked after it completed.
    const auto close = std::partition_point(latest_call.begin(), latest_call.end(),
                                            [&](std::uint64_t call) { return call <= left_out[i]->ret; });
    closes[i] = static_cast<std::size_t>(close - latest_call.begin());
  }
  struct Path {
    StateId state;
    std::vector<std::uint32_t> pending;  // left-out ops opened, not yet placed
    bool operator<(const Path& other) const {
      return state != other.state ? state < other.state : pending < other.pending;
    }
    bool operator==(const Path& other) const { return state == other.state && pending == other.pending; }
  };
  std::vector<Path> paths{{compiled->initial(), {}}};
  std::vector<Path> next;
  std::vector<StateId> successors;
  // Places what it can of `path`'s pending ops, each only once every pending op that
  // completed before it was invoked is placed.
  const auto place = [&](Path& path) {
    for (bool placed = true; placed;) {
      placed = false;
      for (std::size_t k = 0; k < path.pending.size(); ++k) {
        const Operation& op = *left_out[path.pending[k]];
        const bool waits = std::any_of(path.pending.begin(), path.pending.end(),
                                       [&](std::uint32_t other) { return left_out[other]->ret < op.call; });
        if (waits) continue;
        successors.clear();
        compiled->step(path.state, static_cast<std::uint32_t>(m + path.pending[k]), successors);
        if (successors.size() != 1 || successors.front() != path.state) continue;
        path.pending.erase(path.pending.begin() + static_cast<std::ptrdiff_t>(k));
        placed = true;
        break;
      }
    }
  };
  for (std::size_t g = 0; g <= m; ++g) {
    const StateId before = paths.front().state;
    for (Path& path : paths) {
      path.pending.insert(path.pending.end(), opening[g].begin(), opening[g].end());
      place(path);
    }
    std::optional<std::uint32_t> unplaced;
    std::erase_if(paths, [&](const Path& path) {
      for (const std::uint32_t i : path.pending) {
        if (closes[i] == g) {
          unplaced = i;
          return true;
        }
      }
      return false;
    });
    if (paths.empty()) {
      return "the linearization leaves out " + describe(model, *left_out[*unplaced]) +
             ", a failed op the model keeps as an observation, and no point of its interval allows it (where "
             "the interval ends, the model's state is " +
             compiled->describe_state(before) + ")";
    }
    if (g == m) break;
    next.clear();
    for (const Path& path : paths) {
      successors.clear();
      compiled->step(path.state, static_cast<std::uint32_t>(g), successors);
      for (const StateId s : successors) next.push_back({s, path.pending});
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    if (next.empty()) {
      return cannot_take_effect(model, *part[g], compiled->describe_state(paths.front().state), paths.size());
    }
    if (next.size() > kMaxTrackedStates) return too_many_states();
    paths.swap(next);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_linearization(const History& history, const Model& model,
                                               std::span<const std::uint32_t> order) {
  return check_linearization(history, model, order, Consistency::linearizable);
}

std::optional<std::string> check_linearization(const History& history, const Model& model,
                                               std::span<const std::uint32_t> order, Consistency consistency) {
  std::vector<const Operation*> placed;
  // Failed observations may be left out of a linearization; under the sequential
  // conditions, whose windows program order would give, they must still be placed.
  std::vector<const Operation*> left_out;
  if (auto problem = check_placement(history, model, order, consistency, placed,
                                     keeps_real_time(consistency) ? &left_out : nullptr)) {
    return problem;
  }
  // 3. Legality, per partition.
  struct Partition {
    std::vector<const Operation*> placed, left_out;
  };
  std::unordered_map<Value, Partition, ValueHash> partitions;
  std::vector<const Partition*> in_first_seen_order;
  const auto partition_of = [&](const Operation& op) -> Partition& {
    auto [it, inserted] = partitions.try_emplace(model.is_partitioned() ? model.partition_key(op) : Value());
    if (inserted) in_first_seen_order.push_back(&it->second);
    return it->second;
  };
  for (const Operation* op : placed) partition_of(*op).placed.push_back(op);
  for (const Operation* op : left_out) partition_of(*op).left_out.push_back(op);
  for (const Partition* part : in_first_seen_order) {
    auto problem = part->left_out.empty() ? check_legality(model, part->placed)
                                          : check_legality_placing(model, part->placed, part->left_out);
    if (problem) return problem;
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
