#include "refute/core_seeds.hpp"

#include "search/unique_values.hpp"

#include <algorithm>
#include <utility>

namespace ariadne::refute {

std::vector<bool> seed_companions(std::span<const Operation* const> ops, const models::Semantics* semantics,
                                  std::uint32_t failing_op) {
  std::vector<bool> companions(ops.size(), false);
  if (!semantics || semantics->theory != models::Theory::mutex) return companions;
  const models::Effect failing = semantics->ops[failing_op].effect;
  if (failing != models::Effect::acquire && failing != models::Effect::release) return companions;
  // What could undo the failing op's complaint: releases for an acquire of a held
  // lock, acquires for a release of a free one.
  const models::Effect opposite =
      failing == models::Effect::acquire ? models::Effect::release : models::Effect::acquire;
  for (std::uint32_t i = 0; i < ops.size(); ++i) companions[i] = semantics->ops[i].effect == opposite;
  return companions;
}

namespace {

bool before(const Operation& a, const Operation& b) { return a.ret != kNever && a.ret < b.call; }

// Whether a was inserted, then b, and removing a first is wrong whatever the order
// the overlaps allow: a queue removed b before a; a stack popped a while b lay above
// it. The priority queue takes no insert order: b, more urgent, was in before a's
// poll began and was polled only after it, so a's poll passed it by.
bool removed_in_wrong_order(models::Theory theory, const models::OpMeaning& put_a, const models::OpMeaning& put_b,
                            const Operation& insert_a, const Operation& insert_b, const Operation& remove_a,
                            const Operation& remove_b) {
  switch (theory) {
    case models::Theory::fifo_queue: return before(insert_a, insert_b) && before(remove_b, remove_a);
    case models::Theory::stack:
      return before(insert_a, insert_b) && before(insert_b, remove_a) && before(remove_a, remove_b);
    case models::Theory::priority_queue:
      return put_b.urgency > put_a.urgency && before(insert_b, remove_a) && before(remove_a, remove_b);
    default: return false;
  }
}

}  // namespace

std::vector<std::vector<std::uint32_t>> pattern_seeds(std::span<const Operation* const> ops,
                                                      const models::Semantics* semantics, std::size_t limit,
                                                      const std::function<bool()>& should_stop) {
  std::vector<std::vector<std::uint32_t>> seeds;
  if (!semantics) return seeds;
  const models::Theory theory = semantics->theory;
  if (theory == models::Theory::registers) {
    // Unique written values: the ops of the zone condition Gibbons and Korach's test
    // finds violated (search/unique_values.hpp).
    search::UniqueValueAnalysis zones = search::analyse_unique_register(ops, *semantics, should_stop);
    if (zones.answer == search::UniqueValueAnalysis::Answer::not_linearizable && limit > 0) {
      seeds.push_back(std::move(zones.violation));
    }
    return seeds;
  }
  if (theory != models::Theory::fifo_queue && theory != models::Theory::stack &&
      theory != models::Theory::unordered_queue && theory != models::Theory::priority_queue) {
    return seeds;
  }
  std::vector<std::vector<std::uint32_t>> inserts(semantics->value_count), removals(semantics->value_count);
  std::vector<bool> initially(semantics->value_count, false);
  for (const std::uint32_t v : semantics->initial) initially[v] = true;
  std::vector<std::uint32_t> observations;  // removals that found the container empty
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    const models::OpMeaning& m = semantics->ops[i];
    if (m.effect == models::Effect::insert) inserts[m.element].push_back(i);
    if (m.effect == models::Effect::remove) removals[m.element].push_back(i);
    if (m.effect == models::Effect::remove_empty) observations.push_back(i);
  }
  const auto add = [&](std::vector<std::uint32_t> seed) {
    if (seeds.size() >= limit) return;
    std::sort(seed.begin(), seed.end());
    seeds.push_back(std::move(seed));
  };
  // Values with one insert and one removal, for the order patterns.
  std::vector<std::uint32_t> paired;
  for (std::uint32_t v = 0; v < semantics->value_count; ++v) {
    const auto& in = inserts[v];
    const auto& out = removals[v];
    if (out.empty() || initially[v]) continue;
    if (in.empty()) add({out[0]});
    if (out.size() >= 2) add({out[0], out[1]});
    if (in.size() == 1 && out.size() == 1) {
      if (before(*ops[out[0]], *ops[in[0]])) add({in[0], out[0]});
      paired.push_back(v);
    }
  }
  // An empty observation after a completed insert whose element nothing removed
  // before the observation: no removal of the value at all, or only one invoked after
  // the observation returned. (A relaxed removal elsewhere may still take it: the
  // caller decides.)
  for (const std::uint32_t o : observations) {
    for (std::uint32_t v = 0; v < semantics->value_count && seeds.size() < limit; ++v) {
      if (inserts[v].size() != 1 || initially[v] || !before(*ops[inserts[v][0]], *ops[o])) continue;
      if (removals[v].empty()) add({inserts[v][0], o});
      if (removals[v].size() == 1 && before(*ops[o], *ops[removals[v][0]])) add({inserts[v][0], o, removals[v][0]});
    }
  }
  if (theory == models::Theory::unordered_queue) return seeds;
  for (const std::uint32_t a : paired) {
    const Operation& insert_a = *ops[inserts[a][0]];
    const Operation& remove_a = *ops[removals[a][0]];
    for (const std::uint32_t b : paired) {
      if (seeds.size() >= limit) return seeds;
      if (a == b) continue;
      const Operation& insert_b = *ops[inserts[b][0]];
      const Operation& remove_b = *ops[removals[b][0]];
      if (removed_in_wrong_order(theory, semantics->ops[inserts[a][0]], semantics->ops[inserts[b][0]], insert_a,
                                 insert_b, remove_a, remove_b)) {
        add({inserts[a][0], inserts[b][0], removals[a][0], removals[b][0]});
      }
    }
  }
  return seeds;
}

}  // namespace ariadne::refute
