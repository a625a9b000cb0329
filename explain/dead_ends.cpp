#include "explain/dead_ends.hpp"

#include "models/semantics.hpp"
#include "refute/relaxed_history.hpp"
#include "refute/relevant_relaxed.hpp"
#include "search/twin_classes.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_set>

namespace ariadne::explain {

using refute::relax;
using refute::RelaxedRelevance;

namespace {

// The ops the dead-end search orders: the core's, as recorded, and those of the
// other ops that could change the state, relaxed (crashed, invoked before everything:
// they may take effect anywhere, or never), exactly as the refutation treats them.
// Leaving out the others would list dead ends they could rescue: an unordered
// queue's second dequeue of 1 is not stuck "at the start" if an enqueue of 1 by
// someone else may take effect first.

// Whether relaxed op `meaning` can never change the state: a read or observation
// only constrains where it goes, and a relaxed op need not take effect at all.
bool cannot_change_state(const models::OpMeaning& meaning) {
  return meaning.effect == models::Effect::impossible || models::observes_only(meaning);
}

// Registers: which relaxed ops could rescue a blocked core op. A register op is only
// ever blocked by a read (a read of v needs the state v; a failed cas' "anything but v"
// needs some other value), so a relaxed op matters only if it writes a value some core
// op reads, or a value some op that matters reads first (a cas chain), closed under
// that rule; any write to a key whose reads are "anything but", or which has appends
// (a read of a string needs its whole history), matters. Every other relaxed write can
// only move the state to a value nobody needs, so leaving it out of the search hides
// no order that escapes the dead ends listed.
std::vector<bool> register_writes_that_matter(const RelaxedRelevance& relevance, const std::vector<bool>& keep) {
  using Kind = models::RegisterAccess::Kind;
  // Per op of the partition: as recorded if kept, else its relaxed twin.
  const auto meaning_of = [&](std::size_t i) -> const models::OpMeaning& {
    return keep[i] ? relevance.recorded(static_cast<std::uint32_t>(i))
                   : relevance.relaxed(static_cast<std::uint32_t>(i));
  };
  std::set<std::pair<std::uint32_t, std::uint32_t>> needed;  // (key, value) some op that matters reads
  std::set<std::uint32_t> open_keys;                         // keys where any write matters
  const auto note_reads = [&](const models::OpMeaning& meaning) {
    for (const models::RegisterAccess& access : meaning.accesses) {
      if (access.kind == Kind::read) needed.insert({access.key, access.value});
      if (access.kind == Kind::read_other_than) open_keys.insert(access.key);
    }
  };
  for (std::size_t i = 0; i < keep.size(); ++i) {
    const models::OpMeaning& meaning = meaning_of(i);
    if (keep[i]) note_reads(meaning);
    for (const models::RegisterAccess& access : meaning.accesses) {
      if (access.kind == Kind::append) open_keys.insert(access.key);
    }
  }
  std::vector<bool> matters(keep.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t k = 0; k < keep.size(); ++k) {
      if (keep[k] || matters[k]) continue;
      const models::OpMeaning& meaning = meaning_of(k);
      const bool writes_needed =
          std::any_of(meaning.accesses.begin(), meaning.accesses.end(), [&](const models::RegisterAccess& a) {
            return (a.kind == Kind::write || a.kind == Kind::append) &&
                   (open_keys.count(a.key) != 0 || needed.count({a.key, a.value}) != 0);
          });
      if (!writes_needed) continue;
      matters[k] = true;
      note_reads(meaning);
      grew = true;
    }
  }
  return matters;
}

SearchOps search_ops(std::span<const Operation* const> core, std::span<const Operation* const> partition,
                     const RelaxedRelevance& relevance) {
  std::vector<const Operation*> sorted_core(core.begin(), core.end());
  std::sort(sorted_core.begin(), sorted_core.end());
  std::vector<bool> keep(partition.size());
  for (std::size_t i = 0; i < partition.size(); ++i) {
    keep[i] = std::binary_search(sorted_core.begin(), sorted_core.end(), partition[i]);
  }
  // What each relaxed op could do, from the partition's description.
  const models::Semantics* semantics = relevance.semantics();
  std::vector<bool> matters(partition.size(), true);
  if (semantics && semantics->theory == models::Theory::registers) {
    matters = register_writes_that_matter(relevance, keep);
  }
  std::vector<bool> leave_out(partition.size(), false);
  std::size_t room = kMaxSearchedOps > core.size() ? kMaxSearchedOps - core.size() : 0;
  SearchOps ops;
  for (std::uint32_t i = 0; i < partition.size(); ++i) {
    if (keep[i]) continue;
    if (!matters[i] || (semantics && cannot_change_state(relevance.relaxed(i)))) {
      leave_out[i] = true;
    } else if (room == 0) {
      leave_out[i] = true;
      ++ops.others_left_out;
    } else {
      --room;
    }
  }
  ops.relaxed = relax(partition, keep, &leave_out);
  for (std::size_t k = 0; k < ops.relaxed.ops.size(); ++k) {
    ops.recorded.push_back(partition[ops.relaxed.source_index[k]]);
    ops.others += ops.relaxed.kept[k] ? 0 : 1;
  }
  return ops;
}

// A dead end: an order of some ops after which no remaining op of the core can take
// effect, in a state no other order avoids.
//
// Depth-first over the orders real time allows, memoised on (ops done, state).
// Wherever no remaining core op can take effect, each of them is recorded as blocked
// in that state, with the shortest run of ops leading there; the search goes on
// through the relaxed ops, which may still take effect (or may never).
class DeadEndSearch {
 public:
  DeadEndSearch(const Model& model, const SearchOps& ops, std::chrono::steady_clock::time_point deadline,
                const Limits* limits)
      : ops_(ops),
        pointers_(ops.relaxed.pointers()),
        compiled_(model.compile(pointers_)),
        deadline_(deadline),
        limits_(limits) {
    // The search's ops fit one 32-bit set (the caller keeps them that few), so what
    // each op waits for, and what must take effect, are masks computed once.
    predecessors_.assign(pointers_.size(), 0);
    for (std::uint32_t i = 0; i < pointers_.size(); ++i) {
      if (pointers_[i]->must_take_effect()) required_ |= 1u << i;
      for (std::uint32_t j = 0; j < pointers_.size(); ++j) {
        if (j != i && pointers_[j]->precedes(*pointers_[i])) predecessors_[i] |= 1u << j;
      }
    }
    // Relaxed twins (search/twin_classes.hpp) are interchangeable, all invoked before
    // everything and none completing: any order using one before an earlier twin
    // swaps into one that does not, with the same ops of the core done in the same
    // states. So each waits for its earlier twins, as for a real-time predecessor,
    // and the search meets each dead end once, instead of once per subset of twins
    // (k identical relaxed writes: 2^k subsets, k+1 now).
    search::TwinClasses twins;
    std::vector<std::uint32_t> earlier_twins;  // per class: the members added so far
    for (std::uint32_t i = 0; i < pointers_.size(); ++i) {
      if (ops.relaxed.kept[i]) continue;
      const std::uint32_t c = twins.add(*pointers_[i], i);
      if (c == earlier_twins.size()) earlier_twins.push_back(0);
      predecessors_[i] |= earlier_twins[c];
      earlier_twins[c] |= 1u << i;
    }
  }

  // Returns whether some order linearizes every op that must take effect (then the
  // core is not a core on its own: possible only when relaxed ops left out of the
  // search were needed to refute it, which the caller says).
  bool run() { return visit(0, compiled_->initial()); }

  // Whether the search stopped at kMaxVisitedStates or at the deadline: the dead ends
  // found are then only some of them.
  bool cut_short() const { return cut_short_; }
  bool out_of_time() const { return out_of_time_; }

  // Per blocked op, ops done and refusing state: the shortest run of ops there. The
  // ops done are part of the key so that a dead end reached through relaxed ops is
  // not hidden behind the same op blocked in an equal state at the start.
  using Key = std::tuple<std::uint32_t, std::uint32_t, std::string>;
  const std::map<Key, std::vector<std::uint32_t>>& dead_ends() const { return dead_ends_; }

 private:
  bool visit(std::uint32_t done, StateId state) {
    if ((required_ & ~done) == 0) return true;  // every op that must take effect has
    if (cut_short_) return false;
    if (seen_.size() >= kMaxVisitedStates) {
      cut_short_ = true;
      return false;
    }
    // The clock is read every kClockInterval states: a state costs well under a
    // microsecond, and the deadline need not be met to the microsecond.
    if (seen_.size() % kClockInterval == 0 &&
        (std::chrono::steady_clock::now() >= deadline_ || (limits_ && limits_->reached() != Limit::none))) {
      cut_short_ = out_of_time_ = true;
      return false;
    }
    if (!seen_.insert({done, state}).second) return false;
    std::vector<std::uint32_t> blocked;
    bool core_moved = false;
    for (std::uint32_t i = 0; i < pointers_.size(); ++i) {
      if (done >> i & 1) continue;
      if (!ready(done, i)) continue;
      // Successors go on one pool shared by every level, read by index: deeper
      // levels push theirs after them and pop them before returning.
      const std::size_t begin = successors_.size();
      compiled_->step(state, i, successors_);
      const std::size_t end = successors_.size();
      if (begin == end) {
        if (pointers_[i]->must_take_effect()) blocked.push_back(i);
        continue;
      }
      core_moved = core_moved || ops_.relaxed.kept[i];
      path_.push_back(i);
      for (std::size_t k = begin; k < end; ++k) {
        // A relaxed op that leaves the state as it is only gets used up: no order
        // through it reaches a dead end that the same order without it misses.
        if (!ops_.relaxed.kept[i] && successors_[k] == state) continue;
        if (visit(done | 1u << i, successors_[k])) return true;
      }
      successors_.resize(begin);
      path_.pop_back();
    }
    if (!core_moved) {
      for (const std::uint32_t i : blocked) record(i, done, state);
    }
    return false;
  }

  // Op i may come next when every op that real time (or twin order) puts before it is done.
  bool ready(std::uint32_t done, std::uint32_t i) const { return (predecessors_[i] & ~done) == 0; }

  // Keeps at most kMaxKeptDeadEnds, the shortest: the report shows a few, shortest
  // first, and the orders through relaxed ops are too many to keep them all.
  void record(std::uint32_t op, std::uint32_t done, StateId state) {
    Key key{op, done, compiled_->describe_state(state)};
    auto it = dead_ends_.find(key);
    if (it != dead_ends_.end()) {
      if (it->second.size() > path_.size()) it->second = path_;
      return;
    }
    if (dead_ends_.size() >= kMaxKeptDeadEnds) {
      auto longest = std::max_element(dead_ends_.begin(), dead_ends_.end(),
                                      [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
      if (longest->second.size() <= path_.size()) {
        ++dropped_;
        return;
      }
      dead_ends_.erase(longest);
      ++dropped_;
    }
    dead_ends_.emplace(std::move(key), path_);
  }

 public:
  std::size_t dropped() const { return dropped_; }

 private:
  static constexpr std::size_t kMaxVisitedStates = 50000;
  static constexpr std::size_t kMaxKeptDeadEnds = 64;
  static constexpr std::size_t kClockInterval = 256;

  const SearchOps& ops_;
  std::vector<const Operation*> pointers_;
  std::unique_ptr<CompiledModel> compiled_;
  std::vector<std::uint32_t> predecessors_;  // per op: the ops real time, or twin order, puts before it
  std::uint32_t required_ = 0;               // the ops that must take effect
  struct Visited {
    std::uint32_t done;
    StateId state;
    bool operator==(const Visited&) const = default;
  };
  struct VisitedHash {
    std::size_t operator()(const Visited& v) const {
      return std::hash<std::uint64_t>{}((std::uint64_t{v.done} * 0x9e3779b97f4a7c15ULL) ^ v.state);
    }
  };
  std::unordered_set<Visited, VisitedHash> seen_;  // (ops done, state) visited
  std::vector<std::uint32_t> path_;
  std::vector<StateId> successors_;  // see visit()
  std::map<Key, std::vector<std::uint32_t>> dead_ends_;
  std::size_t dropped_ = 0;
  std::chrono::steady_clock::time_point deadline_;
  const Limits* limits_;
  bool cut_short_ = false;
  bool out_of_time_ = false;
};

}  // namespace

DeadEnds find_dead_ends(const Model& model, std::span<const Operation* const> core,
                        std::span<const Operation* const> partition, const RelaxedRelevance& relevance,
                        std::chrono::steady_clock::time_point deadline, const Limits* limits) {
  DeadEnds found;
  found.ops = search_ops(core, partition, relevance);
  DeadEndSearch search(model, found.ops, deadline, limits);
  found.ordered = search.run();
  found.cut_short = search.cut_short();
  found.out_of_time = search.out_of_time();
  found.dropped = search.dropped();
  for (const auto& [key, path] : search.dead_ends()) {
    found.ends.push_back(DeadEnd{path, std::get<0>(key), std::get<1>(key), std::get<2>(key)});
  }
  const auto outside = [&](const DeadEnd& end) {
    return std::count_if(end.path.begin(), end.path.end(), [&](std::uint32_t i) { return !found.ops.relaxed.kept[i]; });
  };
  std::stable_sort(found.ends.begin(), found.ends.end(), [&](const DeadEnd& a, const DeadEnd& b) {
    return std::make_pair(outside(a), a.path.size()) < std::make_pair(outside(b), b.path.size());
  });
  return found;
}

}  // namespace ariadne::explain
