// WGL's memo table against a plain reference: a configuration is new unless one with
// the same completed ops and state, and a subset of its crashed ops, went in before.
// And the property the limits rely on: no single insert grows the table by more than
// a chunk, however large it has become.
#include "search/config_cache.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <vector>

using ariadne::search::ConfigCache;

namespace {

struct Reference {
  // (hash, state, completed words) -> every crashed set accepted with it.
  std::map<std::tuple<std::uint64_t, std::uint64_t, std::vector<std::uint64_t>>,
           std::vector<std::vector<std::uint64_t>>>
      groups;

  bool insert(std::uint64_t hash, std::uint64_t state, const std::vector<std::uint64_t>& required,
              const std::vector<std::uint64_t>& crashed) {
    auto [group, is_new] = groups.try_emplace({hash | 1, state, required});
    auto& sets = group->second;
    if (crashed.empty()) return is_new;  // no crashed ops: exact matches only
    for (const auto& seen : sets) {
      bool subset = true;
      for (std::size_t w = 0; w < crashed.size(); ++w) subset = subset && (seen[w] & ~crashed[w]) == 0;
      if (subset) return false;
    }
    sets.push_back(crashed);
    return true;
  }
};

}  // namespace

TEST_CASE("config cache: new exactly when no stored configuration subsumes it") {
  for (const std::size_t crashed_words : {0, 1, 2}) {
    CAPTURE(crashed_words);
    constexpr std::size_t kRequiredWords = 2;
    ConfigCache cache(kRequiredWords, crashed_words);
    Reference reference;
    std::mt19937_64 rng(crashed_words + 7);
    for (int i = 0; i < 20000; ++i) {
      // Few distinct keys and sparse crashed sets, so that groups and subsumption are
      // common; the hash is a function of the key, as WGL's is.
      const std::uint64_t state = rng() % 8;
      std::vector<std::uint64_t> words(kRequiredWords + crashed_words);
      words[0] = rng() % 16;
      words[1] = rng() % 2;
      for (std::size_t w = 0; w < crashed_words; ++w) words[kRequiredWords + w] = rng() & rng() & rng() & 0xff;
      const std::uint64_t hash =
          (words[0] * 0x9e3779b97f4a7c15ULL) ^ (words[1] << 40) ^ (state * 0xbf58476d1ce4e5b9ULL);
      const std::vector<std::uint64_t> required(words.begin(), words.begin() + kRequiredWords);
      const std::vector<std::uint64_t> crashed(words.begin() + kRequiredWords, words.end());
      // The look without an insert (WGL's on entering a configuration) says what the
      // insert then finds.
      const bool present =
          cache.contains_keyed(hash, state, words.data(), kRequiredWords, words.data() + kRequiredWords);
      const bool added = cache.insert(hash, state, words.data());
      REQUIRE(added == reference.insert(hash, state, required, crashed));
      REQUIRE(present == !added);
    }
    CHECK(cache.evictions() == 0);
  }
}

TEST_CASE("config cache: no insert grows it by more than a chunk, and the byte limit evicts instead") {
  constexpr std::size_t kRequiredWords = 4;
  ConfigCache cache(kRequiredWords, 1);
  std::mt19937_64 rng(3);
  std::vector<std::uint64_t> words(kRequiredWords + 1);
  std::size_t largest_step = 0;
  for (int i = 0; i < 400000; ++i) {
    for (auto& w : words) w = rng();
    const std::size_t before = cache.bytes();
    REQUIRE(cache.insert(rng(), 0, words.data()));
    largest_step = std::max(largest_step, cache.bytes() - before);
  }
  MESSAGE("400,000 configurations: ", cache.bytes() >> 20, " MiB, largest single growth ", largest_step >> 10, " KiB");
  CHECK(cache.bytes() > (std::size_t{40} << 20));
  // A doubling vector would have grown by half the table in one step.
  CHECK(largest_step <= (std::size_t{2} << 20));

  // Under a limit, the growth that would cross it empties the table instead.
  ConfigCache limited(kRequiredWords, 1);
  limited.set_byte_limit(std::size_t{8} << 20);
  for (int i = 0; i < 200000; ++i) {
    for (auto& w : words) w = rng();
    limited.insert(rng(), 0, words.data());
    REQUIRE(limited.bytes() <= (std::size_t{8} << 20));
  }
  CHECK(limited.evictions() > 0);
  // Emptied, it takes back what it had forgotten.
  limited.clear();
  CHECK(limited.bytes() == 0);
  CHECK(limited.insert(1, 0, words.data()));
  CHECK_FALSE(limited.insert(1, 0, words.data()));
}

TEST_CASE("config cache: keys of their own length, told apart by their first word") {
  // WGL's frontier keys: the first word is the frontier, and the frontier fixes how
  // many window words follow. Keys of different frontiers but equal hashes, states
  // and window words are different sets; equal keys are the same.
  for (const std::size_t crashed_words : {0, 1}) {
    CAPTURE(crashed_words);
    ConfigCache cache(/*required_words=*/8, crashed_words);
    Reference reference;
    std::mt19937_64 rng(crashed_words + 11);
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t frontier = rng() % 6;
      const std::size_t window_words = frontier % 3;  // a function of the frontier
      std::vector<std::uint64_t> key{frontier};
      for (std::size_t w = 0; w < window_words; ++w) key.push_back(rng() % 3);
      std::vector<std::uint64_t> crashed(crashed_words);
      for (auto& w : crashed) w = rng() & rng() & 0xf;
      const std::uint64_t state = rng() % 4;
      // A hash that ignores the frontier: only the keys' comparison tells them apart.
      std::uint64_t hash = state * 0x9e3779b97f4a7c15ULL;
      for (std::size_t w = 1; w < key.size(); ++w) hash ^= key[w] << (8 * w);
      REQUIRE(cache.insert_keyed(hash, state, key.data(), key.size(), crashed.data()) ==
              reference.insert(hash, state, key, crashed));
    }
  }
}

TEST_CASE("config cache: what went in before the one table split into shards is still found after") {
  // The table starts as one shard and splits when that would grow past a thousand
  // slots: every configuration stored before, across and after the split stays found.
  constexpr std::size_t kRequiredWords = 2;
  for (const std::size_t crashed_words : {0, 1}) {
    CAPTURE(crashed_words);
    ConfigCache cache(kRequiredWords, crashed_words);
    std::mt19937_64 rng(11);
    std::vector<std::vector<std::uint64_t>> stored;
    std::vector<std::uint64_t> hashes;
    for (int i = 0; i < 5000; ++i) {
      std::vector<std::uint64_t> words(kRequiredWords + crashed_words);
      for (auto& w : words) w = rng();
      const std::uint64_t hash = ConfigCache::hash(words[0], 3);
      REQUIRE(cache.insert(hash, 3, words.data()));
      stored.push_back(words);
      hashes.push_back(hash);
      const std::size_t earlier = rng() % stored.size();
      REQUIRE_FALSE(cache.insert(hashes[earlier], 3, stored[earlier].data()));
    }
    for (std::size_t k = 0; k < stored.size(); ++k) REQUIRE_FALSE(cache.insert(hashes[k], 3, stored[k].data()));
    CHECK(cache.evictions() == 0);
  }
}

TEST_CASE("config cache: a byte limit reached at the split evicts, and the table goes on") {
  constexpr std::size_t kRequiredWords = 1;
  ConfigCache cache(kRequiredWords, 0);
  // Room for the one shard's largest table and its arena, not for the shards after it.
  cache.set_byte_limit(std::size_t{56} << 10);
  std::mt19937_64 rng(5);
  std::vector<std::uint64_t> word(1);
  for (int i = 0; i < 3000; ++i) {
    word[0] = rng();
    const std::uint64_t hash = ConfigCache::hash(word[0], 0);
    REQUIRE(cache.insert(hash, 0, word.data()));
    // Found again, unless making room for it (as for any insert) emptied the table.
    const std::uint64_t evictions = cache.evictions();
    const bool again = cache.insert(hash, 0, word.data());
    REQUIRE(again == (cache.evictions() != evictions));
    REQUIRE(cache.bytes() <= (std::size_t{56} << 10));
  }
  CHECK(cache.evictions() > 0);
}
