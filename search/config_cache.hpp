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
// completed-op sets in one arena of bit words; each group keeps a linked list of the
// crashed-op sets seen with it, pruned to an antichain (a new set evicts the stored
// supersets it subsumes). Nothing is allocated per entry. The caller computes the hash
// of the completed ops incrementally.
#pragma once

#include <ariadne/model.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ariadne::search {

class ConfigCache {
 public:
  ConfigCache(std::size_t required_words, std::size_t crashed_words)
      : required_words_(required_words), crashed_words_(crashed_words) {
    reset_slots(1024);
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
    make_room();
    hash |= 1;  // 0 marks an empty slot
    const std::uint64_t* crashed = bits + required_words_;
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.hash == 0) {
        s.hash = hash;
        s.state = state;
        s.required_at = required_.size();
        required_.insert(required_.end(), bits, bits + required_words_);
        s.head = kEnd;
        if (crashed_words_) s.head = push_crashed(kEnd, crashed);
        ++groups_;
        return true;
      }
      if (s.hash == hash && s.state == state &&
          std::memcmp(&required_[s.required_at], bits, required_words_ * sizeof(std::uint64_t)) == 0) {
        return crashed_words_ && insert_into_group(s, crashed);
      }
    }
  }

  void clear() {
    std::vector<Slot>().swap(slots_);
    std::vector<std::uint64_t>().swap(required_);
    std::vector<std::uint64_t>().swap(crashed_);
    groups_ = 0;
    reset_slots(1024);
  }

  std::size_t bytes() const {
    return slots_.capacity() * sizeof(Slot) +
           (required_.capacity() + crashed_.capacity()) * sizeof(std::uint64_t);
  }

 private:
  static constexpr std::uint64_t kEnd = ~std::uint64_t{0};

  struct Slot {
    std::uint64_t hash;
    StateId state;
    std::uint64_t required_at;  // index of the completed-op words in required_
    std::uint64_t head;         // first crashed-set entry in crashed_, or kEnd
  };

  // A crashed-set entry in crashed_ is [next, word...].
  std::uint64_t push_crashed(std::uint64_t next, const std::uint64_t* words) {
    std::uint64_t at = crashed_.size();
    crashed_.push_back(next);
    crashed_.insert(crashed_.end(), words, words + crashed_words_);
    return at;
  }

  static bool subset(const std::uint64_t* a, const std::uint64_t* b, std::size_t n) {
    for (std::size_t w = 0; w < n; ++w) {
      if (a[w] & ~b[w]) return false;
    }
    return true;
  }

  bool insert_into_group(Slot& s, const std::uint64_t* words) {
    // Subsumed by a stored set: nothing new here.
    for (std::uint64_t e = s.head; e != kEnd; e = crashed_[e]) {
      if (subset(&crashed_[e + 1], words, crashed_words_)) return false;
    }
    // Stored supersets of the new set are now redundant: unlink them (their words stay
    // in the arena until the next clear; the list stays short, which is what matters).
    std::uint64_t* link = &s.head;
    while (*link != kEnd) {
      std::uint64_t e = *link;
      if (subset(words, &crashed_[e + 1], crashed_words_)) {
        *link = crashed_[e];
      } else {
        link = &crashed_[e];
      }
    }
    s.head = push_crashed(s.head, words);
    return true;
  }

  void make_room() {
    const bool slots_grow = (groups_ + 1) * 2 > slots_.size();
    const bool arenas_grow = required_.size() + required_words_ > required_.capacity() ||
                             crashed_.size() + crashed_words_ + 1 > crashed_.capacity();
    if (!slots_grow && !arenas_grow) return;
    std::size_t growth = (slots_grow ? 2 * slots_.size() * sizeof(Slot) : 0) +
                         (arenas_grow ? std::max<std::size_t>(required_.capacity() + crashed_.capacity(), 64) *
                                            sizeof(std::uint64_t)
                                      : 0);
    if (bytes() + growth > byte_limit_) {
      clear();
      ++evictions_;
    } else if (slots_grow) {
      grow();
    }
  }

  void reset_slots(std::size_t n) { slots_.assign(n, Slot{0, 0, 0, kEnd}); }

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

  std::size_t required_words_;
  std::size_t crashed_words_;
  std::size_t groups_ = 0;
  std::size_t byte_limit_ = SIZE_MAX;
  std::uint64_t evictions_ = 0;
  std::vector<Slot> slots_;
  std::vector<std::uint64_t> required_;
  std::vector<std::uint64_t> crashed_;
};

}  // namespace ariadne::search
