// Twins: ops with the same f, argument and key. Two crashed twins that are both
// pending when a search may place either are interchangeable (their returns are both
// at the end of time), so a search that tries only the earliest unused member of a
// class loses no linearization and prunes the k! orders of k twins. WGL's crashed ops
// and the closure look's relaxed ops (refute/relaxed_closure.hpp) are grouped so.
#pragma once

#include <ariadne/history.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ariadne::search {

class TwinClasses {
 public:
  // Adds `op` (known to its caller as `index`) to its class, made if new; returns the
  // class. Members are kept in the order they were added.
  std::uint32_t add(const Operation& op, std::uint32_t index) {
    const std::size_t h = std::hash<std::string>{}(op.f) ^ (op.value.hash() * 31) ^ (op.key.hash() * 131);
    std::vector<std::uint32_t>& candidates = by_hash_[h];
    for (const std::uint32_t c : candidates) {
      const Operation& rep = *representative_[c];
      if (rep.f == op.f && rep.value == op.value && rep.key == op.key) {
        members_[c].push_back(index);
        return c;
      }
    }
    const auto c = static_cast<std::uint32_t>(members_.size());
    members_.push_back({index});
    representative_.push_back(&op);
    candidates.push_back(c);
    return c;
  }

  std::size_t size() const { return members_.size(); }
  const std::vector<std::uint32_t>& members(std::uint32_t c) const { return members_[c]; }

 private:
  std::unordered_map<std::size_t, std::vector<std::uint32_t>> by_hash_;
  std::vector<std::vector<std::uint32_t>> members_;
  std::vector<const Operation*> representative_;
};

}  // namespace ariadne::search
