// The exhaustive search's visited set: for each state key seen, the most steps that
// were left when it was explored. A state reached again with no more steps left has
// nothing new to show and is skipped; reached with more, it is explored again, or a
// bounded depth-first search would miss what lies beyond its first, deeper visit.
//
// Keys are stored as 120 bits of hash, not in full (hash compaction [Holzmann98]):
// 16 bytes a state, and with n states the chance that any two collide, which could
// hide a state, is about n^2 / 2^121: below 10^-22 for 10^7 states.
#pragma once

#include "systems/canonical_key.hpp"

#include <cstdint>
#include <vector>

namespace ariadne::explore {

class VisitedTable {
 public:
  explicit VisitedTable(std::uint64_t memory_limit);

  enum class Outcome : std::uint8_t { explore, skip, full };
  // Records that `key` is reached with `remaining` steps left (at most 255).
  Outcome visit(const systems::KeyHash& key, int remaining);

  std::uint64_t size() const { return size_; }
  std::uint64_t bytes() const { return entries_.size() * sizeof(Entry); }

 private:
  struct Entry {
    std::uint64_t high = 0;  // 0: empty
    std::uint64_t low = 0;   // hash bits above the low byte; the low byte is `remaining`
  };
  bool grow();

  std::vector<Entry> entries_;
  std::uint64_t size_ = 0;
  std::uint64_t memory_limit_;
};

}  // namespace ariadne::explore
