// Stale reads found by real time alone, and the reads-from seeds of a read: the
// register half of Gibbons and Korach's write, overwrite, read test (SIAM J. Comput.
// 1997), with repeated values.
//
// Two callers: the unique-value engine, which refutes a register history with a stale
// read at once when its values are not unique (search/unique_values.cpp), and the
// core (refute/core_seeds.hpp), for which each seed is a first core. Neither needs a
// search, so both cost about O(n log n) on a partition of n ops.
#include "search/stale_reads.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace ariadne::search {

namespace {

bool before(const Operation& a, const Operation& b) { return a.ret != kNever && a.ret < b.call; }

}  // namespace
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
using AppendTexts = std::vector<std::string_view>;

class SeenValue {
 public:
  SeenValue(const models::Semantics& semantics, std::uint32_t key, std::uint32_t value)
      : SeenValue(semantics, key, value, semantics.strings ? append_texts(semantics, key) : AppendTexts{}) {}

  // With the key's append texts known (append_texts()), for testing many reads.
  SeenValue(const models::Semantics& semantics, std::uint32_t key, std::uint32_t value, const AppendTexts& appends)
      : semantics_(semantics), key_(key), value_(value) {
    if (!semantics.strings) return;
    const std::string_view seen = semantics.text(value);
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

  // The distinct non-empty texts appended to `key` by any op `semantics` describes.
  static AppendTexts append_texts(const models::Semantics& semantics, std::uint32_t key) {
    AppendTexts appends;
    for (const models::OpMeaning& meaning : semantics.ops) {
      if (meaning.effect != models::Effect::registers) continue;
      for (const RegisterAccess& a : meaning.accesses) {
        if (a.key != key || a.kind != RegisterAccess::Kind::append) continue;
        const std::string_view text = semantics.text(a.value);
        if (!text.empty() && std::find(appends.begin(), appends.end(), text) == appends.end()) appends.push_back(text);
      }
    }
    return appends;
  }

  // Strings: whether a write of seen[0, length) could have left what the read saw.
  bool could_leave_prefix(std::size_t length) const { return completes_[length]; }

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
  bool reads(const models::OpMeaning& meaning) const { return ariadne::search::reads(meaning, key_, value_); }

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
// The same argument, with nothing relaxed, refutes the recorded history: that is how
// the unique-value engine uses the test. Crashed ops are covered by it as they are:
// one that could write v counts once it is invoked, wherever it may take effect.
//
// Strings (kv, whose appends concatenate): read "a writer of v" as "a write that could
// leave what r saw" (SeenValue) and "another value" as "one that could not". Appends
// never change a text's beginning, so the text r sees is the last write's before it
// (or the initial text) with appended texts after it, and that write could leave it.
// The candidate writers are the key's written texts that are prefixes of r's text
// with the rest made of append texts; the overwrite is a write of none of those.
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

  // Whether a write to `key` whose value `leaves` says could not have left what a
  // read saw, invoked at or after `after`, completed before `before`. Exact when at
  // most one value of the key's writes from `after` on could have left it (always so
  // for plain registers); otherwise, for strings, the writes from `after` on are
  // looked at one by one, at most kScanned of them, and false past that (a stale read
  // missed, never one made up).
  template <typename Leaves>
  bool overwrite_between(std::uint32_t key, std::uint64_t after, std::uint64_t before, const Leaves& leaves) const {
    const auto [begin, end] = group_range(writes_, key);
    const std::size_t i = first_invoked_from(writes_, begin, end, after);
    if (i == end) return false;
    // best_[i] completes first of all; other_[i] first of the values other than best's,
    // so of every write that cannot leave it when best's value can.
    for (const std::uint32_t x : {best_[i], other_[i]}) {
      if (x == kNone) return false;
      if (!leaves(writes_[x].value)) return writes_[x].ret < before;
    }
    constexpr std::size_t kScanned = 1024;
    for (std::size_t j = i; j < end && j < i + kScanned && writes_[j].call < before; ++j) {
      if (writes_[j].ret < before && !leaves(writes_[j].value)) return true;
    }
    return false;
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
  for (const StaleRead& stale : stale_reads(ops, semantics, limit, should_stop)) {
    std::vector<std::vector<std::uint32_t>> made = reads_from_seeds(ops, semantics, stale.op);
    if (stale.read < made.size()) seeds.push_back(std::move(made[stale.read]));
  }
  return seeds;
}

std::vector<StaleRead> stale_reads(std::span<const Operation* const> ops, const models::Semantics* semantics,
                                   std::size_t limit, const std::function<bool()>& should_stop) {
  std::vector<StaleRead> found;
  if (!semantics || semantics->theory != models::Theory::registers || limit == 0) return found;
  const bool strings = semantics->strings;
  const std::size_t n = ops.size();
  std::vector<Write> completed, crashed, by_key;
  // Strings: per key, the values written to it by text, to find the writes that
  // could leave a read's text among its prefixes.
  std::unordered_map<std::uint32_t, std::unordered_map<std::string_view, std::uint32_t>> written_texts;
  for (std::uint32_t j = 0; j < n; ++j) {
    const models::OpMeaning& m = semantics->ops[j];
    if (m.effect != models::Effect::registers) continue;
    for (const RegisterAccess& a : m.accesses) {
      if (a.kind != RegisterAccess::Kind::write || reads(m, a.key, a.value)) continue;
      const Write write{key_value(a.key, a.value), ops[j]->call, ops[j]->ret, a.value};
      if (strings) written_texts[a.key].emplace(semantics->text(a.value), a.value);
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
  std::unordered_map<std::uint32_t, AppendTexts> appends;  // strings: per key, when first needed

  // Strings cost a read about its text's length times its key's append texts, and
  // that times the text's length again for its prefixes: bounded in all, so that a kv
  // history of long texts and many distinct appends (Porcupine's) costs no more than
  // about a linear pass. Past the bound no more reads are tested: stale reads may be
  // missed, none is made up.
  std::uint64_t string_work_left = 64 * std::uint64_t{n} + (std::uint64_t{1} << 24);

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
  std::vector<std::uint32_t> candidates;  // the values whose writes could leave what a read saw
  for (const std::uint32_t r : readers) {
    if (found.size() >= limit) break;
    if (should_stop && ++polled % 4096 == 0 && should_stop()) break;
    const Operation& read = *ops[r];
    std::size_t ordinal = 0;  // which of r's reads, as reads_from_seeds() numbers its seeds
    for (const RegisterAccess& a : semantics->ops[r].accesses) {
      if (a.kind != RegisterAccess::Kind::read) continue;
      const std::size_t this_read = ordinal++;
      std::optional<SeenValue> seen;
      candidates.clear();
      if (strings) {
        const std::string_view text = semantics->text(a.value);
        auto key_appends = appends.find(a.key);
        if (key_appends == appends.end()) {
          key_appends = appends.emplace(a.key, SeenValue::append_texts(*semantics, a.key)).first;
        }
        const std::uint64_t cost = (text.size() + 1) * (key_appends->second.size() + text.size() + 1);
        if (cost > string_work_left) return found;
        string_work_left -= cost;
        seen.emplace(*semantics, a.key, a.value, key_appends->second);
        const auto texts = written_texts.find(a.key);
        for (std::size_t length = 0; length <= text.size() && texts != written_texts.end(); ++length) {
          if (!seen->could_leave_prefix(length)) continue;
          const auto value = texts->second.find(text.substr(0, length));
          if (value != texts->second.end()) candidates.push_back(value->second);
        }
      } else {
        candidates.push_back(a.value);
      }
      // Every writer that could leave what r saw: a crashed one invoked before r
      // completed could do so just before it; completed ones invoked before r
      // completed must all have completed before r began.
      bool live = false;
      bool written_before = false;
      std::uint64_t latest = 0;
      for (const std::uint32_t v : candidates) {
        const std::uint64_t group = key_value(a.key, v);
        const auto [crashed_begin, crashed_end] = group_range(crashed, group);
        const auto [begin, end] = group_range(completed, group);
        const std::size_t invoked_before = first_invoked_from(completed, begin, end, read.ret);
        live = (crashed_begin < crashed_end && crashed[crashed_begin].call < read.ret) ||
               (invoked_before > begin && latest_ret[invoked_before - 1] >= read.call);
        if (live) break;
        if (invoked_before > begin) {
          written_before = true;
          latest = std::max(latest, latest_ret[invoked_before - 1]);
        }
      }
      if (live) continue;
      const bool has_initial = a.key < semantics->initial.size();
      const bool initially =
          has_initial && (seen ? seen->could_leave(semantics->initial[a.key]) : semantics->initial[a.key] == a.value);
      if (written_before || initially) {
        const std::uint64_t after = written_before ? latest + 1 : 0;
        const auto leaves = [&](std::uint32_t value) { return seen ? seen->could_leave(value) : value == a.value; };
        if (!key_writes.overwrite_between(a.key, after, read.call, leaves)) continue;
      }
      found.push_back({r, this_read});
      break;  // one per read op
    }
  }
  return found;
}

}  // namespace ariadne::search
