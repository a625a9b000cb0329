// Broken files through the whole command line: truncated and mutated copies of real
// histories must give a verdict (the damage can leave a valid history) or exit 65 with
// a file:line:column message, and never crash, hang or print a wrong kind of answer.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

#include <random>
#include <regex>

using namespace ariadne::cli_test;

namespace {

struct Sample {
  std::string path;
  std::string model;
};

std::vector<Sample> samples() {
  const std::string src = ARIADNE_SOURCE_DIR;
  std::vector<Sample> out{{src + "/corpus/classic/herlihy-wing-h1.edn", "fifo-queue"},
                          {src + "/corpus/classic/lecture-example-6.edn", "register"}};
  const std::string shared = src + "/../shared/corpus";
  if (fs::exists(shared)) {
    out.push_back({shared + "/porcupine/jepsen/etcd_000.log", "etcd"});
    out.push_back({shared + "/porcupine/kv/c01-bad.txt", "kv"});
    out.push_back({shared + "/knossos/data/cas-register/bad/bad-analysis.edn", "cas-register(0)"});
  }
  return out;
}

// Exit 0/1/2 are verdicts; 65 must come with "ariadne: FILE:LINE:COLUMN: message".
void expect_verdict_or_located_error(const RunResult& r, const std::string& file, int& located_errors) {
  INFO("stderr: ", r.err);
  const bool verdict = r.status == 0 || r.status == 1 || r.status == 2;
  CHECK((verdict || r.status == 65));
  if (r.status == 65) {
    const std::regex located("ariadne: " + std::regex_replace(file, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                             R"(:\d+:\d+: .+)");
    CHECK(std::regex_search(r.err, located));
    ++located_errors;
  }
}

}  // namespace

TEST_CASE("truncated histories give a verdict or a located error, never a crash") {
  TempDir dir;
  int located = 0, runs = 0;
  for (const Sample& s : samples()) {
    const std::string text = read_text(s.path);
    for (int k = 1; k <= 12; ++k) {
      const std::size_t cut = text.size() * k / 13;
      const std::string file =
          dir.write("truncated-" + std::to_string(runs) + fs::path(s.path).extension().string(), text.substr(0, cut));
      INFO("truncated ", s.path, " at byte ", cut);
      expect_verdict_or_located_error(run_cli({"check", file, "--model", s.model, "--timeout", "10"}), file, located);
      ++runs;
    }
  }
  MESSAGE(runs, " truncations, ", located, " located errors");
  CHECK(located > 0);
}

TEST_CASE("mutated histories give a verdict or a located error, never a crash") {
  const std::uint64_t seed = 65;
  MESSAGE("mutation seed ", seed);
  std::mt19937_64 rng(seed);
  const std::string alphabet = "{}[]()#:;\"\\ \n,-0123456789abcnil";
  TempDir dir;
  int located = 0, runs = 0;
  for (const Sample& s : samples()) {
    const std::string text = read_text(s.path);
    for (int k = 0; k < 30; ++k) {
      std::string mutated = text;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        const std::size_t at = rng() % mutated.size();
        switch (rng() % 3) {
          case 0: mutated[at] = alphabet[rng() % alphabet.size()]; break;
          case 1: mutated.erase(at, 1); break;
          default: mutated.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        }
      }
      const std::string file =
          dir.write("mutated-" + std::to_string(runs) + fs::path(s.path).extension().string(), mutated);
      INFO("mutation #", k, " of ", s.path);
      expect_verdict_or_located_error(run_cli({"check", file, "--model", s.model, "--timeout", "10"}), file, located);
      ++runs;
    }
  }
  MESSAGE(runs, " mutations, ", located, " located errors");
  CHECK(located > 0);
}
