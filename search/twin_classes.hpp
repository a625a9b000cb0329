// Twins: ops with the same f, argument and key. Two crashed twins that are both
// pending when a search may place either are interchangeable (their returns are both
// at the end of time), so a search that tries only the earliest unused member of a
// class loses no linearization and prunes the k! orders of k twins. WGL's crashed ops
// and the closure look's relaxed ops (refute/relaxed_closure.hpp) are grouped so.
#pragma once

#include <ariadne/history.hpp>

#include "base/hash.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ariadne::search {

class TwinClasses {
 public:
  // Adds `op` (known to its caller as `index`) to its class, made if new; returns the
  // class. Members are kept in the order they were added.
  std::uint32_t add(const Operation& op, std::uint32_t index) {
    const std::size_t h = std::hash<std::string>{}(op.f) ^ (op.value.hash() * 31) ^ (op.key.hash() * 131);
    // Open addressing, a class a slot: classes whose hashes agree take the next slots.
    if ((members_.size() + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = base::splitmix64(h) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.cls == kEmpty) {
        const auto c = static_cast<std::uint32_t>(members_.size());
        members_.push_back({index});
        representative_.push_back(&op);
        slot = {h, c};
        return c;
      }
      if (slot.hash != h) continue;
      const Operation& rep = *representative_[slot.cls];
      if (rep.f == op.f && rep.value == op.value && rep.key == op.key) {
        members_[slot.cls].push_back(index);
        return slot.cls;
      }
    }
  }

  std::size_t size() const { return members_.size(); }
  const std::vector<std::uint32_t>& members(std::uint32_t c) const { return members_[c]; }

 private:
  static constexpr std::uint32_t kEmpty = 0xffffffffu;
  struct Slot {
    std::size_t hash = 0;
    std::uint32_t cls = kEmpty;
  };

  void grow() {
    std::vector<Slot> old(std::max<std::size_t>(16, 2 * slots_.size()));
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.cls == kEmpty) continue;
      std::size_t i = base::splitmix64(slot.hash) & mask;
      while (slots_[i].cls != kEmpty) i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;  // a power of two, at most half full
  std::vector<std::vector<std::uint32_t>> members_;
  std::vector<const Operation*> representative_;
};

}  // namespace ariadne::search
