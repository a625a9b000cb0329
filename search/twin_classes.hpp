// Twins: ops with the same f, argument and key. Two crashed twins that are both
// pending when a search may place either are interchangeable (their returns are both
// at the end of time), so a search that tries only the earliest unused member of a
// class loses no linearization and prunes the k! orders of k twins. WGL's crashed ops
// and the closure look's relaxed ops (refute/relaxed_closure.hpp) are grouped so.
#pragma once

#include <ariadne/history.hpp>

#include "base/flat_index.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ariadne::search {

class TwinClasses {
 public:
  TwinClasses() = default;
  // spans_ point into members_, whose buffer a move keeps and a copy would not.
  TwinClasses(const TwinClasses&) = delete;
  TwinClasses& operator=(const TwinClasses&) = delete;
  TwinClasses(TwinClasses&&) = default;
  TwinClasses& operator=(TwinClasses&&) = default;
  ~TwinClasses() = default;

  // Adds `op` (known to its caller as `index`) to its class, made if new; returns the
  // class. Members are kept in the order they were added. Every add comes before
  // group().
  std::uint32_t add(const Operation& op, std::uint32_t index) {
    const auto fresh = static_cast<std::uint32_t>(representative_.size());
    const std::uint32_t c = index_.find_or_add(hash_of(op), fresh, [&](std::uint32_t at) {
      const Operation& rep = *representative_[at];
      return rep.f == op.f && rep.value == op.value && rep.key == op.key;
    });
    if (c == fresh) representative_.push_back(&op);
    added_.push_back({c, index});
    return c;
  }

  // Lays the members out by class, once every op is added: one array, in the order
  // added (a counting sort), where a vector a class took an allocation or more each.
  void group() {
    std::vector<std::uint32_t> at(representative_.size() + 1, 0);
    for (const Added& a : added_) ++at[a.c + 1];
    for (std::size_t c = 1; c < at.size(); ++c) at[c] += at[c - 1];
    members_.resize(added_.size());
    spans_.clear();
    spans_.reserve(representative_.size());
    for (std::size_t c = 0; c < representative_.size(); ++c)
      spans_.emplace_back(members_.data() + at[c], at[c + 1] - at[c]);
    for (const Added& a : added_) members_[at[a.c]++] = a.index;
  }

  std::size_t size() const { return representative_.size(); }

  // Class c's members, in the order added; after group().
  std::span<const std::uint32_t> members(std::uint32_t c) const { return spans_[c]; }

 private:
  struct Added {
    std::uint32_t c;
    std::uint32_t index;
  };

  // Equal ops hash alike (Value's equality keeps integers apart from every other kind,
  // so an integer may hash as its number); the common integer and nil skip Value's
  // general hash, and f, a short name, its byte-string hash: a tenth of a small
  // history's WGL set-up went to hashing, measured.
  static std::uint64_t hash_of(const Operation& op) {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over f
    for (const char ch : op.f) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ULL;
    return h ^ (hash_of(op.value) * 31) ^ (hash_of(op.key) * 131);
  }
  static std::uint64_t hash_of(const Value& v) {
    if (v.is_integer()) return static_cast<std::uint64_t>(v.as_integer());
    if (v.is_nil()) return 0x9e3779b97f4a7c15ULL;
    return v.hash();
  }

  base::FlatIndex index_;
  std::vector<const Operation*> representative_;
  std::vector<Added> added_;
  std::vector<std::uint32_t> members_;                 // grouped by class
  std::vector<std::span<const std::uint32_t>> spans_;  // each class's in members_
};

}  // namespace ariadne::search
