// `ariadne explore`: the Redis WAIT counterexample as the report shows it, the file -o
// writes (which is the one committed in corpus/explored/, so the run is reproducible),
// the --json contract, the fenced design's clean exhaustive search, limits, and usage
// errors.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace ariadne::cli_test;

namespace {

const std::vector<std::string> kSeedBudget = {"explore", "redis-wait", "--depth", "15",     "--trajectories",
                                              "40000",   "--seed",     "0",       "--jobs", "2"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

TEST_CASE("explore: redis-wait fails within the seed's budget, reported like Knossos' Redis report") {
  TempDir dir;
  const std::string edn = (dir.path() / "cx.edn").string();
  const std::string html = (dir.path() / "cx.html").string();
  const auto run = run_cli(with(kSeedBudget, {"-o", edn, "--html", html}));
  REQUIRE_MESSAGE(run.status == 1, run.out, run.err);
  for (const char* part : {"COUNTEREXAMPLE: 11 steps", "no trajectory with fewer steps fails",
                           "System state at the end:", "n1          register 2, primary, isolated",
                           "---- unable to linearize past this point ----", "NOT LINEARIZABLE", "Minimal core",
                           "Longest linearizable prefix"})
    CHECK_MESSAGE(run.out.find(part) != std::string::npos, part);

  // The history file is the committed corpus file, byte for byte, and check refutes it.
  const std::string written = read_text(edn);
  CHECK(written == read_text(std::string(ARIADNE_SOURCE_DIR) + "/corpus/explored/redis-wait-counterexample.edn"));
  const auto checked = run_cli({"check", edn, "--model", "register(nil)"});
  CHECK_MESSAGE(checked.status == 1, checked.out);
  CHECK(read_text(html).find("<html") != std::string::npos);
}

TEST_CASE("explore: --json carries the search's numbers and the certified counterexample") {
  const auto run = run_cli(with(kSeedBudget, {"--json"}));
  REQUIRE_MESSAGE(run.status == 1, run.err);
  const Json report = parse_json(run.out);
  CHECK(report["design"].string == "redis-wait");
  CHECK(report["mode"].string == "random");
  CHECK(report["trajectories"].number == 40000);
  CHECK(report["counterexamples"].number >= 1);
  CHECK(report["trajectories_per_second"].number > 0);
  const Json& cx = report["counterexample"];
  CHECK(cx["steps"].number == 11);
  CHECK(cx["proven_shortest"].boolean);
  CHECK(cx["failing_step"].number == 11);
  CHECK(cx["actions"].array.size() == 11);
  CHECK(cx["verdict"].string == "not-linearizable");
  CHECK(cx["core"].array.size() == 3);
  CHECK(cx["core_minimal"].boolean);
}

TEST_CASE("explore: redis-wait-fenced has no counterexample in an exhaustive search") {
  const auto run = run_cli({"explore", "redis-wait-fenced", "--exhaustive", "--depth", "14", "--json"});
  REQUIRE_MESSAGE(run.status == 0, run.out, run.err);
  const Json report = parse_json(run.out);
  CHECK(report["mode"].string == "exhaustive");
  CHECK(report["complete"].boolean);
  CHECK(report["states"].number > 10000);
  CHECK(report["counterexample"].type == Json::Type::null);
  const auto text = run_cli({"explore", "redis-wait-fenced", "--trajectories", "2000"});
  CHECK(text.status == 0);
  CHECK(text.out.find("NO COUNTEREXAMPLE") != std::string::npos);
}

TEST_CASE("explore: a search stopped by --timeout before finding anything exits 2 and says so") {
  const auto run = run_cli({"explore", "redis-wait-fenced", "--exhaustive", "--depth", "60", "--timeout", "0.3"});
  CHECK_MESSAGE(run.status == 2, run.out, run.err);
  CHECK(run.out.find("time limit reached") != std::string::npos);
}

TEST_CASE("explore: --list names every design, and usage errors exit 64") {
  const auto list = run_cli({"explore", "--list"});
  CHECK(list.status == 0);
  for (const char* name : {"redis-wait", "redis-wait-fenced", "redis-redux"})
    CHECK_MESSAGE(list.out.find(name) != std::string::npos, name);
  const auto unknown = run_cli({"explore", "raft"});
  CHECK(unknown.status == 64);
  CHECK(unknown.err.find("unknown design 'raft'") != std::string::npos);
  CHECK(run_cli({"explore"}).status == 64);
  CHECK(run_cli({"explore", "redis-wait", "--param", "nodes=5"}).status == 64);
  CHECK(run_cli({"explore", "redis-wait", "--param", "nodes"}).status == 64);
  CHECK(run_cli({"explore", "redis-wait", "--depth", "0"}).status == 64);
  CHECK(run_cli({"explore", "redis-wait", "--depth", "999"}).status == 64);
}

TEST_CASE("explore: --replay checks a trajectory the user writes, whatever its verdict") {
  // The committed counterexample's steps, read back from its header.
  const std::string corpus_file = std::string(ARIADNE_SOURCE_DIR) + "/corpus/explored/redis-wait-counterexample.edn";
  std::string steps;
  std::istringstream header(read_text(corpus_file));
  for (std::string line; std::getline(header, line);) {
    const auto dot = line.find(". ");
    if (line.starts_with(";   ") && dot != std::string::npos)
      steps += (steps.empty() ? "" : "; ") + line.substr(dot + 2);
  }
  const auto failing = run_cli({"explore", "redis-wait", "--replay", steps, "--json"});
  REQUIRE_MESSAGE(failing.status == 1, failing.out, failing.err);
  const Json report = parse_json(failing.out);
  CHECK(report["mode"].string == "replay");
  CHECK(report["trajectory"]["steps"].number == 11);
  CHECK(report["trajectory"]["verdict"].string == "not-linearizable");

  TempDir dir;
  const std::string file = dir.write("steps.txt", "# a read, then a write that never completes\nc1 read\n\nc2 write\n");
  const auto clean = run_cli({"explore", "redis-wait", "--replay", "@" + file});
  CHECK_MESSAGE(clean.status == 0, clean.out, clean.err);
  CHECK(clean.out.find("LINEARIZABLE: the history has a linearization") != std::string::npos);

  const auto disabled = run_cli({"explore", "redis-wait", "--replay", "c1 read; c1 write completes"});
  CHECK(disabled.status == 64);
  CHECK(disabled.err.find("step 2, 'c1 write completes', is not enabled") != std::string::npos);
  CHECK(disabled.err.find("c2 write") != std::string::npos);  // the steps enabled there are listed
}
