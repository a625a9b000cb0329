// The differential sweep of issue 41: every engine, the race (Engine::automatic)
// included, with the minimal core on and off, against brute force on random small
// histories of every model and of independent(M) for each, crashed ops and crashed
// duplicates among them (tests/support/engine_sweep.hpp says which histories).
//
// An engine that declines or does not decide answers unknown, which is no
// disagreement; a decided verdict must be brute force's, a refutation's core must be
// refuted by brute force when relaxed as the core contract says, and nothing may
// throw (an InternalError is `ariadne check`'s exit 70). The sweep runs to the end and
// then reports each distinct failure (model, engine, core on or off, kind) once, by
// its smallest history, printed as a corpus file for corpus/regressions/.
//
// ARIADNE_SWEEP_HISTORIES sets the histories per model (the default keeps `make
// test` fast; issue 41's full sweep is 10000), ARIADNE_SWEEP_SEED the seed,
// ARIADNE_SWEEP_FROM the first history's index (a sweep can go on where another
// stopped), ARIADNE_SWEEP_MODELS a comma-separated list of specs to sweep (to split
// a full sweep over processes), ARIADNE_SWEEP_SMT_EVERY=N runs SMT on every N-th
// history only (see Sweep), and ARIADNE_SWEEP_FINDINGS names a folder the
// reproducers and summary.tsv, the table of runs, are written to after each model.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "support/core_oracle.hpp"
#include "support/engine_sweep.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

using namespace ariadne;

namespace {

constexpr Engine kEngines[] = {Engine::automatic, Engine::wgl, Engine::jit,  Engine::unique,
                               Engine::sat,       Engine::smt, Engine::brute};

// What one engine with the core on or off did on one model's histories.
struct Tally {
  int run = 0;
  int agreed = 0;
  int undecided = 0;
  int failures = 0;  // disagreements, throws, cores not refuted
  double seconds = 0;
};

// The first failure of one kind, replaced by any smaller history that fails the same
// way: what a reader needs to make it again and to keep it.
struct Finding {
  std::uint64_t seed = 0;
  int index = 0;
  EventLog log;
  Verdict oracle = Verdict::unknown;
  std::string detail;
  int count = 0;
};

// model, engine, core on, kind of failure.
using FindingKey = std::tuple<std::string, std::string, bool, std::string>;

class Sweep {
 public:
  // SMT runs on every `smt_every`-th history only: Z3 solves in a child process
  // (solvers/isolated_decision.cpp), whose fork costs more than all the other engines
  // together on a history this small.
  Sweep(std::uint64_t seed, int from, int histories, int smt_every)
      : seed_(seed), from_(from), histories_(histories), smt_every_(smt_every) {}

  void sweep_model(const std::string& spec) {
    const auto model = make_model_from_spec(spec);
    for (int index = from_; index < from_ + histories_; ++index) {
      const EventLog log = testing::sweep_history(spec, seed_, index);
      Verdict oracle = Verdict::unknown;
      std::string thrown;
      try {
        oracle = testing::brute_force_verdict(log, spec);
      } catch (const std::exception& e) {
        thrown = e.what();
      }
      if (oracle == Verdict::unknown) {
        record({spec, "brute-force oracle", false, thrown.empty() ? "undecided" : "threw"}, index, log, oracle, thrown);
        continue;
      }
      const History history = build_history(log, *model);
      for (const Engine engine : kEngines) {
        if (engine == Engine::smt && index % smt_every_ != 0) continue;
        for (const bool core : {false, true}) run_one(spec, *model, history, log, index, oracle, engine, core);
      }
    }
  }

  // The table (one line per model and engine) and each finding, as MESSAGEs and
  // failures; returns how many runs failed.
  int report() const {
    for (const auto& [key, tally] : tallies_) {
      const auto& [spec, engine, core] = key;
      const std::string row = spec + " " + engine + (core ? " core" : " no-core");
      MESSAGE(row, ": ", tally.run, " run, ", tally.agreed, " agreed, ", tally.undecided, " undecided, ",
              tally.failures, " failed, ", tally.seconds, " s");
    }
    int failures = 0;
    for (const auto& [key, finding] : findings_) {
      const auto& [spec, engine, core, kind] = key;
      failures += finding.count;
      const std::string what = spec + ", " + engine + (core ? " core" : " no-core") + ": " + kind;
      FAIL_CHECK(what, " on ", finding.count, " histories; the smallest:\n", finding_file(key, finding));
    }
    return failures;
  }

  // The table as summary.tsv and each finding as a corpus file, into `dir`: written
  // after each model, so a long sweep stopped early keeps what it found.
  void write_files(const std::filesystem::path& dir) const {
    std::filesystem::create_directories(dir);
    std::string summary = "model\tengine\tcore\truns\tagreed\tundecided\tfailed\tseconds\n";
    for (const auto& [key, tally] : tallies_) {
      const auto& [spec, engine, core] = key;
      summary += spec + "\t" + engine + "\t" + (core ? "core" : "no-core") + "\t" + std::to_string(tally.run) + "\t" +
                 std::to_string(tally.agreed) + "\t" + std::to_string(tally.undecided) + "\t" +
                 std::to_string(tally.failures) + "\t" + std::to_string(tally.seconds) + "\n";
    }
    std::ofstream(dir / "summary.tsv") << summary;
    for (const auto& [key, finding] : findings_) {
      const auto& [spec, engine, core, kind] = key;
      const std::string name = testing::spec_file_name(spec) + "--" + engine + (core ? "--core--" : "--no-core--") +
                               testing::spec_file_name(kind) + ".edn";
      std::ofstream(dir / name) << finding_file(key, finding);
    }
  }

 private:
  std::string finding_file(const FindingKey& key, const Finding& finding) const {
    const auto& [spec, engine, core, kind] = key;
    const std::string note =
        "Found by tests/portfolio/engine_sweep_test.cpp (ARIADNE_SWEEP_SEED=" + std::to_string(finding.seed) +
        ", history #" + std::to_string(finding.index) + ", " + testing::sweep_shape_name(finding.index) +
        "): " + engine + (core ? " with the core" : " without the core (--no-core)") + ": " + kind + " " +
        finding.detail + "; " + std::to_string(finding.count) + " histories failed so";
    return testing::sweep_edn_file(finding.log, spec, finding.oracle, note);
  }

  void run_one(const std::string& spec, const Model& model, const History& history, const EventLog& log, int index,
               Verdict oracle, Engine engine, bool core) {
    const std::string name(engine_name(engine));
    Tally& tally = tallies_[{spec, name, core}];
    ++tally.run;
    const CheckOptions options{.engine = engine, .timeout_seconds = 20, .jobs = 1, .minimal_core = core};
    const auto start = std::chrono::steady_clock::now();
    CheckResult result;
    std::string thrown;
    try {
      result = check(history, model, options);
    } catch (const std::exception& e) {
      thrown = e.what();
    }
    tally.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string kind, detail;
    if (!thrown.empty()) {
      kind = "threw";
      detail = thrown;
    } else if (result.verdict == Verdict::unknown) {
      ++tally.undecided;
      return;
    } else if (result.verdict != oracle) {
      kind = "disagreed";
      detail = "answered " + std::string(verdict_name(result.verdict)) + ", brute force " +
               std::string(verdict_name(oracle));
    } else if (core && oracle == Verdict::not_linearizable) {
      detail = core_problem(history, model, result.core);
      if (!detail.empty()) kind = "core not refuted";
    }
    if (kind.empty()) {
      ++tally.agreed;
      return;
    }
    ++tally.failures;
    record({spec, name, core, kind}, index, log, oracle, detail);
  }

  // Empty when the core's relaxed history is refuted by brute force (the core
  // contract, CheckResult::core); what is wrong otherwise.
  static std::string core_problem(const History& history, const Model& model, const std::vector<std::uint32_t>& core) {
    if (core.empty()) return "an empty core";
    const auto partition = testing::partition_of(history, model, core.front());
    const std::vector<bool> keep = testing::kept_by(partition, core);
    if (static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true)) != core.size()) {
      return "a core outside one partition";
    }
    const CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 60, .jobs = 1, .minimal_core = false};
    const Verdict relaxed = testing::decide_relaxed(partition, keep, model, brute);
    return relaxed == Verdict::not_linearizable ? std::string()
                                                : "the relaxed core is " + std::string(verdict_name(relaxed));
  }

  void record(const FindingKey& key, int index, const EventLog& log, Verdict oracle, const std::string& detail) {
    Finding& finding = findings_[key];
    ++finding.count;
    if (finding.count == 1 || log.events.size() < finding.log.events.size()) {
      finding.seed = seed_;
      finding.index = index;
      finding.log = log;
      finding.oracle = oracle;
      finding.detail = detail;
    }
  }

  std::uint64_t seed_;
  int from_;
  int histories_;
  int smt_every_;
  std::map<std::tuple<std::string, std::string, bool>, Tally> tallies_;
  std::map<FindingKey, Finding> findings_;
};

}  // namespace

TEST_SUITE("slow") {
  TEST_CASE("every engine with the core and without it agrees with brute force on random small histories") {
    const std::uint64_t seed = testing::sweep_env_number("ARIADNE_SWEEP_SEED", 20261205);
    // 150 per model, SMT on every 8th: 3,000 histories, 29 s of CPU (82 s of wall
    // time on 2 cores at a load of 8.7, 2026-12-05).
    const int histories = static_cast<int>(testing::sweep_env_number("ARIADNE_SWEEP_HISTORIES", 150));
    const int smt_every =
        static_cast<int>(std::max<std::uint64_t>(1, testing::sweep_env_number("ARIADNE_SWEEP_SMT_EVERY", 8)));
    const int from = static_cast<int>(testing::sweep_env_number("ARIADNE_SWEEP_FROM", 0));
    const char* findings_dir = std::getenv("ARIADNE_SWEEP_FINDINGS");
    MESSAGE("engine sweep: ARIADNE_SWEEP_SEED=", seed, ", ARIADNE_SWEEP_FROM=", from,
            ", ARIADNE_SWEEP_HISTORIES=", histories, " per model, ARIADNE_SWEEP_SMT_EVERY=", smt_every);
    Sweep sweep(seed, from, histories, smt_every);
    for (const std::string& spec : testing::sweep_models_from_env("ARIADNE_SWEEP_MODELS")) {
      CAPTURE(spec);
      const auto start = std::chrono::steady_clock::now();
      sweep.sweep_model(spec);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      MESSAGE(spec, ": ", histories, " histories in ", seconds, " s");
      if (findings_dir != nullptr) {
        sweep.write_files(findings_dir);
        std::fprintf(stderr, "engine sweep: %s: %d histories in %.1f s\n", spec.c_str(), histories, seconds);
      }
    }
    CHECK(sweep.report() == 0);
  }
}
