// `ariadne corpus --merge` end to end: corpus/classic checked whole and as three
// shards merged gives the same rows (all but their times), totals and exit status,
// also when a row mismatches; and every merge that could differ from the whole run
// (a shard missing or repeated, another N, corpus or option, an interrupted shard, an
// edited or malformed report) is refused with exit 65 and a message naming the file.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

namespace ariadne::cli_test {

namespace {

const std::string kClassic = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic";

// An expected.tsv in `dir` over corpus/classic's lecture examples (paths in a TSV may
// be absolute), whose `expected` verdicts are given per row.
std::string write_classic_tsv(const TempDir& dir, const std::string& name, const std::vector<std::string>& expected) {
  std::string text;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    text += kClassic + "/lecture-example-" + std::to_string(i + 1) + ".edn\t" + expected[i] + "\tregister()\n";
  }
  return dir.write(name, text);
}

// Runs every shard of `corpus` with `extra` options and writes its --json report to
// DIR/<prefix><index>.json; returns the paths in shard order.
std::vector<std::string> write_shard_reports(const TempDir& dir, const std::string& corpus, std::size_t count,
                                             const std::string& prefix, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> paths;
  for (std::size_t index = 0; index < count; ++index) {
    std::vector<std::string> args{"corpus", corpus,   "--shard", std::to_string(index) + "/" + std::to_string(count),
                                  "--json", "--jobs", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto run = run_cli(args);
    REQUIRE_MESSAGE(run.status <= 1, run.err);
    paths.push_back(dir.write(prefix + std::to_string(index) + ".json", run.out));
  }
  return paths;
}

RunResult merge(const std::vector<std::string>& reports, bool json) {
  std::vector<std::string> args{"corpus", "--merge"};
  args.insert(args.end(), reports.begin(), reports.end());
  if (json) args.push_back("--json");
  return run_cli(args);
}

// A row with its measured time taken out: what must not depend on how the corpus was split.
std::string without_time(const Json& row) {
  std::string text;
  for (const auto& [key, value] : row.object) {
    if (key == "elapsed_ms") continue;
    text += key + "=" +
            (value.type == Json::Type::string    ? value.string
             : value.type == Json::Type::boolean ? (value.boolean ? "true" : "false")
             : value.type == Json::Type::null    ? "null"
                                                 : "?") +
            ";";
  }
  return text;
}

void check_refused(const RunResult& run, const std::string& file, const std::string& words) {
  CHECK(run.status == 65);
  CHECK(run.out.empty());
  CHECK_MESSAGE(run.err.find(file) != std::string::npos, run.err);
  CHECK_MESSAGE(run.err.find(words) != std::string::npos, run.err);
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("corpus --merge: three shards of corpus/classic merge into the unsharded run's report") {
    TempDir dir;
    const auto whole = run_cli({"corpus", kClassic, "--json", "--jobs", "1"});
    REQUIRE_MESSAGE(whole.status == 0, whole.err);
    const Json expected = parse_json(whole.out);
    std::vector<std::string> reports = write_shard_reports(dir, kClassic, 3, "shard-");
    std::reverse(reports.begin(), reports.end());  // the order given does not matter

    const auto merged_run = merge(reports, true);
    REQUIRE_MESSAGE(merged_run.status == whole.status, merged_run.err);
    const Json merged = parse_json(merged_run.out);
    CHECK(merged["corpus"].string == expected["corpus"].string);
    REQUIRE(merged["rows"].array.size() == expected["rows"].array.size());
    double row_times = 0;
    for (std::size_t i = 0; i < expected["rows"].array.size(); ++i) {
      CAPTURE(i);
      CHECK(without_time(merged["rows"].array[i]) == without_time(expected["rows"].array[i]));
      row_times += merged["rows"].array[i]["elapsed_ms"].number;
    }
    for (const char* total : {"rows", "matches", "mismatches", "errors"}) {
      CAPTURE(total);
      CHECK(merged["totals"][total].number == expected["totals"][total].number);
    }
    CHECK(merged["totals"]["checking_ms"].number == doctest::Approx(row_times).epsilon(0.001));
    CHECK(merged["merged"]["shards"].number == 3);
    CHECK(merged["merged"]["reports"].array[0].string == reports[2]);  // listed in shard order

    const auto text = merge(reports, false);
    CHECK(text.status == whole.status);
    for (const Json& row : expected["rows"].array) CHECK(text.out.find(row["file"].string) != std::string::npos);
    CHECK_MESSAGE(
        text.out.find("rows " + std::to_string(expected["rows"].array.size()) + "  matches") != std::string::npos,
        text.out);
    CHECK(text.out.find("merged 3 shard reports") != std::string::npos);
  }

  TEST_CASE("corpus --merge: a mismatch in one shard gives the merge the unsharded exit status") {
    TempDir dir;
    // lecture-example-3 is not linearizable: expecting otherwise is a deliberate mismatch.
    const auto tsv = write_classic_tsv(dir, "expected.tsv", {"linearizable", "linearizable", "linearizable"});
    const auto whole = run_cli({"corpus", tsv, "--json"});
    REQUIRE(whole.status == 1);
    const auto merged_run = merge(write_shard_reports(dir, tsv, 2, "shard-"), true);
    CHECK(merged_run.status == 1);
    const Json merged = parse_json(merged_run.out);
    REQUIRE(merged["rows"].array.size() == 3);
    CHECK(merged["rows"].array[2]["file"].string.ends_with("lecture-example-3.edn"));
    CHECK_FALSE(merged["rows"].array[2]["ok"].boolean);
    CHECK(merged["totals"]["mismatches"].number == parse_json(whole.out)["totals"]["mismatches"].number);
  }

  TEST_CASE("corpus --merge: a merge that could differ from the whole run is refused with exit 65") {
    TempDir dir;
    const auto reports = write_shard_reports(dir, kClassic, 3, "shard-");

    SUBCASE("a shard missing") {
      const auto run = merge({reports[0], reports[2]}, false);
      check_refused(run, reports[2], "no report for shard 1 (of shards 0 to 2)");
    }
    SUBCASE("a shard given twice") {
      check_refused(merge({reports[0], reports[1], reports[1], reports[2]}, false), reports[1], "shard 1/3 again");
    }
    SUBCASE("shards of different N") {
      const auto halves = write_shard_reports(dir, kClassic, 2, "half-");
      check_refused(merge({reports[0], halves[1], reports[2]}, false), halves[1], "a different count N");
    }
    SUBCASE("a shard of another corpus") {
      const auto tsv = write_classic_tsv(dir, "other.tsv", {"linearizable"});
      const auto other = write_shard_reports(dir, tsv, 3, "other-");
      check_refused(merge({reports[0], reports[1], other[2]}, false), other[2], "a different corpus");
    }
    SUBCASE("a shard checked with other options") {
      const auto slower = write_shard_reports(dir, kClassic, 3, "timeout-", {"--timeout", "30"});
      check_refused(merge({reports[0], slower[1], reports[2]}, false), slower[1], "other options");
    }
    SUBCASE("an interrupted shard") {
      std::string text = read_text(reports[1]);
      const auto at = text.find("\"rows\": [");
      REQUIRE(at != std::string::npos);
      text.insert(at, "\"interrupted\": {\"signal\": \"SIGTERM\", \"unchecked\": 2, \"rows\": 4}, ");
      const auto cut = dir.write("cut.json", text);
      check_refused(merge({reports[0], cut, reports[2]}, false), cut, "interrupted by SIGTERM");
    }
    SUBCASE("a report whose rows were moved") {
      std::string text = read_text(reports[1]);
      const auto at = text.find("\"position\": 4");
      REQUIRE(at != std::string::npos);
      text.replace(at, 13, "\"position\": 5");
      const auto edited = dir.write("edited.json", text);
      check_refused(merge({reports[0], edited, reports[2]}, false), edited, "rows[1]: \"position\" is 5");
    }
    SUBCASE("a report that is not a shard's") {
      const auto whole = dir.write("whole.json", run_cli({"corpus", kClassic, "--json"}).out);
      check_refused(merge({whole}, false), whole, "not a shard report");
    }
    SUBCASE("malformed JSON, named with line and column") {
      const std::string text = read_text(reports[1]);
      const auto truncated = dir.write("truncated.json", text.substr(0, text.size() / 2));
      check_refused(merge({reports[0], truncated, reports[2]}, false), truncated + ":1:", "");
    }
    SUBCASE("a report that does not exist") {
      check_refused(merge({reports[0], (dir.path() / "absent.json").string()}, false), "absent.json", "cannot open");
    }
  }

  TEST_CASE("corpus --merge: given with a CORPUS, --shard or a check option, it is a usage error") {
    TempDir dir;
    const auto report = dir.write("r.json", "{}");
    CHECK(run_cli({"corpus", kClassic, "--merge", report}).status == 64);
    CHECK(run_cli({"corpus", "--merge", report, "--shard", "0/2"}).status == 64);
    CHECK(run_cli({"corpus", "--merge", report, "--timeout", "5"}).status == 64);
    CHECK(run_cli({"corpus"}).status == 64);
  }

}  // TEST_SUITE

}  // namespace ariadne::cli_test
