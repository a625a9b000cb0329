// Interning of the values an operation mentions into small dense integers.
//
// Models translate every value of their operations once, at compile time, so that
// step() compares integers instead of Values (whose equality follows Clojure and walks
// composite payloads). Two values get the same id exactly when they are equal under
// Value's equality, e.g. [1 2] and (1 2).
#pragma once

#include <ariadne/value.hpp>

#include "base/flat_index.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace ariadne::models {

class ValueTable {
 public:
  std::uint32_t intern(const Value& value) {
    // Most values are integers, which equal only integers of the same number, and most
    // of those are small (a Jepsen register's values are drawn from 0-4): a small one is
    // found in a direct table, a larger one hashed and compared here, inline, rather
    // than through Value's general hash and comparison (most of a small history's model
    // compilation, measured).
    const auto fresh = static_cast<std::uint32_t>(values_.size());
    std::uint32_t id;
    if (value.is_integer()) {
      const std::int64_t n = value.as_integer();
      if (static_cast<std::uint64_t>(n) < kSmall) {
        std::uint32_t& slot = small_[static_cast<std::size_t>(n)];
        if (slot != kNone) return slot;
        slot = fresh;
        values_.push_back(value);
        return fresh;
      }
      id = index_.find_or_add(static_cast<std::uint64_t>(n), fresh, [&](std::uint32_t at) {
        return values_[at].is_integer() && values_[at].as_integer() == n;
      });
    } else {
      id = index_.find_or_add(value.hash(), fresh, [&](std::uint32_t at) { return values_[at] == value; });
    }
    if (id == fresh) values_.push_back(value);
    return id;
  }

  const Value& at(std::uint32_t id) const { return values_[id]; }
  std::size_t size() const { return values_.size(); }

  // An estimate: the values and the index. Shared payloads of composite values belong
  // to the history and are not counted.
  std::size_t memory_bytes() const { return values_.capacity() * sizeof(Value) + index_.memory_bytes(); }

 private:
  static constexpr std::size_t kSmall = 16;
  static constexpr std::uint32_t kNone = 0xffffffffu;
  // small_[n]: the id of the integer n, for 0 <= n < kSmall; the rest go through index_.
  std::array<std::uint32_t, kSmall> small_ = filled_with_none();
  base::FlatIndex index_;
  std::vector<Value> values_;

  static constexpr std::array<std::uint32_t, kSmall> filled_with_none() {
    std::array<std::uint32_t, kSmall> table{};
    table.fill(kNone);
    return table;
  }
};

}  // namespace ariadne::models
