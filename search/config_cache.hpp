// The memo table of WGL [Lowe17]: the configurations (set of linearized ops, model
// state) already explored. Revisiting one cannot lead anywhere new, because what can
// still happen depends only on which ops remain and on the state.
//
// Beyond exact matches it prunes by subsumption on crashed ops: a crashed op may take
// effect or not, so a configuration that has used up a superset of the crashed ops
// another one used, with the same completed ops and the same state, can do nothing the
// other cannot (it has strictly fewer options left). Crash-heavy histories, where the
// same point is reached through many subsets of crashed writes, shrink by orders of
// magnitude.
//
// Layout: an open-addressing table of groups keyed by (completed ops, state), with the
// completed-op sets in an arena of bit words; each group keeps a linked list of the
// crashed-op sets seen with it, pruned to an antichain (a new set evicts the stored
// supersets it subsumes). Nothing is allocated per entry. The caller computes the hash
// of the completed ops incrementally.
//
// The table holds hundreds of megabytes on a hard history, so no single insert may do
// work in proportion to all of it: that step would poll neither --timeout nor
// --memory-limit (WGL polls between steps). The words live in chunk arenas that never
// move (models/chunk_arena.hpp), and the slots are split into kShards tables by the
// hash's top bits, each doubling on its own: the largest rehash is 1/kShards of the
// table. Measured on a 2,000-op stack history under --memory-limit 512MiB: one
// table's doubling took 40 ms and the arena's 23 ms, and the next would have taken
// twice that, past the 100 ms a limit may be overrun by.
//
// A small search (most histories of tens of ops) stores a few dozen configurations:
// the table starts as one shard and splits into kShards when that one would grow past
// kSplitSlots, so a small search allocates one table, not one per shard it touches
// (a 48-op history's check spent a fifth of its time in the allocator before).
#pragma once

#include "base/hash.hpp"
#include "models/chunk_arena.hpp"

#include <ariadne/model.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ariadne::search {

class ConfigCache {
 public:
  // A configuration's hash from the incremental hash of its completed ops (a xor of
  // per-op Zobrist keys, kept by the search) and its state: splitmix64's finaliser on
  // both, so that the shard (top bits) and the slot (low bits) depend on every bit.
  static std::uint64_t hash(std::uint64_t completed, StateId state) {
    return base::splitmix64(completed ^ base::splitmix64(state + base::kGoldenGamma));
  }

  ConfigCache(std::size_t required_words, std::size_t crashed_words)
      : required_words_(required_words), crashed_words_(crashed_words) {}

  // Crashed ops given as counts instead of a bitset: `words` words of 16-bit lanes,
  // and one configuration subsumes another when none of its counts is larger. For a
  // search that uses crashed ops in a fixed order within classes (WGL's twins), where
  // how many of a class are used names the set: 2 bytes a class instead of a bit an
  // op. Only before the first insert.
  void use_counts(std::size_t words) {
    crashed_words_ = words;
    counts_ = true;
  }

  // The table never grows past this many bytes: when the next growth would cross it,
  // the table is emptied instead (an eviction). Forgetting configurations keeps the
  // search complete, only slower, and keeps --memory-limit a hard limit.
  void set_byte_limit(std::size_t bytes) { byte_limit_ = bytes; }
  std::uint64_t evictions() const { return evictions_; }

  // Inserts the configuration whose completed ops are bits[0, required_words) and
  // crashed ops bits[required_words, required_words + crashed_words); returns false if
  // it, or one that subsumes it, is present.
  bool insert(std::uint64_t hash, StateId state, const std::uint64_t* bits) {
    return insert_keyed(hash, state, bits, required_words_, bits + required_words_);
  }

  // The same with the completed ops given as a key of its own, `key_words` long,
  // instead of their whole bitset: a search that knows a shorter description of the
  // completed set (WGL's frontier key, wgl.cpp) stores that. Two keys are the same set
  // only if they are equal, and keys that begin with the same word have the same
  // length (the first word says how long the key is, as in WGL's); every insert into
  // one table uses the one kind of key.
  bool insert_keyed(std::uint64_t hash, StateId state, const std::uint64_t* key, std::size_t key_words,
                    const std::uint64_t* crashed) {
    hash |= 1;  // 0 marks an empty slot
    make_room(hash, key_words);
    Shard& shard = shard_of(hash);  // another one if make_room() split the table
    const std::size_t mask = shard.slots.size() - 1;
    for (std::size_t i = slot_of(hash, mask);; i = (i + 1) & mask) {
      Slot& s = shard.slots[i];
      if (s.hash == 0) {
        std::uint64_t* stored = required_.allocate(key_words);
        if (key_words) std::memcpy(stored, key, key_words * sizeof(std::uint64_t));
        s = Slot{hash, state, stored, crashed_words_ ? push_crashed(nullptr, crashed) : nullptr};
        ++shard.groups;
        return true;
      }
      if (s.hash == hash && s.state == state &&
          (key_words == 0 || (s.required[0] == key[0] &&
                              std::memcmp(s.required + 1, key + 1, (key_words - 1) * sizeof(std::uint64_t)) == 0))) {
        return crashed_words_ && insert_into_group(s, crashed);
      }
    }
  }

  // Whether the configuration is present, or one that subsumes it: what
  // insert_keyed() would return false for, without inserting it.
  bool contains_keyed(std::uint64_t hash, StateId state, const std::uint64_t* key, std::size_t key_words,
                      const std::uint64_t* crashed) const {
    hash |= 1;
    const Shard& shard = shards_.size() == 1 ? shards_[0] : shards_[hash >> kShardShift];
    if (shard.slots.empty()) return false;
    const std::size_t mask = shard.slots.size() - 1;
    for (std::size_t i = slot_of(hash, mask);; i = (i + 1) & mask) {
      const Slot& s = shard.slots[i];
      if (s.hash == 0) return false;
      if (s.hash == hash && s.state == state &&
          (key_words == 0 || (s.required[0] == key[0] &&
                              std::memcmp(s.required + 1, key + 1, (key_words - 1) * sizeof(std::uint64_t)) == 0))) {
        if (crashed_words_ == 0) return true;
        for (const std::uint64_t* e = s.head; e != nullptr; e = next_of(e)) {
          if (subset(e + 1, crashed, crashed_words_)) return true;
        }
        return false;
      }
    }
  }

  void clear() {
    std::vector<Shard>(1).swap(shards_);
    slot_bytes_ = 0;
    required_.clear();
    crashed_.clear();
  }

  std::size_t bytes() const { return slot_bytes_ + required_.bytes() + crashed_.bytes(); }

 private:
  static constexpr unsigned kShardBits = 8;
  static constexpr std::size_t kShards = std::size_t{1} << kShardBits;
  static constexpr unsigned kShardShift = 64 - kShardBits;  // the top bits pick the shard, the low ones the slot
  static constexpr std::size_t kFirstShardSlots = 16;
  // The one shard of a small table splits into kShards rather than grow past this.
  static constexpr std::size_t kSplitSlots = 1024;

  // Bit 0 of a stored hash is always set, so the slot is picked by the bits above it.
  static std::size_t slot_of(std::uint64_t hash, std::size_t mask) { return (hash >> 1) & mask; }

  struct Slot {
    std::uint64_t hash;
    StateId state;
    const std::uint64_t* required;  // the completed-op words (or key), in required_
    std::uint64_t* head;            // the first crashed-set entry, in crashed_; nullptr ends the list
  };

  struct Shard {
    std::vector<Slot> slots;  // empty until the first insert into this shard
    std::size_t groups = 0;
  };

  // A crashed-set entry in crashed_ is [next, word...], next being the address of the
  // following entry of the group (0 at the end).
  static std::uint64_t* next_of(const std::uint64_t* entry) {
    return reinterpret_cast<std::uint64_t*>(static_cast<std::uintptr_t>(entry[0]));
  }
  static void set_next(std::uint64_t* entry, std::uint64_t* next) {
    entry[0] = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(next));
  }

  std::uint64_t* push_crashed(std::uint64_t* next, const std::uint64_t* words) {
    std::uint64_t* entry = crashed_.allocate(crashed_words_ + 1);
    set_next(entry, next);
    std::memcpy(entry + 1, words, crashed_words_ * sizeof(std::uint64_t));
    return entry;
  }

  // Whether crashed part a uses no crashed op that b does not: a subset of bits, or
  // no count larger.
  bool subset(const std::uint64_t* a, const std::uint64_t* b, std::size_t n) const {
    if (counts_) {
      for (std::size_t w = 0; w < n; ++w) {
        for (unsigned shift = 0; shift < 64; shift += 16) {
          if (((a[w] >> shift) & 0xffff) > ((b[w] >> shift) & 0xffff)) return false;
        }
      }
      return true;
    }
    for (std::size_t w = 0; w < n; ++w) {
      if (a[w] & ~b[w]) return false;
    }
    return true;
  }

  bool insert_into_group(Slot& s, const std::uint64_t* words) {
    // Subsumed by a stored set: nothing new here.
    for (const std::uint64_t* e = s.head; e != nullptr; e = next_of(e)) {
      if (subset(e + 1, words, crashed_words_)) return false;
    }
    // Stored supersets of the new set are now redundant: unlink them (their words stay
    // in the arena until the next clear; the list stays short, which is what matters).
    std::uint64_t* previous = nullptr;
    for (std::uint64_t* e = s.head; e != nullptr; e = next_of(e)) {
      if (!subset(words, e + 1, crashed_words_)) {
        previous = e;
      } else if (previous) {
        set_next(previous, next_of(e));
      } else {
        s.head = next_of(e);
      }
    }
    s.head = push_crashed(s.head, words);
    return true;
  }

  Shard& shard_of(std::uint64_t hash) { return shards_.size() == 1 ? shards_[0] : shards_[hash >> kShardShift]; }

  // Makes sure the next insert of `hash` finds a free slot in its shard and arena room
  // within the byte limit, emptying the whole table (an eviction) when it would not.
  // The one shard of a small table that must grow past kSplitSlots is split instead.
  void make_room(std::uint64_t hash, std::size_t key_words) {
    Shard& shard = shard_of(hash);
    const std::size_t slots = shard.slots.size();
    const bool slots_grow = (shard.groups + 1) * 2 > slots;
    const bool split = slots_grow && shards_.size() == 1 && 2 * slots > kSplitSlots;
    const std::size_t slot_growth = !slots_grow ? 0
                                    : split     ? kShards * kFirstShardSlots * sizeof(Slot)
                                                : std::max(2 * slots, kFirstShardSlots) * sizeof(Slot);
    const std::size_t growth = slot_growth + required_.growth_bytes(key_words) +
                               (crashed_words_ ? crashed_.growth_bytes(crashed_words_ + 1) : 0);
    if (growth == 0) return;
    if (bytes() + growth > byte_limit_) {
      clear();
      ++evictions_;
    } else if (split) {
      split_shards();  // the hash's shard is another one now, made below if new
    }
    Shard& target = shard_of(hash);
    if ((target.groups + 1) * 2 > target.slots.size()) grow(target);
  }

  // The one shard's groups spread over kShards shards by the hash's top bits (at most
  // kSplitSlots / 2 groups, a few each); a shard is made at its first group, as ever.
  void split_shards() {
    std::vector<Shard> one;
    one.swap(shards_);
    shards_.resize(kShards);
    slot_bytes_ = 0;
    for (const Slot& s : one[0].slots) {
      if (s.hash == 0) continue;
      Shard& shard = shards_[s.hash >> kShardShift];
      if ((shard.groups + 1) * 2 > shard.slots.size()) grow(shard);
      const std::size_t mask = shard.slots.size() - 1;
      std::size_t i = slot_of(s.hash, mask);
      while (shard.slots[i].hash != 0) i = (i + 1) & mask;
      shard.slots[i] = s;
      ++shard.groups;
    }
  }

  void grow(Shard& shard) {
    std::vector<Slot> old;
    old.swap(shard.slots);
    shard.slots.assign(std::max(2 * old.size(), kFirstShardSlots), Slot{0, 0, nullptr, nullptr});
    slot_bytes_ += (shard.slots.capacity() - old.capacity()) * sizeof(Slot);
    const std::size_t mask = shard.slots.size() - 1;
    for (const Slot& s : old) {
      if (s.hash == 0) continue;
      std::size_t i = slot_of(s.hash, mask);
      while (shard.slots[i].hash != 0) i = (i + 1) & mask;
      shard.slots[i] = s;
    }
  }

  std::size_t required_words_;
  std::size_t crashed_words_;
  bool counts_ = false;  // see use_counts()
  std::size_t byte_limit_ = SIZE_MAX;
  std::uint64_t evictions_ = 0;
  std::vector<Shard> shards_ = std::vector<Shard>(1);  // one, or kShards once split
  std::size_t slot_bytes_ = 0;                         // every shard's slots
  models::ChunkArena<std::uint64_t> required_;
  models::ChunkArena<std::uint64_t> crashed_;
};

}  // namespace ariadne::search
