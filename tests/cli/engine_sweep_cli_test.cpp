// The command-line half of issue 41's sweep: histories of the in-process sweep
// (tests/support/engine_sweep.hpp, the same seed and indices) through the real
// binary, `check --no-core --json`, plain `check` (the race, then the minimal core),
// and `corpus DIR` over all of them with their brute-force verdicts in its
// expected.tsv. The histories are those most at risk (cli_sample says which). Every
// exit status must be brute force's verdict (0 or 1), never 70, and the corpus must
// report no mismatch.
//
// ARIADNE_SWEEP_CLI_HISTORIES sets the histories per model; ARIADNE_SWEEP_SEED and
// ARIADNE_SWEEP_MODELS as for the in-process sweep.
#include "cli_runner.hpp"
#include "support/engine_sweep.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

namespace ariadne::cli_test {

namespace {

struct SweptFile {
  std::string spec;
  std::string path;  // relative to the corpus folder
  std::string text;
  Verdict oracle = Verdict::unknown;
};

int exit_status_of(Verdict v) { return v == Verdict::linearizable ? 0 : 1; }

// Which of the sweep's histories of `spec` the command line gets: the first `count`
// that write some value twice (a crashed duplicate, or two completed writes) and on
// which the unique-value engine answers all the same (the race's first stage, where
// issue 41's bug lived: it answered, wrongly, where it should have declined), then,
// when the first 50 times `count` hold fewer, the first others.
std::vector<int> cli_sample(const std::string& spec, std::uint64_t seed, int count) {
  const auto model = make_model_from_spec(spec);
  const CheckOptions unique{.engine = Engine::unique, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  std::vector<int> sample, others;
  for (int index = 0; index < 50 * count && static_cast<int>(sample.size()) < count; ++index) {
    const History history = build_history(testing::sweep_history(spec, seed, index), *model);
    const bool wanted =
        testing::writes_a_value_twice(history) && check(history, *model, unique).verdict != Verdict::unknown;
    (wanted ? sample : others).push_back(index);
  }
  for (std::size_t i = 0; static_cast<int>(sample.size()) < count && i < others.size(); ++i) {
    sample.push_back(others[i]);
  }
  return sample;
}

}  // namespace

TEST_SUITE("slow") {
  TEST_CASE("check --no-core and check and corpus give brute force's verdicts on the sweep's histories") {
    const std::uint64_t seed = testing::sweep_env_number("ARIADNE_SWEEP_SEED", 20261205);
    const int histories = static_cast<int>(testing::sweep_env_number("ARIADNE_SWEEP_CLI_HISTORIES", 8));
    MESSAGE("engine sweep through the command line: ARIADNE_SWEEP_SEED=", seed,
            ", ARIADNE_SWEEP_CLI_HISTORIES=", histories, " per model");
    TempDir dir;
    std::vector<SweptFile> files;
    std::string tsv;
    for (const std::string& spec : testing::sweep_models_from_env("ARIADNE_SWEEP_MODELS")) {
      for (const int index : cli_sample(spec, seed, histories)) {
        const EventLog log = testing::sweep_history(spec, seed, index);
        SweptFile file;
        file.spec = spec;
        file.path = "h/" + testing::spec_file_name(spec) + "-" + std::to_string(index) + ".edn";
        file.oracle = testing::brute_force_verdict(log, spec);
        REQUIRE(file.oracle != Verdict::unknown);
        file.text = testing::sweep_edn_file(
            log, spec, file.oracle,
            "ARIADNE_SWEEP_SEED=" + std::to_string(seed) + ", history #" + std::to_string(index));
        dir.write(file.path, file.text);
        tsv += file.path + "\t" + std::string(verdict_name(file.oracle)) + "\t" + spec + "\n";
        files.push_back(std::move(file));
      }
    }
    dir.write("expected.tsv", tsv);

    int failed = 0;
    for (const SweptFile& file : files) {
      const std::string path = (dir.path() / file.path).string();
      const int expected = exit_status_of(file.oracle);
      const RunResult no_core = run_cli({"check", path, "--model", file.spec, "--no-core", "--json"});
      const RunResult plain = run_cli({"check", path, "--model", file.spec});
      const bool no_core_right =
          no_core.status == expected && parse_json(no_core.out)["verdict"].string == verdict_name(file.oracle);
      const bool plain_right = plain.status == expected;
      if (no_core_right && plain_right) continue;
      ++failed;
      FAIL_CHECK(file.spec, " ", file.path, ": brute force says ", verdict_name(file.oracle), "; check --no-core",
                 " --json exited ", no_core.status, " ", no_core.out, no_core.err, "; check exited ", plain.status, " ",
                 plain.err, "\n", file.text);
    }
    MESSAGE(files.size(), " histories through check --no-core and check, ", failed, " wrong");

    // The folder's own expected.tsv, as `ariadne corpus DIR` reads it.
    const RunResult corpus = run_cli({"corpus", dir.path().string(), "--json"});
    const Json report = parse_json(corpus.out);
    for (const Json& row : report["rows"].array) {
      if (row["ok"].boolean) continue;
      std::string text;
      for (const SweptFile& file : files) {
        if (row["file"].string.find(file.path) != std::string::npos) text = file.text;
      }
      FAIL_CHECK("corpus: ", row["file"].string, " answered ", row["verdict"].string, ", expected ",
                 row["expected"].string, " ", row.has("error") ? row["error"].string : "", "\n", text);
    }
    CHECK(report["totals"]["rows"].number == static_cast<double>(files.size()));
    CHECK(report["totals"]["mismatches"].number == 0);
    CHECK_MESSAGE(corpus.status == 0, corpus.err);
  }
}

}  // namespace ariadne::cli_test
