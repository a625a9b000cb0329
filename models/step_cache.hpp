// A bounded memo of recent model steps: (state, op) -> the single successor or none.
//
// Searches revisit the same step many times: WGL [Lowe17] reaches one configuration
// along many orders, and the JIT search of Knossos re-steps every surviving world. For
// models whose step builds and interns a new composite state (a queue, a string), a
// hit replaces that work with one probe. Porcupine's v1.3 caches model steps for the
// same reason. The cache is direct-mapped and lossy, so a collision only costs a
// recomputation, and it stops growing at a fixed size so it cannot eat the memory
// budget. Steps with several successors (a crashed unordered dequeue) are not cached.
#pragma once

#include "base/hash.hpp"

#include <ariadne/model.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace ariadne::models {

class StepCache {
 public:
  static constexpr StateId kNoSuccessor = ~StateId{0};

  StepCache() : entries_(kInitialEntries) {}

  // The cached successor (kNoSuccessor when the step is illegal), if cached.
  // States and op indices must be below 2^32, which interned ids are.
  std::optional<StateId> find(StateId state, std::uint32_t op) const {
    const std::uint64_t key = key_of(state, op);
    const Entry& e = entries_[slot_of(key)];
    if (e.key == key) return e.successor;
    return std::nullopt;
  }

  void store(StateId state, std::uint32_t op, StateId successor) {
    const std::uint64_t key = key_of(state, op);
    entries_[slot_of(key)] = Entry{key, successor};
    // Grow once stores outnumber slots twice over: the working set is then larger
    // than the cache and collisions start to evict useful entries.
    if (++stores_ > 2 * entries_.size() && entries_.size() < kMaxEntries) grow();
  }

  // Appends the successor of (state, op) to `next`, if it has one, calling
  // `compute()` (which returns a state or kNoSuccessor) only on a miss.
  template <typename Compute>
  void append_successor(StateId state, std::uint32_t op, std::vector<StateId>& next, Compute&& compute) {
    StateId successor;
    if (auto cached = find(state, op)) {
      successor = *cached;
    } else {
      successor = compute();
      store(state, op, successor);
    }
    if (successor != kNoSuccessor) next.push_back(successor);
  }

  std::size_t memory_bytes() const { return entries_.capacity() * sizeof(Entry); }

 private:
  struct Entry {
    std::uint64_t key = kEmptyKey;
    StateId successor = 0;
  };
  static constexpr std::uint64_t kEmptyKey = ~std::uint64_t{0};
  static constexpr std::size_t kInitialEntries = std::size_t{1} << 10;
  static constexpr std::size_t kMaxEntries = std::size_t{1} << 20;  // 16 MiB

  static std::uint64_t key_of(StateId state, std::uint32_t op) { return (state << 32) | op; }

  std::size_t slot_of(std::uint64_t key) const {
    // State and op both land in the low bits we index by.
    return base::splitmix64(key) & (entries_.size() - 1);
  }

  void grow() {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(old.size() * 2, Entry{});
    for (const Entry& e : old) {
      if (e.key != kEmptyKey) entries_[slot_of(e.key)] = e;
    }
    stores_ = 0;
  }

  std::vector<Entry> entries_;
  std::size_t stores_ = 0;
};

}  // namespace ariadne::models
