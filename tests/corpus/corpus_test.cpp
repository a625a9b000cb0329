// Every row of our own corpus and of the shared third-party corpora gives its expected
// verdict, and every linearizable answer carries a witness that replays. The shared
// corpora live beside the repository (../shared); a plain clone skips them, saying so.
#include <ariadne/check.hpp>

#include "certify/witness_checker.hpp"
#include "cli/corpus_rows.hpp"

#include <doctest/doctest.h>

#include <filesystem>

using namespace ariadne;

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;

struct Tally {
  int rows = 0;
  int linearizable = 0;
};

Tally check_corpus(const std::string& corpus) {
  Tally tally;
  for (const cli::CorpusRow& row : cli::read_corpus_rows(corpus)) {
    INFO("corpus ", corpus, ", row ", row.name, " with model ", row.model);
    REQUIRE(row.error.empty());
    REQUIRE(row.expected.has_value());
    auto model = make_model_from_spec(row.model);
    History history = build_history(read_events(row.path.string()), *model);
    CheckResult result = check(history, *model, CheckOptions{.timeout_seconds = 120});
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
  CHECK(t.rows == 13);
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
