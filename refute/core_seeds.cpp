#include "refute/core_seeds.hpp"

#include "search/unique_values.hpp"

#include <algorithm>
#include <optional>
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

bool reads(const models::OpMeaning& meaning, std::uint32_t key, std::uint32_t value) {
  return std::any_of(meaning.accesses.begin(), meaning.accesses.end(), [&](const RegisterAccess& a) {
    return a.kind == RegisterAccess::Kind::read && a.key == key && a.value == value;
  });
}

// What a read of `key` saw, and which writes could have left it: for plain registers
// a write of the same value; for strings that appends concatenate (kv), a write of a
// text the read's text begins with, the rest of it made of the key's append texts
// (each usable any number of times). Appends never change a text's beginning, so
// after a write that could not have left it the read cannot see it until a write
// that could comes: such a write is an overwrite, as one of another value is for a
// plain register, and the argument of stale_read_seeds() below holds with "a write
// of v" read as "a write that could leave what the read saw".
class SeenValue {
 public:
  SeenValue(const models::Semantics& semantics, std::uint32_t key, std::uint32_t value)
      : semantics_(semantics), key_(key), value_(value) {
    if (!semantics.strings) return;
    const std::string_view seen = semantics.text(value);
    std::vector<std::string_view> appends;
    for (const models::OpMeaning& meaning : semantics.ops) {
      if (meaning.effect != models::Effect::registers) continue;
      for (const RegisterAccess& a : meaning.accesses) {
        if (a.key != key || a.kind != RegisterAccess::Kind::append) continue;
        const std::string_view text = semantics.text(a.value);
        if (!text.empty() && std::find(appends.begin(), appends.end(), text) == appends.end()) appends.push_back(text);
      }
    }
    // completes_[i]: seen[i..] is made of append texts.
    completes_.assign(seen.size() + 1, false);
    completes_[seen.size()] = true;
    for (std::size_t i = seen.size(); i-- > 0;) {
      for (const std::string_view text : appends) {
        if (i + text.size() <= seen.size() && completes_[i + text.size()] && seen.substr(i).starts_with(text)) {
          completes_[i] = true;
          break;
        }
      }
    }
  }

  // Whether a write of `value` to the key could have left what the read saw.
  bool could_leave(std::uint32_t value) const {
    if (!semantics_.strings) return value == value_;
    const std::string_view seen = semantics_.text(value_);
    const std::string_view base = semantics_.text(value);
    return seen.starts_with(base) && completes_[base.size()];
  }

  bool writes(const models::OpMeaning& meaning) const {
    return std::any_of(meaning.accesses.begin(), meaning.accesses.end(), [&](const RegisterAccess& a) {
      return a.kind == RegisterAccess::Kind::write && a.key == key_ && could_leave(a.value);
    });
  }

  // Reads what the read saw (a cas from it): writing it back changes nothing.
  bool reads(const models::OpMeaning& meaning) const { return ariadne::refute::reads(meaning, key_, value_); }

  // A write that could not have left what the read saw, taking effect for certain.
  bool overwrites(const models::OpMeaning& meaning) const {
    return meaning.effect == models::Effect::registers && meaning.must_take_effect &&
           std::any_of(meaning.accesses.begin(), meaning.accesses.end(), [&](const RegisterAccess& a) {
             return a.kind == RegisterAccess::Kind::write && a.key == key_ && !could_leave(a.value);
           });
  }

 private:
  const models::Semantics& semantics_;
  std::uint32_t key_;
  std::uint32_t value_;
  std::vector<bool> completes_;
};

}  // namespace

std::vector<std::vector<std::uint32_t>> reads_from_seeds(std::span<const Operation* const> ops,
                                                         const models::Semantics* semantics, std::uint32_t failing_op) {
  std::vector<std::vector<std::uint32_t>> seeds;
  if (!semantics || semantics->theory != models::Theory::registers) return seeds;
  const std::size_t n = ops.size();
  const bool has_twins = semantics->ops.size() >= 2 * n;
  const Operation& read = *ops[failing_op];
  for (const RegisterAccess& access : semantics->ops[failing_op].accesses) {
    if (access.kind != RegisterAccess::Kind::read) continue;
    const std::uint32_t key = access.key;
    const SeenValue seen(*semantics, key, access.value);
    std::vector<std::uint32_t> seed{failing_op};
    // Writes of the value that completed before the read began, as real-time
    // intervals [completed, read began): each needs an overwrite inside its interval.
    std::vector<std::uint64_t> completed;
    if (key < semantics->initial.size() && seen.could_leave(semantics->initial[key])) completed.push_back(0);
    for (std::uint32_t j = 0; j < n; ++j) {
      if (j == failing_op) continue;
      const models::OpMeaning& recorded = semantics->ops[j];
      const bool twin_writes = has_twins && seen.writes(semantics->ops[n + j]) && !seen.reads(semantics->ops[n + j]);
      if (!twin_writes && !seen.writes(recorded)) continue;
      seed.push_back(j);
      if (seen.writes(recorded) && before(*ops[j], read)) completed.push_back(ops[j]->ret + 1);
    }
    // The overwrites: one inside every interval if some write fits them all, else the
    // first found for each.
    const auto between = [&](std::uint32_t x, std::uint64_t after) {
      return x != failing_op && seen.overwrites(semantics->ops[x]) && ops[x]->call >= after && before(*ops[x], read);
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

// Stale reads by real time alone (stale_read_seeds()).
//
// Why each seed is a core. Let r read v at key k, and S hold r, every op whose recorded
// meaning or relaxed twin could leave v in k, and the overwrites the test found. Every
// other op is relaxed, and none of those can write v to k (every op that could is in
// S). So in any linearization of the relaxed history, the state v that r reads was
// left by an op of S kept as recorded, or is the initial value. Let w be the last op
// before r that changed k to v (an op that reads v and writes v changes nothing, so it
// is never w), or the initial state if none did. A kept crashed op that could write v
// was invoked after r completed (the test asks so), and so was every completed writer
// of v that is not before r in real time (one concurrent with r fails the test): real
// time puts them after r, so w is a completed writer of v that completed before r
// began, or the initial value. The test found a completed write x of another value to
// k invoked after every such writer completed (after the latest of them, hence after
// w) and completed before r began: real time puts x between w and r, it must take
// effect, and it leaves k different from v, so w is not the last change to v before
// r. No linearization exists: S is a core. (Gibbons and Korach's write, overwrite,
// read, SIAM J. Comput. 1997, with the relaxed ops of relaxed_history.hpp.)
//
// The test costs O(log n) per read, in flat arrays of 24 to 32 bytes per write (a
// partition of a million ops with few repeated values has about as many (key, value)
// pairs as writes): the completed writers of each (key, value) by call, with the
// latest completion among each prefix; the crashed writers' first call per (key,
// value); and per key, the completed writes by call with, from each on, the earliest
// completion and the earliest of a value other than that one's.
namespace {

std::uint64_t key_value(std::uint32_t key, std::uint32_t value) { return (std::uint64_t{key} << 32) | value; }

struct Write {
  std::uint64_t group = 0;  // key_value() for writers of a value, the key for a key's writes
  std::uint64_t call = 0, ret = 0;
  std::uint32_t value = 0;
  bool operator<(const Write& other) const { return group != other.group ? group < other.group : call < other.call; }
};

// The writes of one group, [begin, end) of a sorted array.
std::pair<std::size_t, std::size_t> group_range(const std::vector<Write>& writes, std::uint64_t group) {
  const auto lo = std::lower_bound(writes.begin(), writes.end(), group,
                                   [](const Write& w, std::uint64_t g) { return w.group < g; });
  const auto hi =
      std::upper_bound(lo, writes.end(), group, [](std::uint64_t g, const Write& w) { return g < w.group; });
  return {static_cast<std::size_t>(lo - writes.begin()), static_cast<std::size_t>(hi - writes.begin())};
}

// The first write of [begin, end) invoked at or after `t`.
std::size_t first_invoked_from(const std::vector<Write>& writes, std::size_t begin, std::size_t end, std::uint64_t t) {
  const auto at = std::lower_bound(writes.begin() + static_cast<std::ptrdiff_t>(begin),
                                   writes.begin() + static_cast<std::ptrdiff_t>(end), t,
                                   [](const Write& w, std::uint64_t time) { return w.call < time; });
  return static_cast<std::size_t>(at - writes.begin());
}

// Per key, its completed writes by call, with suffix minima of ret within the key:
// best[i] the earliest completion among writes i.. of the key, other[i] the earliest
// among those whose value differs from best[i]'s (kNone if none).
class KeyWrites {
 public:
  explicit KeyWrites(std::vector<Write> writes) : writes_(std::move(writes)) {
    std::sort(writes_.begin(), writes_.end());
    best_.assign(writes_.size(), kNone);
    other_.assign(writes_.size(), kNone);
    const auto earlier = [&](std::uint32_t a, std::uint32_t b) {
      return b == kNone || (a != kNone && writes_[a].ret < writes_[b].ret);
    };
    for (std::size_t i = writes_.size(); i-- > 0;) {
      const bool last_of_key = i + 1 == writes_.size() || writes_[i + 1].group != writes_[i].group;
      const std::uint32_t next_best = last_of_key ? kNone : best_[i + 1];
      const std::uint32_t next_other = last_of_key ? kNone : other_[i + 1];
      std::uint32_t b = static_cast<std::uint32_t>(i);
      for (const std::uint32_t c : {next_best, next_other}) {
        if (earlier(c, b)) b = c;
      }
      std::uint32_t o = kNone;
      for (const std::uint32_t c : {static_cast<std::uint32_t>(i), next_best, next_other}) {
        if (c != kNone && writes_[c].value != writes_[b].value && earlier(c, o)) o = c;
      }
      best_[i] = b;
      other_[i] = o;
    }
  }

  // Whether a write to `key` of a value other than `value`, invoked at or after
  // `after`, completed before `before`.
  bool overwrite_between(std::uint32_t key, std::uint64_t after, std::uint64_t before, std::uint32_t value) const {
    const auto [begin, end] = group_range(writes_, key);
    const std::size_t i = first_invoked_from(writes_, begin, end, after);
    if (i == end) return false;
    std::uint32_t x = best_[i];
    if (x != kNone && writes_[x].value == value) x = other_[i];
    return x != kNone && writes_[x].ret < before;
  }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  std::vector<Write> writes_;
  std::vector<std::uint32_t> best_, other_;
};

}  // namespace

std::vector<std::vector<std::uint32_t>> stale_read_seeds(std::span<const Operation* const> ops,
                                                         const models::Semantics* semantics, std::size_t limit,
                                                         const std::function<bool()>& should_stop) {
  std::vector<std::vector<std::uint32_t>> seeds;
  if (!semantics || semantics->theory != models::Theory::registers || semantics->strings || limit == 0) return seeds;
  const std::size_t n = ops.size();
  std::vector<Write> completed, crashed, by_key;
  for (std::uint32_t j = 0; j < n; ++j) {
    const models::OpMeaning& m = semantics->ops[j];
    if (m.effect != models::Effect::registers) continue;
    for (const RegisterAccess& a : m.accesses) {
      if (a.kind != RegisterAccess::Kind::write || reads(m, a.key, a.value)) continue;
      const Write write{key_value(a.key, a.value), ops[j]->call, ops[j]->ret, a.value};
      if (m.must_take_effect) {
        completed.push_back(write);
        by_key.push_back({a.key, write.call, write.ret, a.value});
      } else {
        crashed.push_back(write);
      }
    }
  }
  std::sort(completed.begin(), completed.end());
  std::sort(crashed.begin(), crashed.end());
  // latest_ret[i]: the latest completion among the writers of completed[i]'s group
  // invoked up to it.
  std::vector<std::uint64_t> latest_ret(completed.size());
  for (std::size_t i = 0; i < completed.size(); ++i) {
    const bool first_of_group = i == 0 || completed[i - 1].group != completed[i].group;
    latest_ret[i] = std::max(completed[i].ret, first_of_group ? 0 : latest_ret[i - 1]);
  }
  const KeyWrites key_writes(std::move(by_key));

  // The reads, earliest completion first: the first failing op is the earliest stale
  // read, and its seed the likeliest to be small.
  std::vector<std::uint32_t> readers;
  for (std::uint32_t i = 0; i < n; ++i) {
    const models::OpMeaning& m = semantics->ops[i];
    if (m.effect == models::Effect::registers && m.must_take_effect && ops[i]->ret != kNever) readers.push_back(i);
  }
  std::stable_sort(readers.begin(), readers.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return ops[a]->ret < ops[b]->ret; });
  std::size_t polled = 0;
  for (const std::uint32_t r : readers) {
    if (seeds.size() >= limit) break;
    if (should_stop && ++polled % 4096 == 0 && should_stop()) break;
    const Operation& read = *ops[r];
    std::size_t ordinal = 0;  // which of r's reads, as reads_from_seeds() numbers its seeds
    for (const RegisterAccess& a : semantics->ops[r].accesses) {
      if (a.kind != RegisterAccess::Kind::read) continue;
      const std::size_t this_read = ordinal++;
      const std::uint64_t group = key_value(a.key, a.value);
      // A crashed writer invoked before r completed could write v just before it.
      const auto [crashed_begin, crashed_end] = group_range(crashed, group);
      if (crashed_begin < crashed_end && crashed[crashed_begin].call < read.ret) continue;
      // The completed writers invoked before r completed must all have completed
      // before r began.
      const auto [begin, end] = group_range(completed, group);
      const std::size_t invoked_before = first_invoked_from(completed, begin, end, read.ret);
      const bool written_before = invoked_before > begin;
      if (written_before && latest_ret[invoked_before - 1] >= read.call) continue;
      const bool initially = a.key < semantics->initial.size() && semantics->initial[a.key] == a.value;
      if (written_before || initially) {
        const std::uint64_t after = written_before ? latest_ret[invoked_before - 1] + 1 : 0;
        if (!key_writes.overwrite_between(a.key, after, read.call, a.value)) continue;
      }
      std::vector<std::vector<std::uint32_t>> made = reads_from_seeds(ops, semantics, r);
      if (this_read < made.size()) seeds.push_back(std::move(made[this_read]));
      break;  // one seed per read op
    }
  }
  return seeds;
}

}  // namespace ariadne::refute
