// Interning of variable-length model states (queue contents, sets, strings) by content.
//
// Engines compare and hash states as integers, so every composite state is stored
// once and named by its index: equal contents get equal ids however the search reached
// them. This is the hash-consing that Porcupine's v1.3 state hashing and Knossos' memo
// tables (knossos.model.memo) approximate. Contents live back to back in an arena and
// an open-addressing table of ids answers "seen before?" without allocating, so a
// model's step() allocates only when a state is genuinely new.
//
// The arena is a ChunkArena, whose chunks never move, not one vector that doubles: a
// set model's states on a 2,000-op history fill hundreds of megabytes, which one
// doubling would copy in a step no limit could see coming (chunk_arena.hpp). Spans
// returned by at() stay valid for the table's lifetime.
#pragma once

#include "models/chunk_arena.hpp"

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
  // into this table (a queue's tail is a subspan of the queue): chunks never move.
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
    const auto id = static_cast<std::uint32_t>(entries_.size());
    entries_.push_back({copy_to_arena(content), hash, content.size()});
    slots_[slot] = tag | id;
    // Keep the table at most half full so probe runs stay short.
    if (2 * entries_.size() > slots_.size()) grow();
    return id;
  }

  // The content of `id`, valid as long as the table.
  std::span<const T> at(std::uint32_t id) const {
    const Entry& entry = entries_[id];
    return {entry.data, entry.size};
  }

  std::size_t size() const { return entries_.size(); }

  std::size_t memory_bytes() const {
    return arena_.bytes() + entries_.capacity() * sizeof(Entry) + slots_.capacity() * sizeof(std::uint64_t);
  }

  // The most one intern() adds to the arena at once, short of a single content larger
  // than this (which gets a chunk of its own size).
  static constexpr std::size_t kMaxChunkBytes = ChunkArena<T>::kMaxChunkBytes;

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

  struct Entry {
    const T* data;
    std::uint64_t hash;  // kept so probing and growing never rehash content
    std::size_t size;
  };

  // Where `content` now lives in the arena.
  const T* copy_to_arena(std::span<const T> content) {
    T* destination = arena_.allocate(content.size());
    if (destination) std::memcpy(destination, content.data(), content.size_bytes());
    return destination;
  }

  void grow() {
    std::vector<std::uint64_t> slots(slots_.size() * 2, kEmpty);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t id = 0; id < entries_.size(); ++id) {
      std::size_t slot = entries_[id].hash & mask;
      while (slots[slot] != kEmpty) slot = (slot + 1) & mask;
      slots[slot] = tag_of(entries_[id].hash) | id;
    }
    slots_ = std::move(slots);
  }

  ChunkArena<T> arena_;
  std::vector<Entry> entries_;        // per id: where its content is, and its hash
  std::vector<std::uint64_t> slots_;  // open addressing, linear probing; kEmpty or tag | id
};

}  // namespace ariadne::models
