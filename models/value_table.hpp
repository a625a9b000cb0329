// Interning of the values an operation mentions into small dense integers.
//
// Models translate every value of their operations once, at compile time, so that
// step() compares integers instead of Values (whose equality follows Clojure and walks
// composite payloads). Two values get the same id exactly when they are equal under
// Value's equality, e.g. [1 2] and (1 2).
#pragma once

#include <ariadne/value.hpp>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ariadne::models {

class ValueTable {
 public:
  std::uint32_t intern(const Value& value) {
    auto [it, inserted] = ids_.try_emplace(value, static_cast<std::uint32_t>(values_.size()));
    if (inserted) values_.push_back(value);
    return it->second;
  }

  const Value& at(std::uint32_t id) const { return values_[id]; }
  std::size_t size() const { return values_.size(); }

  // An estimate: the vector, one hash node per value, and the bucket array. Shared
  // payloads of composite values belong to the history and are not counted.
  std::size_t memory_bytes() const {
    constexpr std::size_t kNodeBytes = sizeof(Value) + sizeof(std::uint32_t) + 2 * sizeof(void*);
    return values_.capacity() * sizeof(Value) + ids_.size() * kNodeBytes + ids_.bucket_count() * sizeof(void*);
  }

 private:
  std::unordered_map<Value, std::uint32_t, ValueHash> ids_;
  std::vector<Value> values_;
};

}  // namespace ariadne::models
