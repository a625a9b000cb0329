// The research checkers' published collection histories (../shared/corpus/collections:
// Violin's, LiMo's and fastlin's, kept as their authors wrote them) read as they are:
// every row of expected.tsv reads, its header names the row's model, and every row,
// those resting on an empty observation included, gets the verdict its source states.
// A plain clone without ../shared skips them, saying so.
#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ariadne;

namespace {

const std::string kCollections = std::string(ARIADNE_SOURCE_DIR) + "/../shared/corpus/collections";

struct Row {
  std::string path;
  std::string verdict;
  std::string model;
};

std::vector<Row> expected_rows() {
  std::vector<Row> rows;
  std::ifstream in(kCollections + "/expected.tsv");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Row row;
    if (std::getline(fields, row.path, '\t') && std::getline(fields, row.verdict, '\t') &&
        std::getline(fields, row.model, '\t')) {
      rows.push_back(row);
    }
  }
  return rows;
}

bool collections_present() {
  if (std::filesystem::exists(kCollections + "/expected.tsv")) return true;
  MESSAGE("skipped: the collections corpus is not at " << kCollections);
  return false;
}

// Whether a remove found the container empty (an :ok whose value is :empty).
bool has_empty_observation(const EventLog& log) {
  for (const Event& event : log.events) {
    if (event.type == EventType::ok && event.value == Value::keyword("empty")) return true;
  }
  return false;
}

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("every row of the collections corpus reads, and its header names the row's model") {
    if (!collections_present()) return;
    const std::vector<Row> rows = expected_rows();
    CHECK(rows.size() == 1063);
    std::size_t read = 0;
    for (const Row& row : rows) {
      CAPTURE(row.path);
      const EventLog log = read_events(kCollections + "/" + row.path);
      CHECK_FALSE(log.events.empty());
      CHECK(log.model_hint == row.model);
      ++read;
    }
    CHECK(read == rows.size());
  }

  TEST_CASE("every history file of the collections corpus reads, the rows' and the others'") {
    if (!collections_present()) return;
    // LiMo's renamed copies of the artifact's MSQ runs have no row of their own.
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kCollections)) {
      const std::string extension = entry.path().extension().string();
      if (!entry.is_regular_file() || (extension != ".log" && extension != ".hist")) continue;
      CAPTURE(entry.path().string());
      CHECK_FALSE(read_events(entry.path().string()).events.empty());
      ++files;
    }
    MESSAGE(files << " history files read");
    CHECK(files >= 1063);
  }

  TEST_CASE("every row of the collections corpus survives a round trip through its own format and EDN") {
    if (!collections_present()) return;
    std::size_t round_trips = 0;
    for (const Row& row : expected_rows()) {
      CAPTURE(row.path);
      const EventLog log = read_events(kCollections + "/" + row.path);
      const Format own = row.path.starts_with("fastlin/") ? Format::fastlin : Format::violin_log;
      for (const Format format : {own, Format::edn}) {
        const EventLog back = parse_events(format_events(log, format), "written", format);
        REQUIRE(back.events.size() == log.events.size());
        for (std::size_t i = 0; i < log.events.size(); ++i) {
          CAPTURE(i);
          CHECK(back.events[i].process == log.events[i].process);
          CHECK(back.events[i].type == log.events[i].type);
          CHECK(back.events[i].f == log.events[i].f);
          CHECK(back.events[i].value == log.events[i].value);
        }
        ++round_trips;
      }
    }
    CHECK(round_trips == 2 * 1063);
  }

  TEST_CASE("fastlin's priority-queue histories read as a max priority queue's") {
    if (!collections_present()) return;
    for (const std::string name : {"lin_simple_0.log", "nonlin_simple_0.log"}) {
      CAPTURE(name);
      const EventLog log = read_events(kCollections + "/fastlin/testcases/priorityqueue/" + name);
      CHECK(log.model_hint == "max-priority-queue");
      for (const Event& event : log.events) {
        CHECK((event.f == "insert" || event.f == "poll" || event.f == "peek"));
      }
    }
    // The first peek's -1: the queue was empty.
    const EventLog log = read_events(kCollections + "/fastlin/testcases/priorityqueue/lin_simple_0.log");
    std::size_t empties = 0;
    for (const Event& event : log.events) empties += event.value == Value::keyword("empty") ? 1 : 0;
    CHECK(empties == 1);
  }
}

TEST_SUITE("slow") {
  // Every row, those whose verdict rests on an empty observation (an :ok remove that
  // found the container empty) among them.
  TEST_CASE("the collections corpus rows get their expected verdicts") {
    if (!collections_present()) return;
    std::size_t checked = 0;
    std::size_t with_empty = 0;
    for (const Row& row : expected_rows()) {
      CAPTURE(row.path);
      const EventLog log = read_events(kCollections + "/" + row.path);
      with_empty += has_empty_observation(log) ? 1 : 0;
      const auto model = make_model_from_spec(row.model);
      const CheckResult result =
          check(build_history(log, *model), *model, CheckOptions{.timeout_seconds = 120, .minimal_core = false});
      CHECK(verdict_name(result.verdict) == row.verdict);
      ++checked;
    }
    MESSAGE(checked << " rows checked, " << with_empty << " with an empty observation");
    CHECK(checked == 1063);
    CHECK(with_empty > 0);
    CHECK(checked > 0);
  }
}
