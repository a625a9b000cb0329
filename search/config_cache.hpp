// The memo table of WGL [Lowe17]: the set of configurations (set of linearized ops,
// model state) already explored. Revisiting one cannot lead anywhere new, because what
// can still happen depends only on which ops remain and on the state.
//
// Open addressing over 64-bit hashes; the op sets live in one arena of bit words so an
// entry costs 24 bytes plus n/8 bytes, with no allocation per entry. The caller gives
// the hash, computed incrementally (Zobrist) as ops are linearized and undone.
#pragma once

#include <ariadne/model.hpp>

#include <cstdint>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ariadne::search {

class ConfigCache {
 public:
  explicit ConfigCache(std::size_t words_per_set) : words_(words_per_set) { reset_slots(1024); }

  // The table never grows past this many bytes: when the next growth would cross it,
  // the table is emptied instead (an eviction). Forgetting configurations keeps the
  // search complete, only slower, and keeps --memory-limit a hard limit.
  void set_byte_limit(std::size_t bytes) { byte_limit_ = bytes; }
  std::uint64_t evictions() const { return evictions_; }

  // Inserts the configuration; returns false if it was already present.
  bool insert(std::uint64_t hash, StateId state, const std::uint64_t* bits) {
    const bool slots_grow = (count_ + 1) * 2 > slots_.size();
    const bool arena_grows = arena_.size() + words_ > arena_.capacity();
    if (slots_grow || arena_grows) {
      std::size_t growth = (slots_grow ? 2 * slots_.size() * sizeof(Slot) : 0) +
                           (arena_grows ? std::max<std::size_t>(arena_.capacity(), 64) * sizeof(std::uint64_t) : 0);
      if (bytes() + growth > byte_limit_) {
        clear();
        ++evictions_;
      } else if (slots_grow) {
        grow();
      }
    }
    hash |= 1;  // 0 marks an empty slot
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.hash == 0) {
        s.hash = hash;
        s.state = state;
        s.bits_at = arena_.size();
        arena_.insert(arena_.end(), bits, bits + words_);
        ++count_;
        return true;
      }
      if (s.hash == hash && s.state == state &&
          std::memcmp(&arena_[s.bits_at], bits, words_ * sizeof(std::uint64_t)) == 0) {
        return false;
      }
    }
  }

  void clear() {
    std::vector<Slot>().swap(slots_);
    std::vector<std::uint64_t>().swap(arena_);
    count_ = 0;
    reset_slots(1024);
  }

  std::size_t size() const { return count_; }
  std::size_t bytes() const {
    return slots_.capacity() * sizeof(Slot) + arena_.capacity() * sizeof(std::uint64_t);
  }

 private:
  struct Slot {
    std::uint64_t hash;
    StateId state;
    std::uint64_t bits_at;
  };

  void reset_slots(std::size_t n) { slots_.assign(n, Slot{0, 0, 0}); }

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    reset_slots(old.size() * 2);
    std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.hash == 0) continue;
      std::size_t i = s.hash & mask;
      while (slots_[i].hash != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::size_t words_;
  std::size_t count_ = 0;
  std::size_t byte_limit_ = SIZE_MAX;
  std::uint64_t evictions_ = 0;
  std::vector<Slot> slots_;
  std::vector<std::uint64_t> arena_;
};

}  // namespace ariadne::search
