// RegisterFacts (see the header).
#include "search/register_facts.hpp"

#include <algorithm>
#include <unordered_set>

namespace ariadne::search {

RegisterFacts::RegisterFacts(const models::Semantics& semantics, std::span<const Operation* const> ops) {
  if (semantics.theory != models::Theory::registers || semantics.ops.size() != ops.size()) return;
  using Kind = models::RegisterAccess::Kind;
  reads_.resize(ops.size());
  writes_.resize(ops.size());
  std::vector<bool> read_other_than(semantics.initial.size(), false);
  // Every value some op reads, crashed ops included: a crashed cas that reads v and
  // writes what a completed op reads makes a crashed write of v matter.
  std::unordered_set<std::uint64_t> read_by_any;
  std::unordered_set<std::uint64_t> read_by_crashed;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    const models::OpMeaning& meaning = semantics.ops[i];
    if (meaning.effect != models::Effect::registers) continue;
    for (const models::RegisterAccess& a : meaning.accesses) {
      if (a.key >= read_other_than.size()) return;  // a register with no initial value: not ours to reason on
      switch (a.kind) {
        case Kind::append: return;  // values depend on order: none of this holds
        case Kind::read_other_than: read_other_than[a.key] = true; break;
        case Kind::read:
          if (meaning.must_take_effect) reads_[i].push_back({a.key, a.value});
          read_by_any.insert(slot({a.key, a.value}));
          if (!meaning.must_take_effect) read_by_crashed.insert(slot({a.key, a.value}));
          break;
        case Kind::write: writes_[i].push_back({a.key, a.value}); break;
      }
    }
  }
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    for (const Access& r : reads_[i]) ++unplaced_readers_[slot(r)];
    for (const Access& w : writes_[i]) ++unplaced_writers_[slot(w)];
  }
  irrelevant_.assign(ops.size(), false);
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (semantics.ops[i].must_take_effect || writes_[i].empty()) continue;
    irrelevant_[i] = std::ranges::none_of(
        writes_[i], [&](const Access& w) { return read_other_than[w.key] || read_by_any.contains(slot(w)); });
  }
  just_in_time_.assign(ops.size(), false);
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (semantics.ops[i].must_take_effect || writes_[i].size() != 1 || irrelevant_[i]) continue;
    const Access w = writes_[i][0];
    just_in_time_[i] = !read_other_than[w.key] && !read_by_crashed.contains(slot(w));
  }
  current_ = semantics.initial;
  for (const auto& [read, readers] : unplaced_readers_) {
    const Access a{static_cast<std::uint32_t>(read >> 32), static_cast<std::uint32_t>(read)};
    if (readers > 0 && !unplaced_writers_.contains(read) && current_[a.key] != a.value) unreadable_value_ = true;
  }
  enabled_ = true;
}

bool RegisterFacts::place(std::uint32_t op) {
  if (!enabled_) return true;
  for (const Access& r : reads_[op]) --unplaced_readers_[slot(r)];
  for (const Access& w : writes_[op]) --unplaced_writers_[slot(w)];
  bool alive = true;
  for (const Access& w : writes_[op]) {
    const Access old{w.key, current_[w.key]};
    undo_.push_back(old.value);
    current_[w.key] = w.value;
    if (old.value == w.value) continue;
    const auto readers = unplaced_readers_.find(slot(old));
    if (readers == unplaced_readers_.end() || readers->second == 0) continue;
    const auto writers = unplaced_writers_.find(slot(old));
    if (writers == unplaced_writers_.end() || writers->second == 0) alive = false;
  }
  return alive;
}

void RegisterFacts::unplace(std::uint32_t op) {
  if (!enabled_) return;
  for (auto it = writes_[op].rbegin(); it != writes_[op].rend(); ++it) {
    current_[it->key] = undo_.back();
    undo_.pop_back();
  }
  for (const Access& r : reads_[op]) ++unplaced_readers_[slot(r)];
  for (const Access& w : writes_[op]) ++unplaced_writers_[slot(w)];
}

std::uint32_t RegisterFacts::wanted_by(std::uint32_t op, std::span<const std::uint32_t> next_ops) const {
  if (!enabled_ || writes_[op].empty()) return 0;
  std::uint32_t wanted = 0;
  for (const std::uint32_t next : next_ops) {
    if (next == kNoNext || next == op) continue;
    for (const Access& r : reads_[next]) {
      if (std::ranges::any_of(writes_[op], [&](const Access& w) { return w.key == r.key && w.value == r.value; })) {
        ++wanted;
        break;
      }
    }
  }
  return wanted;
}

}  // namespace ariadne::search
