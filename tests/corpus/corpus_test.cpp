// Every row of our own corpus and of the shared third-party corpora gives its expected
// verdict, and every linearizable answer carries a witness that replays. The shared
// corpora live beside the repository (../shared); a plain clone skips them, saying so.
#include <ariadne/check.hpp>

#include "batch/corpus_rows.hpp"
#include "certify/witness_checker.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

using namespace ariadne;

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;

struct Tally {
  int rows = 0;
  int linearizable = 0;
  int unknown = 0;
};

// `engine` alone on every row; with `allow_unknown`, an engine that runs out of time
// may answer unknown (it must never contradict the expected verdict).
Tally check_corpus(const std::string& corpus, Engine engine = Engine::automatic, bool allow_unknown = false,
                   double timeout_seconds = 120) {
  Tally tally;
  for (const batch::CorpusRow& row : batch::read_corpus_rows(corpus)) {
    INFO("corpus ", corpus, ", row ", row.name, " with model ", row.model);
    REQUIRE(row.error.empty());
    REQUIRE(row.expected.has_value());
    auto model = make_model_from_spec(row.model);
    History history = build_history(read_events(row.path.string()), *model);
    // Verdicts only: tests/refute/corpus_core_test.cpp checks the cores.
    CheckResult result = check(
        history, *model, CheckOptions{.engine = engine, .timeout_seconds = timeout_seconds, .minimal_core = false});
    if (allow_unknown && result.verdict == Verdict::unknown) {
      ++tally.unknown;
      ++tally.rows;
      continue;
    }
    CHECK(verdict_name(result.verdict) == verdict_name(*row.expected));
    if (result.verdict == Verdict::linearizable) {
      // check() certifies before returning; replaying again here keeps this test
      // meaningful even if that step were ever skipped.
      CHECK_FALSE(certify::check_linearization(history, *model, result.linearization).has_value());
      ++tally.linearizable;
    } else if (result.verdict == Verdict::not_linearizable) {
      CHECK_FALSE(result.core.empty());
    }
    ++tally.rows;
  }
  return tally;
}

}  // namespace

TEST_CASE("the classic examples give the verdicts their sources state") {
  Tally t = check_corpus(kSourceDir + "/corpus/classic");
  CHECK(t.rows == 15);
  CHECK(t.linearizable == 5);
}

TEST_SUITE("slow") {
  TEST_CASE("every row of the shared Knossos corpus gives its expected verdict") {
    const std::string tsv = kSourceDir + "/../shared/corpus/knossos/expected.tsv";
    if (!std::filesystem::exists(tsv)) {
      MESSAGE("skipped: ", tsv, " is absent (a plain clone has no ../shared)");
      return;
    }
    Tally t = check_corpus(tsv);
    CHECK(t.rows == 134);
  }

  TEST_CASE("every row of the shared Porcupine corpus gives its expected verdict") {
    const std::string tsv = kSourceDir + "/../shared/corpus/porcupine/expected.tsv";
    if (!std::filesystem::exists(tsv)) {
      MESSAGE("skipped: ", tsv, " is absent (a plain clone has no ../shared)");
      return;
    }
    Tally t = check_corpus(tsv);
    CHECK(t.rows == 108);
    CHECK(t.linearizable == 26);
  }
}

TEST_CASE("the generated crash storms give the verdicts they were built with") {
  Tally t = check_corpus(kSourceDir + "/corpus/generated/crash-storm");
  CHECK(t.rows == 6);
  CHECK(t.linearizable == 3);
}

TEST_CASE("the histories recorded on real clusters give the verdicts ariadne gave them then") {
  // corpus/testbed: Redis and etcd under faults (testbed/), the recorded histories with
  // the most crashed ops; every verdict was checked by hand against the servers' logs.
  Tally t = check_corpus(kSourceDir + "/corpus/testbed");
  CHECK(t.rows == 4);
  CHECK(t.linearizable == 1);
}

// Each engine alone on both shared corpora (the race must not hide an engine that is
// wrong on its own): see the cross-check tests in tests/cli/cross_check_command_test.cpp.

TEST_CASE("the first failing operation of the A-D example is D's read of 1") {
  auto model = make_model_from_spec("register(0)");
  History h = build_history(read_events(kSourceDir + "/corpus/classic/worked-example-abcd.edn"), *model);
  CheckResult r = check(h, *model, CheckOptions{});
  REQUIRE(r.verdict == Verdict::not_linearizable);
  REQUIRE(r.failing_op.has_value());
  CHECK(*r.failing_op == 5);
  CHECK(r.explanation.find("read 1") != std::string::npos);
}

TEST_SUITE("slow") {
  // The failing ops Knossos' corpus documents for its bad histories (its README's
  // "Notable files"), found here by binary search over prefixes.
  TEST_CASE("the first failing operations match the ones Knossos documents") {
    const std::string dir = kSourceDir + "/../shared/corpus/knossos/data/cas-register/bad/";
    if (!std::filesystem::exists(dir)) {
      MESSAGE("skipped: ", dir, " is absent (a plain clone has no ../shared)");
      return;
    }
    struct Expected {
      const char* file;
      std::int64_t process;
      std::int64_t read;
      std::uint64_t completion_event;  // 0 when the documentation gives none
    };
    const Expected cases[] = {{"rethink-fail-minimal.edn", 1, 3, 0},
                              {"bad-analysis.edn", 21, 2, 14},
                              {"cas-failure.edn", 70, 0, 491},
                              {"rethink-fail-smaller.edn", 12, 3, 217},
                              {"immediate-failure.edn", 1, 3, 0}};
    auto model = make_model_from_spec("cas-register(0)");
    for (const Expected& e : cases) {
      INFO(e.file);
      History h = build_history(read_events(dir + e.file), *model);
      CheckResult r = check(h, *model, CheckOptions{});
      REQUIRE(r.verdict == Verdict::not_linearizable);
      REQUIRE(r.failing_op.has_value());
      auto op = std::find_if(h.ops.begin(), h.ops.end(), [&](const Operation& o) { return o.id == *r.failing_op; });
      REQUIRE(op != h.ops.end());
      CHECK(op->process == e.process);
      CHECK(op->f == "read");
      CHECK(op->value == Value::integer(e.read));
      if (e.completion_event) CHECK(op->ret == e.completion_event);
    }
  }
}
