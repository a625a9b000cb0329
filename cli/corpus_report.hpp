// Reporting a corpus run: the per-row table and totals, in text or as one JSON object.
#pragma once

#include "cli/corpus_rows.hpp"

#include <ariadne/check.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ariadne::cli {

class Style;

struct CorpusOutcome {
  std::optional<Verdict> verdict;  // nullopt for an error row
  std::string engine;
  std::string reason;              // why unknown, when it is
  std::string error;               // the row could not be checked
  double elapsed_ms = 0;           // checking time (time until the error, for error rows)
  bool ok = false;                 // the verdict matched the expected one
};

struct CorpusTotals {
  std::size_t rows = 0;
  std::size_t matches = 0;
  std::size_t mismatches = 0;  // including error rows
  std::size_t errors = 0;
  double checking_ms = 0;      // the sum of the rows' times
  double wall_ms = 0;
};

CorpusTotals total(const std::vector<CorpusOutcome>& outcomes, double wall_ms);

std::string format_corpus_text(const std::vector<CorpusRow>& rows, const std::vector<CorpusOutcome>& outcomes,
                               const CorpusTotals& totals, const Style& style);

// {"corpus", "rows": [{"file", "model", "expected", "verdict", "elapsed_ms", "engine",
// "ok", "error"?, "reason"?}], "totals": {...}}; an error row's verdict and engine are null.
std::string format_corpus_json(const std::string& corpus, const std::vector<CorpusRow>& rows,
                               const std::vector<CorpusOutcome>& outcomes, const CorpusTotals& totals);

}  // namespace ariadne::cli
