// Interning of the values an operation mentions into small dense integers.
//
// Models translate every value of their operations once, at compile time, so that
// step() compares integers instead of Values (whose equality follows Clojure and walks
// composite payloads). Two values get the same id exactly when they are equal under
// Value's equality, e.g. [1 2] and (1 2).
#pragma once

#include <ariadne/value.hpp>

#include "base/flat_index.hpp"

#include <cstdint>
#include <vector>

namespace ariadne::models {

class ValueTable {
 public:
  std::uint32_t intern(const Value& value) {
    // Most values are integers, which equal only integers of the same number: those
    // are hashed and compared here, inline, rather than through Value's general hash
    // and comparison (most of a small history's model compilation, measured).
    const auto fresh = static_cast<std::uint32_t>(values_.size());
    std::uint32_t id;
    if (value.is_integer()) {
      const std::int64_t n = value.as_integer();
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
  base::FlatIndex index_;
  std::vector<Value> values_;
};

}  // namespace ariadne::models
