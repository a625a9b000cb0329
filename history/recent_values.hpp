// Direct-mapped caches of recently read keywords and short strings, for the fast
// paths (flat_op_map.cpp, flat_json_object.cpp): a history repeats a few keywords
// (:invoke, :ok) and many short strings ("k17", a value written and then read back)
// millions of times, and one shared Value each saves an allocation every time. A
// cache, not an interning table: a history may hold millions of distinct strings,
// and a table that grew with them would cost more than it saves.
#pragma once

#include <ariadne/value.hpp>

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
  static constexpr std::size_t kSharedStringMax = 64;

  // A keyword named `name`; `name` must already be a valid name, or be checked with
  // `valid` on a miss (a hit was valid when it was stored).
  template <class Valid>
  bool keyword(std::string_view name, Value& out, Valid valid) {
    Value& slot = keywords_[(name.size() * 131 + static_cast<unsigned char>(name.front()) * 31 +
                             static_cast<unsigned char>(name.back())) %
                            kKeywords];
    if (!slot.is_keyword() || slot.text() != name) {
      if (!valid(name)) return false;
      slot = Value::keyword(std::string(name));
    }
    out = slot;
    return true;
  }

  Value string(std::string_view content) {
    if (content.size() > kSharedStringMax) return Value::string(std::string(content));
    Value& slot = strings_[hash(content) % kStrings];
    if (!slot.is_string() || slot.text() != content) slot = Value::string(std::string(content));
    return slot;
  }

 private:
  // A cheap hash for short strings: 8 bytes at a time.
  static std::uint64_t hash(std::string_view s) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      std::uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      h = (h ^ word) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 32;
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, s.data() + i, s.size() - i);
    h = (h ^ tail) * 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 29);
  }

  static constexpr std::size_t kKeywords = 256;
  static constexpr std::size_t kStrings = 4096;
  std::vector<Value> keywords_ = std::vector<Value>(kKeywords);
  std::vector<Value> strings_ = std::vector<Value>(kStrings);
};

}  // namespace ariadne
