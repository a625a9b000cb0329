// Direct-mapped caches of recently read keywords and short strings, for the fast
// paths (flat_op_map.cpp, flat_json_object.cpp) and the general EDN reader: a history repeats a few keywords
// (:invoke, :ok) and many short strings ("k17", a value written and then read back)
// millions of times, and one shared Value each saves an allocation every time. A
// cache, not an interning table: a history may hold millions of distinct strings,
// and a table that grew with them would cost more than it saves.
#pragma once

#include <ariadne/value.hpp>

#include "base/hash.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne {

class RecentValues {
 public:
  // Strings longer than this are not cached: long values rarely repeat.
  static constexpr std::size_t kSharedStringMax = 48;
  static constexpr std::size_t kSharedNameMax = 24;

  // A keyword named `name`; `valid(name)` is asked on a miss (a hit was valid when
  // it was stored). False when it is not valid.
  template <class Valid>
  bool keyword(std::string_view name, Value& out, Valid valid) {
    if (name.size() > kSharedNameMax) {
      if (!valid(name)) return false;
      out = Value::keyword(std::string(name));
      return true;
    }
    // The tables are made at their first use: a reader that meets no keyword (or no
    // string) pays nothing for them, and many readers of small files meet none.
    if (keywords_.empty()) keywords_.resize(kKeywords);
    Slot<kSharedNameMax>& slot = keywords_[(name.size() * 131 + static_cast<unsigned char>(name.front()) * 31 +
                                            static_cast<unsigned char>(name.back())) %
                                           kKeywords];
    if (!slot.holds(name, 0)) {
      if (!valid(name)) return false;
      slot.store(name, 0, Value::keyword(std::string(name)));
    }
    out = slot.value;
    return true;
  }

  Value string(std::string_view content) {
    if (content.size() > kSharedStringMax) return Value::string(std::string(content));
    const std::uint64_t h = hash(content);
    if (strings_.empty()) strings_.resize(kStringsMin);
    Slot<kSharedStringMax>* slot = &strings_[h & (strings_.size() - 1)];
    if (!slot->holds(content, h)) {
      // A reader of a small file never fills a large table, and making one costs
      // more than reading the file; a table that keeps missing grows (emptied: it
      // is only a cache).
      if (++misses_ > 4 * strings_.size() && strings_.size() < kStringsMax) {
        strings_ = std::vector<Slot<kSharedStringMax>>(strings_.size() * 4);
        misses_ = 0;
        slot = &strings_[h & (strings_.size() - 1)];
      }
      slot->store(content, h, Value::string(std::string(content)));
    }
    return slot->value;
  }

 private:
  // A cached Value beside a copy of its text, so that a look-up compares bytes that
  // sit in the cache's own memory instead of following the Value to its payload, a
  // cache miss each time in a table this size.
  template <std::size_t Max>
  struct Slot {
    std::uint64_t hash = 0;
    std::uint8_t size = 0;
    char text[Max] = {};
    Value value;  // nil while the slot is empty

    bool holds(std::string_view s, std::uint64_t h) const {
      return hash == h && size == s.size() && !value.is_nil() && std::memcmp(text, s.data(), s.size()) == 0;
    }
    void store(std::string_view s, std::uint64_t h, Value v) {
      hash = h;
      size = static_cast<std::uint8_t>(s.size());
      std::memcpy(text, s.data(), s.size());
      value = std::move(v);
    }
  };

  // A cheap hash for short strings: 8 bytes at a time, each mixed in by the
  // project's one mixer.
  static std::uint64_t hash(std::string_view s) {
    std::uint64_t h = base::kGoldenGamma ^ s.size();
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      std::uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      h = base::splitmix64(h ^ word);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, s.data() + i, s.size() - i);
    return base::splitmix64(h ^ tail);
  }

  static constexpr std::size_t kKeywords = 256;
  static constexpr std::size_t kStringsMin = 256;  // powers of 4 times this
  static constexpr std::size_t kStringsMax = 4096;
  std::vector<Slot<kSharedNameMax>> keywords_;   // kKeywords slots, from the first keyword
  std::vector<Slot<kSharedStringMax>> strings_;  // kStringsMin slots or more, from the first string
  std::size_t misses_ = 0;
};

}  // namespace ariadne
