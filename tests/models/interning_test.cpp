// The interning tables and the step cache that the composite models build on.
#include "models/content_table.hpp"
#include "models/step_cache.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using ariadne::models::ContentTable;
using ariadne::models::StepCache;

TEST_SUITE("models") {
  TEST_CASE("content table: equal contents get equal ids and different ones different ids") {
    ContentTable<std::uint32_t> table;
    const std::vector<std::uint32_t> a{1, 2, 3};
    const std::vector<std::uint32_t> b{1, 2};
    const std::vector<std::uint32_t> empty;
    const auto id_a = table.intern(a);
    const auto id_b = table.intern(b);
    const auto id_empty = table.intern(empty);
    CHECK(id_a != id_b);
    CHECK(id_b != id_empty);
    CHECK(table.intern(std::vector<std::uint32_t>{1, 2, 3}) == id_a);
    CHECK(table.intern(empty) == id_empty);
    CHECK(table.size() == 3);
    CHECK(std::ranges::equal(table.at(id_a), a));
    CHECK(table.at(id_empty).empty());
  }

  TEST_CASE("content table: interning a slice of its own contents works as the arena grows") {
    ContentTable<std::uint32_t> table;
    std::vector<std::uint32_t> long_state;
    for (std::uint32_t n = 0; n < 1000; ++n) long_state.push_back(n);
    std::uint32_t id = table.intern(long_state);
    // Each tail is new, so the arena grows while its source points into it.
    for (std::uint32_t n = 1; n < 1000; ++n) {
      id = table.intern(table.at(id).subspan(1));
      REQUIRE(table.at(id).size() == 1000 - n);
      REQUIRE(table.at(id).front() == n);
    }
    CHECK(table.size() == 1000);
    CHECK(table.memory_bytes() >= 1000 * 1001 / 2 * sizeof(std::uint32_t));
  }

  TEST_CASE("content table: contents stay where they are, whatever is interned after them") {
    ContentTable<std::uint32_t> table;
    std::vector<std::uint32_t> first{7, 8, 9};
    const auto id_first = table.intern(first);
    const std::uint32_t* where = table.at(id_first).data();
    // Enough to need many chunks, plus one content larger than any chunk.
    const std::size_t huge = ContentTable<std::uint32_t>::kMaxChunkBytes / sizeof(std::uint32_t) + 5;
    std::vector<std::uint32_t> big(huge, 1);
    const auto id_big = table.intern(big);
    for (std::uint32_t n = 0; n < 200000; ++n) table.intern(std::vector<std::uint32_t>{n, n + 1, n + 2, n + 3});
    CHECK(table.at(id_first).data() == where);
    CHECK(std::ranges::equal(table.at(id_first), first));
    CHECK(std::ranges::equal(table.at(id_big), big));
    CHECK(table.intern(big) == id_big);
    CHECK(table.size() == 200002);
    // Chunks, not one doubled vector: the arena reserves at most a chunk beyond what is
    // used, plus the per-id entries and slots (at most 48 and 32 bytes an id).
    const std::size_t used = (3 + huge + 4 * 200000) * sizeof(std::uint32_t);
    CHECK(table.memory_bytes() <= used + ContentTable<std::uint32_t>::kMaxChunkBytes + 80 * table.size());
  }

  TEST_CASE("content table: many strings keep distinct ids through table growth") {
    ContentTable<char> table;
    std::vector<std::uint32_t> ids;
    for (int n = 0; n < 5000; ++n) {
      const std::string s = "x " + std::to_string(n) + " y";
      ids.push_back(table.intern(std::span<const char>(s.data(), s.size())));
    }
    for (int n = 0; n < 5000; ++n) {
      const std::string s = "x " + std::to_string(n) + " y";
      REQUIRE(table.intern(std::span<const char>(s.data(), s.size())) == ids[static_cast<std::size_t>(n)]);
    }
  }

  TEST_CASE("step cache: remembers successors and illegal steps and forgets only by collision") {
    StepCache cache;
    CHECK_FALSE(cache.find(3, 4).has_value());
    cache.store(3, 4, 9);
    cache.store(3, 5, StepCache::kNoSuccessor);
    CHECK(cache.find(3, 4) == std::optional<ariadne::StateId>(9));
    CHECK(cache.find(3, 5) == std::optional<ariadne::StateId>(StepCache::kNoSuccessor));
    CHECK_FALSE(cache.find(4, 3).has_value());
    // Whatever survives a flood must still be right.
    for (std::uint32_t n = 0; n < 100000; ++n) cache.store(n, n % 7, n + 1);
    for (std::uint32_t n = 0; n < 100000; ++n) {
      if (auto hit = cache.find(n, n % 7)) REQUIRE(*hit == n + 1);
    }
    CHECK(cache.memory_bytes() > 0);
  }

}  // TEST_SUITE
