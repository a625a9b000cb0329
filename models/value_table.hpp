// Interning of the values an operation mentions into small dense integers.
//
// Models translate every value of their operations once, at compile time, so that
// step() compares integers instead of Values (whose equality follows Clojure and walks
// composite payloads). Two values get the same id exactly when they are equal under
// Value's equality, e.g. [1 2] and (1 2).
#pragma once

#include <ariadne/value.hpp>

#include "base/hash.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ariadne::models {

class ValueTable {
 public:
  std::uint32_t intern(const Value& value) {
    // Open addressing over (hash, id) pairs: no node per value, and a probe compares
    // Values only when the hashes agree. Most tables hold a few dozen values, and most
    // values are integers, which equal only integers of the same number: those are
    // hashed and compared here, inline, rather than through Value's general hash and
    // comparison (most of a small history's model compilation, measured).
    if ((values_.size() + 1) * 2 > slots_.size()) grow();
    const bool integer = value.is_integer();
    const std::uint64_t hash =
        (integer ? base::splitmix64(static_cast<std::uint64_t>(value.as_integer())) : value.hash()) | 1;  // 0: empty
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot_of(hash, mask);; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.hash == 0) {
        slot = {hash, static_cast<std::uint32_t>(values_.size())};
        values_.push_back(value);
        return slot.id;
      }
      if (slot.hash != hash) continue;
      const Value& stored = values_[slot.id];
      if (integer ? stored.is_integer() && stored.as_integer() == value.as_integer() : stored == value) return slot.id;
    }
  }

  const Value& at(std::uint32_t id) const { return values_[id]; }
  std::size_t size() const { return values_.size(); }

  // An estimate: the values and the slots. Shared payloads of composite values belong
  // to the history and are not counted.
  std::size_t memory_bytes() const { return values_.capacity() * sizeof(Value) + slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t id = 0;
  };

  // Value::hash of an integer is little more than the integer: mixed, so that small
  // consecutive values spread over the slots.
  static std::size_t slot_of(std::uint64_t hash, std::size_t mask) {
    return static_cast<std::size_t>((hash * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
  }

  void grow() {
    std::vector<Slot> old(std::max<std::size_t>(16, 2 * slots_.size()));
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.hash == 0) continue;
      std::size_t i = slot_of(slot.hash, mask);
      while (slots_[i].hash != 0) i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;  // a power of two, at most half full
  std::vector<Value> values_;
};

}  // namespace ariadne::models
