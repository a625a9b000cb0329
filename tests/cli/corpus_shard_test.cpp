// `ariadne corpus --shard I/N` end to end: the N shards of corpus/classic hold every
// row exactly once, in balanced shares, each report saying which shard it is and
// where its rows sit in the whole corpus; bad I/N is a usage error; a shard left
// without rows (N above the row count) is not an error.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

#include <algorithm>

namespace ariadne::cli_test {

namespace {

const std::string kClassic = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic";

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("corpus --shard: the shards of a corpus hold every row exactly once, in balanced shares") {
    const auto whole = run_cli({"corpus", kClassic, "--json", "--jobs", "1"});
    REQUIRE_MESSAGE(whole.status == 0, whole.err);
    const Json all = parse_json(whole.out);
    const std::size_t corpus_rows = all["rows"].array.size();
    REQUIRE(corpus_rows >= 6);

    for (const std::size_t count : {1u, 3u, 4u}) {
      CAPTURE(count);
      std::vector<int> times_seen(corpus_rows, 0);
      std::vector<std::size_t> shard_sizes;
      std::string digest;
      for (std::size_t index = 0; index < count; ++index) {
        CAPTURE(index);
        const std::string spec = std::to_string(index) + "/" + std::to_string(count);
        const auto run = run_cli({"corpus", kClassic, "--shard", spec, "--json", "--jobs", "1"});
        REQUIRE_MESSAGE(run.status == 0, run.err);
        const Json report = parse_json(run.out);
        const Json& shard = report["shard"];
        CHECK(shard["index"].number == index);
        CHECK(shard["count"].number == count);
        CHECK(shard["corpus_rows"].number == corpus_rows);
        CHECK(shard["selection"].string == "round-robin");
        CHECK(shard["options"]["engine"].string == "auto");
        CHECK(shard["rows"].number == report["rows"].array.size());
        CHECK(report["totals"]["rows"].number == report["rows"].array.size());
        if (digest.empty()) digest = shard["corpus_digest"].string;
        CHECK(shard["corpus_digest"].string == digest);
        shard_sizes.push_back(report["rows"].array.size());
        for (const Json& row : report["rows"].array) {
          const auto position = static_cast<std::size_t>(row["position"].number);
          REQUIRE(position < corpus_rows);
          CHECK(position % count == index);
          CHECK(row["file"].string == all["rows"].array[position]["file"].string);
          ++times_seen[position];
        }
      }
      CHECK(std::all_of(times_seen.begin(), times_seen.end(), [](int seen) { return seen == 1; }));
      const auto [smallest, largest] = std::minmax_element(shard_sizes.begin(), shard_sizes.end());
      CHECK(*largest - *smallest <= 1);
    }
  }

  TEST_CASE("corpus --shard: the text report names the shard and its share of the corpus") {
    const auto run = run_cli({"corpus", kClassic, "--shard", "2/3", "--jobs", "1"});
    CHECK_MESSAGE(run.status == 0, run.err);
    CHECK_MESSAGE(run.out.find("shard 2/3: ") != std::string::npos, run.out);
    CHECK(run.out.find("positions 2, 5, 8, ...") != std::string::npos);
  }

  TEST_CASE("corpus --shard: a bad I/N is a usage error that says what I/N must be") {
    for (const char* spec : {"3/3", "0/0", "-1/3", "+1/3", "a/3", "1", "1/", "/3", "1/2/3", " 1/3", "1.0/3",
                             "99999999999999999999999/3"}) {
      CAPTURE(spec);
      const auto run = run_cli({"corpus", kClassic, "--shard", spec});
      CHECK(run.status == 64);
      CHECK_MESSAGE(run.err.find("--shard") != std::string::npos, run.err);
      CHECK(run.out.empty());
    }
    const auto out_of_range = run_cli({"corpus", kClassic, "--shard", "3/3"});
    CHECK_MESSAGE(out_of_range.err.find("numbered 0 to 2") != std::string::npos, out_of_range.err);
  }

  TEST_CASE("corpus --shard: a shard with no rows, when N exceeds the rows, reports none and passes") {
    const auto run = run_cli({"corpus", kClassic, "--shard", "20/30", "--json"});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const Json report = parse_json(run.out);
    CHECK(report["rows"].array.empty());
    CHECK(report["shard"]["rows"].number == 0);
    CHECK(report["shard"]["corpus_rows"].number > 0);
    CHECK(report["totals"]["rows"].number == 0);
  }

}  // TEST_SUITE

}  // namespace ariadne::cli_test
