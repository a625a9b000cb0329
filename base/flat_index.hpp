// Dense ids found by hash, for a table whose entries live in the caller's own vector
// (a model's interned values, WGL's classes of twin ops): open addressing over (hash,
// id) pairs, no node per entry, and the caller's equality asked only where the
// hashes agree. Kept at most half full.
#pragma once

#include "base/hash.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ariadne::base {

class FlatIndex {
 public:
  // The id under `hash` for which is_equal(id) holds; if none, `fresh` is filed under
  // `hash` and returned, and the caller appends its entry as `fresh`.
  template <class IsEqual>
  std::uint32_t find_or_add(std::uint64_t hash, std::uint32_t fresh, IsEqual is_equal) {
    if ((filed_ + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot_of(hash, mask);; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.id == kEmpty) {
        slot = {hash, fresh};
        ++filed_;
        return fresh;
      }
      if (slot.hash == hash && is_equal(slot.id)) return slot.id;
    }
  }

  std::size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  static constexpr std::uint32_t kEmpty = 0xffffffffu;
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t id = kEmpty;
  };

  // Hashes of small integers differ in their low bits only: mixed, so they spread.
  static std::size_t slot_of(std::uint64_t hash, std::size_t mask) { return splitmix64(hash) & mask; }

  void grow() {
    std::vector<Slot> old(std::max<std::size_t>(16, 2 * slots_.size()));
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.id == kEmpty) continue;
      std::size_t i = slot_of(slot.hash, mask);
      while (slots_[i].id != kEmpty) i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;  // a power of two
  std::size_t filed_ = 0;
};

}  // namespace ariadne::base
