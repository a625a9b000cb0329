#include "refute/core_seeds.hpp"

#include "search/unique_values.hpp"

#include <algorithm>
#include <optional>

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
      theory != models::Theory::unordered_queue) {
    return seeds;
  }
  std::vector<std::vector<std::uint32_t>> inserts(semantics->value_count), removals(semantics->value_count);
  std::vector<bool> initially(semantics->value_count, false);
  for (const std::uint32_t v : semantics->initial) initially[v] = true;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    const models::OpMeaning& m = semantics->ops[i];
    if (m.effect == models::Effect::insert) inserts[m.element].push_back(i);
    if (m.effect == models::Effect::remove) removals[m.element].push_back(i);
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
  if (theory == models::Theory::unordered_queue) return seeds;
  for (const std::uint32_t a : paired) {
    const Operation& insert_a = *ops[inserts[a][0]];
    const Operation& remove_a = *ops[removals[a][0]];
    for (const std::uint32_t b : paired) {
      if (seeds.size() >= limit) return seeds;
      if (a == b) continue;
      const Operation& insert_b = *ops[inserts[b][0]];
      const Operation& remove_b = *ops[removals[b][0]];
      if (!before(insert_a, insert_b)) continue;
      const bool wrong = theory == models::Theory::fifo_queue
                             ? before(remove_b, remove_a)
                             : before(insert_b, remove_a) && before(remove_a, remove_b);
      if (wrong) add({inserts[a][0], inserts[b][0], removals[a][0], removals[b][0]});
    }
  }
  return seeds;
}

namespace {

using models::RegisterAccess;

bool writes(const models::OpMeaning& meaning, std::uint32_t key, std::uint32_t value) {
  return std::any_of(meaning.accesses.begin(), meaning.accesses.end(), [&](const RegisterAccess& a) {
    return a.kind == RegisterAccess::Kind::write && a.key == key && a.value == value;
  });
}

bool reads(const models::OpMeaning& meaning, std::uint32_t key, std::uint32_t value) {
  return std::any_of(meaning.accesses.begin(), meaning.accesses.end(), [&](const RegisterAccess& a) {
    return a.kind == RegisterAccess::Kind::read && a.key == key && a.value == value;
  });
}

// A write of something other than `value` to `key`, taking effect for certain.
bool overwrites(const models::OpMeaning& meaning, std::uint32_t key, std::uint32_t value) {
  return meaning.effect == models::Effect::registers && meaning.must_take_effect &&
         std::any_of(meaning.accesses.begin(), meaning.accesses.end(), [&](const RegisterAccess& a) {
           return a.kind == RegisterAccess::Kind::write && a.key == key && a.value != value;
         });
}

}  // namespace

std::vector<std::vector<std::uint32_t>> reads_from_seeds(std::span<const Operation* const> ops,
                                                         const models::Semantics* semantics, std::uint32_t failing_op) {
  std::vector<std::vector<std::uint32_t>> seeds;
  if (!semantics || semantics->theory != models::Theory::registers || semantics->strings) return seeds;
  const std::size_t n = ops.size();
  const bool has_twins = semantics->ops.size() >= 2 * n;
  const Operation& read = *ops[failing_op];
  for (const RegisterAccess& access : semantics->ops[failing_op].accesses) {
    if (access.kind != RegisterAccess::Kind::read) continue;
    const std::uint32_t key = access.key, value = access.value;
    std::vector<std::uint32_t> seed{failing_op};
    // Writes of the value that completed before the read began, as real-time
    // intervals [completed, read began): each needs an overwrite inside its interval.
    std::vector<std::uint64_t> completed;
    if (key < semantics->initial.size() && semantics->initial[key] == value) completed.push_back(0);
    for (std::uint32_t j = 0; j < n; ++j) {
      if (j == failing_op) continue;
      const models::OpMeaning& recorded = semantics->ops[j];
      const bool twin_writes =
          has_twins && writes(semantics->ops[n + j], key, value) && !reads(semantics->ops[n + j], key, value);
      if (!twin_writes && !writes(recorded, key, value)) continue;
      seed.push_back(j);
      if (writes(recorded, key, value) && before(*ops[j], read)) completed.push_back(ops[j]->ret + 1);
    }
    // The overwrites: one inside every interval if some write fits them all, else the
    // first found for each.
    const auto between = [&](std::uint32_t x, std::uint64_t after) {
      return x != failing_op && overwrites(semantics->ops[x], key, value) && ops[x]->call >= after &&
             before(*ops[x], read);
    };
    if (!completed.empty()) {
      const std::uint64_t latest = *std::max_element(completed.begin(), completed.end());
      std::optional<std::uint32_t> one;
      for (std::uint32_t x = 0; x < n && !one; ++x) {
        if (between(x, latest)) one = x;
      }
      if (one) {
        seed.push_back(*one);
      } else {
        for (const std::uint64_t after : completed) {
          for (std::uint32_t x = 0; x < n; ++x) {
            if (!between(x, after)) continue;
            seed.push_back(x);
            break;
          }
        }
      }
    }
    std::sort(seed.begin(), seed.end());
    seed.erase(std::unique(seed.begin(), seed.end()), seed.end());
    seeds.push_back(std::move(seed));
  }
  return seeds;
}

}  // namespace ariadne::refute
