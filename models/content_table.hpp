// Interning of variable-length model states (queue contents, sets, strings) by content.
//
// Engines compare and hash states as integers, so every composite state is stored
// once and named by its index: equal contents get equal ids however the search reached
// them. This is the hash-consing that Porcupine's v1.3 state hashing and Knossos' memo
// tables (knossos.model.memo) approximate. Contents live back to back in one arena and
// an open-addressing table of ids answers "seen before?" without allocating, so a
// model's step() allocates only when a state is genuinely new.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ariadne::models {

template <typename T>
class ContentTable {
  static_assert(std::is_trivially_copyable_v<T>, "contents are hashed and copied as bytes");

 public:
  ContentTable() : slots_(16, kEmpty) {}

  // The id of the content equal to `content`, adding it if new. `content` may point
  // into this table (a queue's tail is a subspan of the queue), which is handled.
  std::uint32_t intern(std::span<const T> content) {
    const std::uint64_t hash = hash_of(content);
    const std::uint64_t tag = tag_of(hash);
    const std::size_t mask = slots_.size() - 1;
    std::size_t slot = hash & mask;
    for (; slots_[slot] != kEmpty; slot = (slot + 1) & mask) {
      // The tag settles most mismatches without touching the arena.
      if ((slots_[slot] & kTagMask) != tag) continue;
      const auto id = static_cast<std::uint32_t>(slots_[slot]);
      const auto existing = at(id);
      if (existing.size() == content.size() &&
          (content.empty() || std::memcmp(existing.data(), content.data(), content.size_bytes()) == 0)) {
        return id;
      }
    }
    const auto id = static_cast<std::uint32_t>(hashes_.size());
    append_to_arena(content);
    starts_.push_back(arena_.size());
    hashes_.push_back(hash);
    slots_[slot] = tag | id;
    // Keep the table at most half full so probe runs stay short.
    if (2 * hashes_.size() > slots_.size()) grow();
    return id;
  }

  // The content of `id`. Invalidated by the next intern(), which may move the arena.
  std::span<const T> at(std::uint32_t id) const {
    return {arena_.data() + starts_[id], arena_.data() + starts_[id + 1]};
  }

  std::size_t size() const { return hashes_.size(); }

  std::size_t memory_bytes() const {
    return arena_.capacity() * sizeof(T) + starts_.capacity() * sizeof(std::size_t) +
           hashes_.capacity() * sizeof(std::uint64_t) + slots_.capacity() * sizeof(std::uint64_t);
  }

 private:
  // A slot holds an id in its low 32 bits and the top 32 bits of its hash above them
  // (with the lowest tag bit forced on, so no occupied slot is zero, i.e. kEmpty).
  static constexpr std::uint64_t kEmpty = 0;
  static constexpr std::uint64_t kTagMask = 0xffffffff00000000ULL;
  static std::uint64_t tag_of(std::uint64_t hash) { return (hash & kTagMask) | (std::uint64_t{1} << 32); }

  static std::uint64_t hash_of(std::span<const T> content) {
    std::string_view bytes(reinterpret_cast<const char*>(content.data()), content.size_bytes());
    return std::hash<std::string_view>{}(bytes);
  }

  void append_to_arena(std::span<const T> content) {
    const std::size_t n = content.size();
    if (n == 0) return;
    const T* source = content.data();
    const bool aliases = source >= arena_.data() && source < arena_.data() + arena_.size();
    const std::size_t source_offset = aliases ? static_cast<std::size_t>(source - arena_.data()) : 0;
    const std::size_t old_size = arena_.size();
    // Grow geometrically ourselves: reserve() alone allocates exactly, which would
    // make a long run of new states quadratic.
    if (arena_.capacity() < old_size + n) arena_.reserve(std::max(old_size + n, 2 * arena_.capacity()));
    if (aliases) source = arena_.data() + source_offset;
    arena_.resize(old_size + n);
    std::memcpy(arena_.data() + old_size, source, n * sizeof(T));
  }

  void grow() {
    std::vector<std::uint64_t> slots(slots_.size() * 2, kEmpty);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t id = 0; id < hashes_.size(); ++id) {
      std::size_t slot = hashes_[id] & mask;
      while (slots[slot] != kEmpty) slot = (slot + 1) & mask;
      slots[slot] = tag_of(hashes_[id]) | id;
    }
    slots_ = std::move(slots);
  }

  std::vector<T> arena_;
  std::vector<std::size_t> starts_{0};  // content of id i is arena_[starts_[i], starts_[i+1])
  std::vector<std::uint64_t> hashes_;   // per id, so probing and growing never rehash content
  std::vector<std::uint64_t> slots_;    // open addressing, linear probing; kEmpty or tag | id
};

}  // namespace ariadne::models
