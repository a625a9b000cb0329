// The key the exhaustive search stores for a state it has visited: the design's
// fields and the checker's configurations, with values renamed in order of first
// appearance. Two states get the same key exactly when one is the other with its
// unique values renamed, and then they have the same futures, since designs only
// compare values for equality (system_design.hpp). Without the renaming every write
// would make every later state new, and no state would ever be visited twice.
#pragma once

#include "systems/system_design.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace ariadne::systems {

struct KeyHash {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  friend bool operator==(const KeyHash&, const KeyHash&) = default;
};

class CanonicalKey {
 public:
  void clear() {
    words_.clear();
    names_.clear();
  }
  void raw(std::uint32_t word) { words_.push_back(word); }
  // nil stays nil; any other value becomes 1, 2, ... in order of first appearance.
  void value(Val v) { words_.push_back(rename(v)); }
  // The name `v` has so far, or 0 if it has none yet (for sorting before naming).
  std::uint32_t name_if_seen(Val v) const;
  const std::vector<std::uint32_t>& words() const { return words_; }
  // Two independent 64-bit hashes of the words; the exhaustive search stores these
  // instead of the words (hash compaction, as in SPIN [Holzmann98]).
  KeyHash hash() const;

 private:
  std::uint32_t rename(Val v);
  std::vector<std::uint32_t> words_;
  std::vector<std::pair<Val, std::uint32_t>> names_;  // few values per state: a scan is fastest
};

}  // namespace ariadne::systems
