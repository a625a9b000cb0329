// Reporting a corpus run: the per-row table and totals, in text or as one JSON object.
#pragma once

#include "cli/corpus_rows.hpp"

#include <ariadne/check.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ariadne::cli {

class Style;

// With `corpus --certify DIR`: where the row's certificate went, and whether it replayed.
struct OutcomeCertificate {
  bool requested = false;
  bool certified = false;
  std::string answer;    // the check --json file (witness, or core and explanation), relative to DIR
  std::string proof;     // not linearizable: the proof directory, relative to DIR
  std::string problem;   // why there is no certificate, or why it did not replay
};

struct CorpusOutcome {
  std::optional<Verdict> verdict;  // nullopt for an error row
  std::string engine;
  std::string reason;              // why unknown, when it is
  std::string error;               // the row could not be checked
  double elapsed_ms = 0;           // checking time (time until the error, for error rows)
  bool ok = false;                 // the verdict matched the expected one (and, certifying, was certified)
  OutcomeCertificate certificate;
};

struct CorpusTotals {
  std::size_t rows = 0;
  std::size_t matches = 0;
  std::size_t mismatches = 0;  // including error rows
  std::size_t errors = 0;
  double checking_ms = 0;      // the sum of the rows' times
  double wall_ms = 0;
  bool certifying = false;     // corpus --certify
  std::size_t certified = 0;   // rows whose certificate replayed
};

CorpusTotals total(const std::vector<CorpusOutcome>& outcomes, double wall_ms);

std::string format_corpus_text(const std::vector<CorpusRow>& rows, const std::vector<CorpusOutcome>& outcomes,
                               const CorpusTotals& totals, const Style& style);

// {"corpus", "rows": [{"file", "model", "expected", "verdict", "elapsed_ms", "engine",
// "ok", "error"?, "reason"?, "certificate"?}], "totals": {...}}; an error row's verdict
// and engine are null. With --certify, each row's "certificate" is {"certified",
// "answer", "proof"?, "problem"?} and the totals count "certified".
std::string format_corpus_json(const std::string& corpus, const std::vector<CorpusRow>& rows,
                               const std::vector<CorpusOutcome>& outcomes, const CorpusTotals& totals);

}  // namespace ariadne::cli
