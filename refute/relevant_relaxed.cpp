#include "refute/relevant_relaxed.hpp"

#include "refute/relaxed_history.hpp"

#include <map>
#include <set>
#include <string_view>
#include <utility>

namespace ariadne::refute {

using models::Effect;
using models::RegisterAccess;
using models::Theory;

RelaxedRelevance::RelaxedRelevance(std::span<const Operation* const> ops, const Model& model) : size_(ops.size()) {
  const RelaxedHistory relaxed = relax(ops, std::vector<bool>(ops.size(), false));
  std::vector<const Operation*> both(ops.begin(), ops.end());
  for (const Operation& op : relaxed.ops) both.push_back(&op);
  semantics_ = models::semantics_of(model, both);
  if (!semantics_) return;
  for (const models::OpMeaning& meaning : semantics_->ops) {
    for (const RegisterAccess& access : meaning.accesses) {
      if (access.kind == RegisterAccess::Kind::append) keys_with_appends_.insert(access.key);
    }
  }
  // Indices into the one description rather than copies of its meanings: each copy
  // allocates its accesses, and a 10^6-op core paid a fifth of its time for them.
  relaxed_at_.assign(ops.size(), kNoTwin);
  for (std::uint32_t r = 0; r < relaxed.ops.size(); ++r) {
    relaxed_at_[relaxed.source_index[r]] = static_cast<std::uint32_t>(ops.size()) + r;
  }
}

const models::OpMeaning& RelaxedRelevance::relaxed(std::uint32_t i) const {
  static const models::OpMeaning kNothing;
  return relaxed_at_[i] == kNoTwin ? kNothing : semantics_->ops[relaxed_at_[i]];
}

std::vector<bool> RelaxedRelevance::irrelevant(const std::vector<bool>& keep) const { return leave_out(keep, false); }

// Subsets: a rule that only counts kept ops (set, mutex) holds for every subset as it
// is, since a subset keeps fewer; the register and container rules are widened.
std::vector<bool> RelaxedRelevance::irrelevant_to_every_subset(const std::vector<bool>& candidate) const {
  return leave_out(candidate, true);
}

std::vector<bool> RelaxedRelevance::leave_out(const std::vector<bool>& keep, bool subsets) const {
  if (!semantics_) return std::vector<bool>(size_, false);
  std::vector<bool> out;
  switch (semantics_->theory) {
    case Theory::registers: out = irrelevant_registers(keep, subsets); break;
    case Theory::fifo_queue:
    case Theory::stack:
    case Theory::unordered_queue:
    case Theory::priority_queue: out = irrelevant_containers(keep, subsets); break;
    case Theory::set: out = irrelevant_set(keep); break;
    case Theory::mutex: out = irrelevant_mutex(keep); break;
  }
  // In every theory, a relaxed op that changes nothing (a read: its result is free)
  // or cannot take effect can be dropped from any linearization as it stands.
  for (std::uint32_t i = 0; i < size_; ++i) {
    if (!keep[i] && (relaxed(i).effect == Effect::none || relaxed(i).effect == Effect::impossible)) out[i] = true;
  }
  return out;
}

// Registers. Call a (key, value) wanted when a kept op reads it, or a wanted relaxed
// op reads it (a cas needs its old value); a relaxed op matters when it may write a
// wanted value. One that does not can be left out without changing the verdict: in
// any linearization, drop every op that took effect and does not matter. Each op that
// matters read its value from the last write before it, which wrote a wanted value
// and so matters and stays; the dropped ops only ever wrote unwanted values, which
// only dropped ops read. A read that excludes a value ("anything but 3", etcd's
// failed cas) wants every other value: then every relaxed writer of that key matters.
//
// A key with appends (kv) holds a string: a put's text followed by the appends since.
// There a relaxed append matters when its text occurs in a string some kept read saw,
// and a relaxed put when its text begins one. The others can go: in any linearization,
// each kept read saw the last put before it and the appends after that put, all of
// whose texts occur in (or begin) what it saw, so none of them is dropped; dropping
// the rest leaves that put the last one before the read and adds or removes no append
// between them, so every kept read sees the same string. (Ops on such keys read
// nothing but their own results, so nothing else is wanted.)
//
// For every subset of `keep` at once, a kept op's twin counts as mattering too: its
// reads are wanted from the start. Then what is wanted for any subset is wanted here
// (each op that matters there matters here, by induction along the fixpoint).
std::vector<bool> RelaxedRelevance::irrelevant_registers(const std::vector<bool>& keep, bool subsets) const {
  std::set<std::pair<std::uint32_t, std::uint32_t>> wanted;     // (key, value)
  std::set<std::uint32_t> every_value;                          // keys where any write matters
  std::map<std::uint32_t, std::vector<std::string_view>> seen;  // keys with appends: the strings kept reads saw
  const auto want = [&](const RegisterAccess& access) {
    if (access.kind == RegisterAccess::Kind::read_other_than) {
      every_value.insert(access.key);
    } else if (access.kind == RegisterAccess::Kind::read) {
      wanted.insert({access.key, access.value});
      if (keys_with_appends_.count(access.key)) seen[access.key].push_back(semantics_->text(access.value));
    }
  };
  for (std::uint32_t i = 0; i < size_; ++i) {
    if (!keep[i]) continue;
    for (const RegisterAccess& access : recorded(i).accesses) {
      if (access.kind != RegisterAccess::Kind::write) want(access);
    }
    if (!subsets) continue;
    for (const RegisterAccess& access : relaxed(i).accesses) {
      if (access.kind != RegisterAccess::Kind::write) want(access);
    }
  }
  const auto writes_wanted = [&](const models::OpMeaning& meaning) {
    for (const RegisterAccess& access : meaning.accesses) {
      const bool append = access.kind == RegisterAccess::Kind::append;
      if (!append && access.kind != RegisterAccess::Kind::write) continue;
      if (keys_with_appends_.count(access.key) && !every_value.count(access.key)) {
        const std::string_view text = semantics_->text(access.value);
        for (const std::string_view string : seen[access.key]) {
          if (append ? string.find(text) != std::string_view::npos : string.starts_with(text)) return true;
        }
        continue;
      }
      if (append) return true;
      if (access.kind == RegisterAccess::Kind::write &&
          (every_value.count(access.key) || wanted.count({access.key, access.value}))) {
        return true;
      }
    }
    return false;
  };
  std::vector<bool> matters(size_, false);
  for (bool grew = true; grew;) {
    grew = false;
    for (std::uint32_t j = 0; j < size_; ++j) {
      if (keep[j] || matters[j] || !writes_wanted(relaxed(j))) continue;
      matters[j] = true;
      grew = true;
      for (const RegisterAccess& access : relaxed(j).accesses) {
        if (access.kind != RegisterAccess::Kind::write) want(access);
      }
    }
  }
  std::vector<bool> out(size_, false);
  for (std::uint32_t j = 0; j < size_; ++j) out[j] = !keep[j] && !matters[j];
  return out;
}

// Queues, stacks and priority queues. Call a value wanted when a kept completed
// removal returned it, or a kept peek saw it.
//
// A relaxed insert of an unwanted value can go: in any linearization, its element e
// is never removed, or removed by a crashed removal (kept or relaxed: a completed one
// returned a wanted value, so took another element). Drop the insert and that removal.
// The container then holds the same elements minus e at every point, and every other
// removal finds the same front, top or element: e was at the front (top) only when
// its own removal took it, in a queue (stack); a bag has no front at all; in a
// priority queue, removing an element from the queue leaves every other element of
// the top priority at the top, so every poll and peek is still legal.
//
// What is left are the initial elements, the kept inserts and the relaxed inserts of
// wanted values: `elements` in all. Each completed kept removal takes one of them, and
// a relaxed removal that took effect took another (on an empty container it cannot
// take effect), so at most `elements` minus the kept removals of relaxed removals take
// effect; the rest are dropped. Relaxed removals are all alike (a remove of anything,
// invoked first, never completing), so which of them stay does not matter: the first.
// In a bag no relaxed removal is needed at all unless a kept removal found the
// container empty (Effect::remove_empty): an extra element never stops a kept removal
// that took one, so dropping a relaxed removal keeps every other op legal; but it may
// stop an empty observation, which a relaxed removal may have emptied the bag for.
//
// Empty observations (kept ops that returned :empty) leave the rest as it is:
// dropping an insert whose element is never removed, with the crashed removal that
// took it if one did, leaves the container with one element fewer from then on, and
// a container that was empty is still empty. They take no element, so they are not
// counted among the kept removals.
//
// For every subset of `keep` at once: the wanted values of a subset are among those
// of `keep`, and each kept removal dropped from `keep` may free one more relaxed
// removal, so up to `elements` relaxed removals stay, without subtracting.
std::vector<bool> RelaxedRelevance::irrelevant_containers(const std::vector<bool>& keep, bool subsets) const {
  std::set<std::uint32_t> wanted;
  std::size_t elements = semantics_->initial.size();
  std::size_t kept_removals = 0;
  bool kept_empty_observation = false;
  for (std::uint32_t i = 0; i < size_; ++i) {
    if (!keep[i]) continue;
    if (recorded(i).effect == Effect::remove_empty) kept_empty_observation = true;
    if (recorded(i).effect == Effect::peek) wanted.insert(recorded(i).element);
    if (recorded(i).effect == Effect::remove) {
      wanted.insert(recorded(i).element);
      ++kept_removals;
    }
    if (recorded(i).effect == Effect::insert) ++elements;
  }
  std::vector<bool> out(size_, false);
  for (std::uint32_t j = 0; j < size_; ++j) {
    if (keep[j] || relaxed(j).effect != Effect::insert) continue;
    if (wanted.count(relaxed(j).element)) {
      ++elements;
    } else {
      out[j] = true;
    }
  }
  if (subsets) kept_removals = 0;
  std::size_t removals_left =
      (semantics_->theory == Theory::unordered_queue && !kept_empty_observation) || elements <= kept_removals
          ? 0
          : elements - kept_removals;
  for (std::uint32_t j = 0; j < size_; ++j) {
    if (keep[j] || relaxed(j).effect != Effect::remove_any) continue;
    if (removals_left > 0) {
      --removals_left;
    } else {
      out[j] = true;
    }
  }
  return out;
}

// Grow-only set. Call an element wanted when a kept read's set holds it. A relaxed
// add of an unwanted element can go: no kept read saw that element, so in any
// linearization every kept read comes before the first add of it that took effect,
// and dropping those adds changes no set a kept read saw.
std::vector<bool> RelaxedRelevance::irrelevant_set(const std::vector<bool>& keep) const {
  std::set<std::uint32_t> wanted;
  for (std::uint32_t i = 0; i < size_; ++i) {
    if (keep[i] && recorded(i).effect == Effect::read_set) {
      wanted.insert(recorded(i).elements.begin(), recorded(i).elements.end());
    }
  }
  std::vector<bool> out(size_, false);
  for (std::uint32_t j = 0; j < size_; ++j) {
    out[j] = !keep[j] && relaxed(j).effect == Effect::add && !wanted.count(relaxed(j).element);
  }
  return out;
}

// Mutex. The ops that took effect alternate acquire, release, acquire... from the free
// lock. In any linearization, drop a relaxed op that took effect last, and two relaxed
// ops that took effect one right after the other (an acquire and the release after
// it, or a release and the acquire after it): the lock is the same before and after
// them, so every other op stays legal. Repeat until neither applies. Then every
// relaxed acquire is followed by a kept release and every relaxed release comes after
// a kept acquire (the lock starts free), each a different one: at most as many
// relaxed acquires take effect as there are kept releases, and at most as many
// relaxed releases as kept acquires. Relaxed acquires are all alike, as are relaxed
// releases (invoked first, never completing; values are ignored), so the first ones
// stay.
std::vector<bool> RelaxedRelevance::irrelevant_mutex(const std::vector<bool>& keep) const {
  std::size_t acquires = 0, releases = 0;
  for (std::uint32_t i = 0; i < size_; ++i) {
    if (!keep[i]) continue;
    acquires += recorded(i).effect == Effect::acquire ? 1 : 0;
    releases += recorded(i).effect == Effect::release ? 1 : 0;
  }
  std::vector<bool> out(size_, false);
  for (std::uint32_t j = 0; j < size_; ++j) {
    if (keep[j]) continue;
    std::size_t& left = relaxed(j).effect == Effect::acquire ? releases : acquires;
    if (relaxed(j).effect != Effect::acquire && relaxed(j).effect != Effect::release) continue;
    if (left > 0) {
      --left;
    } else {
      out[j] = true;
    }
  }
  return out;
}

void RelaxedRelevance::add_potential_writers(std::vector<bool>& needed) const {
  if (!semantics_ || semantics_->theory != Theory::registers) return;
  std::vector<RegisterAccess> reads;
  for (std::uint32_t i = 0; i < size_; ++i) {
    if (!needed[i]) continue;
    for (const RegisterAccess& access : recorded(i).accesses) {
      if (access.kind == RegisterAccess::Kind::read || access.kind == RegisterAccess::Kind::read_other_than) {
        reads.push_back(access);
      }
    }
  }
  for (std::uint32_t j = 0; j < size_; ++j) {
    for (const RegisterAccess& write : relaxed(j).accesses) {
      if (write.kind != RegisterAccess::Kind::write && write.kind != RegisterAccess::Kind::append) continue;
      for (const RegisterAccess& read : reads) {
        if (write.key != read.key) continue;
        const bool fits = write.kind == RegisterAccess::Kind::append ||
                          (write.value == read.value) != (read.kind == RegisterAccess::Kind::read_other_than);
        if (fits) needed[j] = true;
      }
    }
  }
}

}  // namespace ariadne::refute
