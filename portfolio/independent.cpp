// Checking an independent(MODEL) history as Jepsen's independent checker does: each
// key's ops form a history of MODEL, decided on its own; the history is not
// linearizable when some key is not, else unknown when some key is undecided, else
// linearizable. Locality (models/independent.cpp) makes that exact.
//
// Two passes, so that the answer does not depend on which thread was quicker:
//   1. every key's verdict, keys in parallel (largest first, so that the last to
//      finish is a small one), each with the engines of MODEL and no core;
//   2. the first key not linearizable, in order of first appearance, checked again in
//      full for its failing op, minimal core and explanation.
// The second pass decides that key twice; a key's verdict is nearly always a small
// part of what its core costs, and every other refuted key is spared a core nobody
// asked for.
#include "portfolio/independent.hpp"

#include "models/independent.hpp"
#include "portfolio/decide.hpp"
#include "portfolio/key_composition.hpp"
#include "portfolio/parallel.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace ariadne::portfolio {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

// A key's verdict alone, its refutation (if refuted) kept for pass 2; a nested
// independent(independent(M)) is checked in full, and keeps none.
CheckResult decide_key(const History& history, const Model& inner, const CheckOptions& options,
                       std::optional<Refutation>& kept) {
  if (const Model* nested = independent_inner_model(inner)) return check_independent(history, inner, *nested, options);
  return decide(history, inner, options, /*describe_refuted=*/false, &kept);
}

const Operation* op_with_id(const History& history, std::uint32_t id) {
  const auto it = std::lower_bound(history.ops.begin(), history.ops.end(), id,
                                   [](const Operation& op, std::uint32_t wanted) { return op.id < wanted; });
  return it != history.ops.end() && it->id == id ? &*it : nullptr;
}

// The keys' linearizations, as chains of the ops of the whole history.
std::vector<std::vector<const Operation*>> key_chains(const std::vector<KeyHistory>& keys,
                                                      const std::vector<CheckResult>& answers) {
  std::vector<std::vector<const Operation*>> chains(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    chains[i].reserve(answers[i].linearization.size());
    for (const std::uint32_t id : answers[i].linearization) {
      const Operation* op = op_with_id(keys[i].history, id);
      if (op == nullptr)
        throw InternalError("key " + shorten(keys[i].key.to_edn()) + ": its linearization names op " +
                            std::to_string(id) + ", which the key does not have");
      chains[i].push_back(op);
    }
  }
  return chains;
}

std::string key_list_of(const std::vector<KeyHistory>& keys, const std::vector<std::size_t>& which) {
  std::vector<std::string> texts;
  for (const std::size_t k : which) texts.push_back(keys[k].key.to_edn());
  return key_list(texts);
}

}  // namespace

std::vector<KeyHistory> split_by_key(const History& history) {
  std::vector<KeyHistory> keys;
  std::unordered_map<Value, std::size_t, ValueHash> index;
  for (const Operation& op : history.ops) {
    auto [it, added] = index.try_emplace(independent_key(op), keys.size());
    if (added) {
      keys.emplace_back();
      keys.back().key = it->first;
      keys.back().history.source = history.source;
      keys.back().history.event_count = history.event_count;
    }
    keys[it->second].history.ops.push_back(independent_unwrap(op));
  }
  return keys;
}

CheckResult check_independent(const History& history, const Model& model, const Model& inner,
                              const CheckOptions& options) {
  const auto started = Clock::now();
  const Limits& limits = check_limits(options);
  limits.enter(Phase::verdict);

  CheckResult result;
  result.consistency = options.consistency;
  result.operations = history.ops.size();
  result.engine = std::string(
      engine_name(options.engine == Engine::automatic ? opening_engine(options.consistency) : options.engine));
  const std::vector<KeyHistory> keys = split_by_key(history);
  result.partitions = keys.size();

  // Pass 1: every key's verdict. Each key's check runs on one worker: the keys are
  // the parallelism (a key that goes to the race still gets the race's threads).
  CheckOptions per_key = options;
  per_key.limits = &limits;
  per_key.jobs = keys.size() == 1 ? options.jobs : 1;
  per_key.prefix = false;
  std::vector<CheckResult> answers(keys.size());
  std::vector<std::optional<Refutation>> refutations(keys.size());
  std::vector<std::size_t> largest_first(keys.size());
  std::iota(largest_first.begin(), largest_first.end(), std::size_t{0});
  std::stable_sort(largest_first.begin(), largest_first.end(), [&](std::size_t a, std::size_t b) {
    return keys[a].history.ops.size() > keys[b].history.ops.size();
  });
  std::mutex failure_mutex;
  std::exception_ptr failure;
  // When the first key was refuted (its refutation confirmed within decide()): the
  // verdict is known then, though every key is decided for its own verdict and the
  // key reported is the first refuted in order of appearance.
  std::optional<Clock::time_point> first_refuted_at;
  for_each_index(keys.size(), options.jobs, [&](std::size_t n) {
    const std::size_t i = largest_first[n];
    try {
      answers[i] = decide_key(keys[i].history, inner, per_key, refutations[i]);
      if (answers[i].verdict == Verdict::not_linearizable) {
        const auto now = Clock::now();
        const std::lock_guard lock(failure_mutex);
        if (!first_refuted_at || now < *first_refuted_at) first_refuted_at = now;
      }
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
  limits.enter(Phase::verdict);

  std::vector<PartAnswer> parts;
  const CheckResult* slowest = nullptr;
  result.keys.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const CheckResult& a = answers[i];
    result.keys.push_back(
        KeyResult{keys[i].key, a.verdict, keys[i].history.ops.size(), a.elapsed_ms, a.engine, a.reason});
    result.steps += a.steps;
    result.peak_search_bytes = std::max(result.peak_search_bytes, a.peak_search_bytes);
    result.race.withdrawals.insert(result.race.withdrawals.end(), a.race.withdrawals.begin(), a.race.withdrawals.end());
    result.dropped_answers.insert(result.dropped_answers.end(), a.dropped_answers.begin(), a.dropped_answers.end());
    parts.push_back(PartAnswer{a.verdict, i});
    if (!slowest || a.elapsed_ms > slowest->elapsed_ms) slowest = &a;
  }
  if (slowest) {
    result.engine = slowest->engine;
    result.race.entrants = slowest->race.entrants;
    result.race.losers_stopped_ms = slowest->race.losers_stopped_ms;
    result.race.slowest_loser = slowest->race.slowest_loser;
  }
  const auto finish = [&]() -> CheckResult {
    result.elapsed_ms = ms_between(started, Clock::now());
    if (const Limit reached = limits.first_reached(); reached != Limit::none) {
      result.limit = reached;
      result.limit_phase = limits.phase_when_reached();
    }
    return result;
  };

  const Composition composition = compose(parts);
  const std::vector<std::size_t>& refuted = composition.refuted;
  const std::vector<std::size_t>& undecided = composition.undecided;
  if (!refuted.empty()) {
    // Pass 2: the first refuted key, in full.
    const std::size_t f = refuted.front();
    const KeyHistory& key = keys[f];
    result.verdict = Verdict::not_linearizable;
    result.verdict_ms = ms_between(started, first_refuted_at.value_or(Clock::now()));
    result.failing_key = key.key.to_edn();
    result.engine = answers[f].engine;
    result.race.entrants = answers[f].race.entrants;
    CheckOptions full = options;
    full.limits = &limits;
    // The key's refutation from pass 1 is described now, without deciding the key
    // again; a nested independent key, which keeps none, is checked once more.
    CheckResult again;
    if (refutations[f]) {
      again = answers[f];
      if (!options.verdict_only) describe_refutation(*refutations[f], inner, full, limits, again);
    } else {
      again = check(key.history, inner, full);
    }
    if (again.verdict == Verdict::linearizable) {
      throw InternalError("key " + shorten(result.failing_key) + " was refuted by the " + answers[f].engine +
                          " engine, then found linearizable by the " + again.engine + " engine");
    }
    std::vector<std::string> other_refuted;
    for (std::size_t n = 1; n < refuted.size(); ++n) other_refuted.push_back(keys[refuted[n]].key.to_edn());
    const std::string header = refuted_key_header(result.failing_key, key.history.ops.size(), history.ops.size(),
                                                  other_refuted, keys.size(), options.consistency);
    if (again.verdict == Verdict::not_linearizable) {
      result.engine = again.engine;
      if (!again.race.entrants.empty()) result.race.entrants = again.race.entrants;
      result.core = std::move(again.core);
      result.failing_partition_ops = std::move(again.failing_partition_ops);
      result.core_minimal = again.core_minimal;
      result.core_ms = again.core_ms;
      result.core_real_time = std::move(again.core_real_time);
      result.prefix_linearization = std::move(again.prefix_linearization);
      result.failing_op = again.failing_op;
      result.explanation = header + again.explanation;
      // The key first, so that the sentence reads as that key's history.
      if (!again.why.empty()) result.why = "Key " + shorten(result.failing_key) + ": " + again.why;
      result.why_ops = std::move(again.why_ops);
      if (!again.failing_partition.empty()) {
        result.failing_partition = "[" + result.failing_key + " " + again.failing_partition + "]";
      }
    } else {
      // A limit stopped the second look at a nested independent key: its verdict
      // stands, and the key's ops are the core, not shrunk.
      for (const Operation& op : key.history.ops) result.core.push_back(op.id);
      result.failing_partition_ops = result.core;
      result.explanation = header + "The key's minimal core was not found: " + again.reason + ".\n";
    }
    if (result.failing_partition.empty()) result.failing_partition = result.failing_key;
    return finish();
  }
  if (!undecided.empty()) {
    const std::size_t u = undecided.front();
    result.verdict = Verdict::unknown;
    // No engine answered for the whole history, as check() says of an unknown one.
    result.engine.clear();
    result.race.entrants.clear();
    result.reason = "key " + shorten(keys[u].key.to_edn()) + ": " + answers[u].reason;
    if (undecided.size() > 1) {
      result.reason += " (" + std::to_string(undecided.size()) + " of the " + std::to_string(keys.size()) +
                       " keys undecided: " + key_list_of(keys, undecided) + ")";
    }
    return finish();
  }
  result.linearization = merge_certified(history, model, key_chains(keys, answers), options.consistency,
                                         PartOrders::certified_here, "the keys");
  result.verdict = Verdict::linearizable;
  return finish();
}

}  // namespace ariadne::portfolio
