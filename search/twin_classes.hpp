// Twins: ops with the same f, argument and key. Two crashed twins that are both
// pending when a search may place either are interchangeable (their returns are both
// at the end of time), so a search that tries only the earliest unused member of a
// class loses no linearization and prunes the k! orders of k twins. WGL's crashed ops
// and the closure look's relaxed ops (refute/relaxed_closure.hpp) are grouped so.
#pragma once

#include <ariadne/history.hpp>

#include "base/flat_index.hpp"

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
    const auto fresh = static_cast<std::uint32_t>(members_.size());
    const std::uint32_t c = index_.find_or_add(h, fresh, [&](std::uint32_t at) {
      const Operation& rep = *representative_[at];
      return rep.f == op.f && rep.value == op.value && rep.key == op.key;
    });
    if (c == fresh) {
      members_.push_back({index});
      representative_.push_back(&op);
    } else {
      members_[c].push_back(index);
    }
    return c;
  }

  std::size_t size() const { return members_.size(); }
  const std::vector<std::uint32_t>& members(std::uint32_t c) const { return members_[c]; }

 private:
  base::FlatIndex index_;
  std::vector<std::vector<std::uint32_t>> members_;
  std::vector<const Operation*> representative_;
};

}  // namespace ariadne::search
