#include "explore/visited_table.hpp"

namespace ariadne::explore {

VisitedTable::VisitedTable(std::uint64_t memory_limit) : entries_(1u << 16), memory_limit_(memory_limit) {}

bool VisitedTable::grow() {
  const std::uint64_t doubled = entries_.size() * 2;
  if (doubled * sizeof(Entry) > memory_limit_) return false;
  std::vector<Entry> old(doubled);
  old.swap(entries_);
  const std::uint64_t mask = entries_.size() - 1;
  for (const Entry& entry : old) {
    if (entry.high == 0) continue;
    std::uint64_t slot = (entry.high >> 1) & mask;
    while (entries_[slot].high != 0) slot = (slot + 1) & mask;
    entries_[slot] = entry;
  }
  return true;
}

VisitedTable::Outcome VisitedTable::visit(const systems::KeyHash& key, int remaining) {
  if ((size_ + 1) * 2 > entries_.size() && !grow()) return Outcome::full;
  const std::uint64_t high = key.high | 1u;  // never 0, which marks an empty entry
  const std::uint64_t low_bits = key.low & ~0xFFull;
  const auto steps = static_cast<std::uint64_t>(remaining & 0xFF);
  const std::uint64_t mask = entries_.size() - 1;
  std::uint64_t slot = (high >> 1) & mask;
  while (true) {
    Entry& entry = entries_[slot];
    if (entry.high == 0) {
      entry = {high, low_bits | steps};
      ++size_;
      return Outcome::explore;
    }
    if (entry.high == high && (entry.low & ~0xFFull) == low_bits) {
      if ((entry.low & 0xFF) >= steps) return Outcome::skip;
      entry.low = low_bits | steps;
      return Outcome::explore;
    }
    slot = (slot + 1) & mask;
  }
}

}  // namespace ariadne::explore
