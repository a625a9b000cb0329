// Every history of the shared Knossos and Porcupine corpora reads without error, with
// the number of events their documentation states.
#include <ariadne/history.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kCorpus = std::string(ARIADNE_SOURCE_DIR) + "/../shared/corpus";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::vector<std::string>> read_tsv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(read_text(path));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::vector<std::string> row;
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, '\t')) row.push_back(field);
    rows.push_back(row);
  }
  return rows;
}

// The distinct paths of an expected.tsv, in file order.
std::vector<std::string> expected_paths(const std::string& dir) {
  std::vector<std::string> paths;
  std::set<std::string> seen;
  for (const auto& row : read_tsv(dir + "/expected.tsv")) {
    if (!row.empty() && seen.insert(row[0]).second) paths.push_back(row[0]);
  }
  return paths;
}

bool corpus_present(const std::string& dir) {
  if (std::filesystem::exists(dir + "/expected.tsv")) return true;
  MESSAGE("skipped: corpus not found at " << dir);
  return false;
}

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("every Knossos corpus history reads with the event count stats.tsv states") {
    const std::string dir = kCorpus + "/knossos";
    if (!corpus_present(dir)) return;
    std::map<std::string, std::size_t> stated_ops;
    for (const auto& row : read_tsv(dir + "/stats.tsv")) {
      if (row.size() > 2 && row[0] != "path") stated_ops[row[0]] = std::stoul(row[2]);
    }
    const auto paths = expected_paths(dir);
    CHECK(paths.size() > 100);
    for (const auto& path : paths) {
      CAPTURE(path);
      const auto log = ariadne::read_events(dir + "/" + path);
      CHECK(log.source == dir + "/" + path);
      REQUIRE(stated_ops.count(path) == 1);
      CHECK(log.events.size() == stated_ops[path]);
    }
  }

  TEST_CASE("every Porcupine corpus history reads with one event per line") {
    const std::string dir = kCorpus + "/porcupine";
    if (!corpus_present(dir)) return;
    const auto paths = expected_paths(dir);
    CHECK(paths.size() == 108);
    for (const auto& path : paths) {
      CAPTURE(path);
      const std::string text = read_text(dir + "/" + path);
      const auto log = ariadne::read_events(dir + "/" + path);
      CHECK(log.events.size() == static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
      const bool kv = path.starts_with("kv/");
      for (const auto& event : log.events) {
        CHECK(event.process.is_integer());
        CHECK(event.key.is_string() == kv);
      }
    }
    CHECK(ariadne::read_events(dir + "/jepsen/etcd_095.log").events.empty());
  }

  TEST_CASE("the Knossos memstress4 log and its EDN conversion read as the same events") {
    const std::string dir = kCorpus + "/knossos/historical";
    if (!std::filesystem::exists(dir + "/memstress4.log")) {
      MESSAGE("skipped: corpus not found at " << dir);
      return;
    }
    const auto log = ariadne::read_events(dir + "/memstress4.log");
    const auto edn = ariadne::read_events(dir + "/memstress4.edn");
    REQUIRE(log.events.size() == edn.events.size());
    for (std::size_t i = 0; i < log.events.size(); ++i) {
      CAPTURE(i);
      CHECK(log.events[i].process == edn.events[i].process);
      CHECK(log.events[i].type == edn.events[i].type);
      CHECK(log.events[i].f == edn.events[i].f);
      CHECK(log.events[i].value == edn.events[i].value);
      CHECK(log.events[i].pos.line == i + 1);
    }
  }

}  // TEST_SUITE
