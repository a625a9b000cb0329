// Reporting a corpus run: the per-row table and totals, in text or as one JSON object.
// The same report serves a shard of a corpus (--shard), a run cut short by a signal,
// and the merge of shard reports (--merge), each saying so in a few extra lines or
// fields; a plain run's report is unchanged by them.
#pragma once

#include "batch/corpus_rows.hpp"
#include "batch/corpus_shard.hpp"

#include <ariadne/check.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ariadne::answer {
class Style;
}  // namespace ariadne::answer

namespace ariadne::batch {

// With `corpus --certify DIR`: where the row's certificate went, and whether it replayed.
struct OutcomeCertificate {
  bool requested = false;
  bool certified = false;
  std::string answer;   // the check --json file (witness, or core and explanation), relative to DIR
  std::string proof;    // not linearizable: the proof directory, relative to DIR
  std::string problem;  // why there is no certificate, or why it did not replay
};

struct CorpusOutcome {
  std::optional<Verdict> verdict;  // nullopt for an error row
  std::string engine;
  std::string reason;     // why unknown, when it is
  std::string error;      // the row could not be checked
  double elapsed_ms = 0;  // checking time (time until the error, for error rows)
  bool ok = false;        // the verdict matched the expected one (and, certifying, was certified)
  // Ctrl-C or SIGTERM cut the row short after its verdict (its certificate, say): it
  // is counted apart, as interrupted, never as a mismatch.
  bool interrupted = false;
  OutcomeCertificate certificate;
};

struct CorpusTotals {
  std::size_t rows = 0;
  std::size_t matches = 0;
  std::size_t mismatches = 0;  // including error rows
  std::size_t errors = 0;
  std::size_t interrupted = 0;  // rows cut short by a signal: neither matches nor mismatches
  double checking_ms = 0;       // the sum of the rows' times
  double wall_ms = 0;
  bool certifying = false;    // corpus --certify
  std::size_t certified = 0;  // rows whose certificate replayed
};

CorpusTotals total(const std::vector<CorpusOutcome>& outcomes, double wall_ms);

// A run stopped by a signal: its report lists only the rows that got an answer.
struct Interruption {
  std::string signal;         // "SIGINT" or "SIGTERM"
  std::size_t unchecked = 0;  // rows of the run (the shard's, with --shard) left without an answer
  std::size_t run_rows = 0;   // rows the run set out to check
};

// The report of `corpus --merge`: which shard reports it joined.
struct MergeSummary {
  std::vector<std::string> reports;  // the report files, in shard order
  double longest_wall_ms = 0;        // the slowest shard's wall time: the batch job's span
};

// What a report covers besides its rows. Empty for a plain run.
struct ReportScope {
  // The condition the rows were checked under: verdicts are named after it, and a
  // report under a sequential one says "consistency".
  Consistency consistency = Consistency::linearizable;
  std::optional<ShardIdentity> shard;
  // With `shard`: each listed row's 0-based position in the whole corpus.
  std::vector<std::size_t> positions;
  std::optional<Interruption> interruption;
  std::optional<MergeSummary> merged;
};

std::string format_corpus_text(const std::vector<CorpusRow>& rows, const std::vector<CorpusOutcome>& outcomes,
                               const CorpusTotals& totals, const answer::Style& style, const ReportScope& scope = {});

// {"corpus", "rows": [{"file", "model", "expected", "verdict", "elapsed_ms", "engine",
// "ok", "error"?, "reason"?, "certificate"?}], "totals": {...}}; an error row's verdict
// and engine are null. With --certify, each row's "certificate" is {"certified",
// "answer", "proof"?, "problem"?} and the totals count "certified".
// A shard's report adds "shard": {"index", "count", "rows", "corpus_rows", "selection",
// "corpus_digest", "options": {"engine", "timeout_seconds", "memory_limit", "certify"},
// "version"} and each row's "position" in the whole corpus; an interrupted run adds
// "interrupted": {"signal", "unchecked", "rows"}, "interrupted": true on each row the
// signal cut short after its verdict and "interrupted" in the totals; a merge adds
// "merged": {"reports", "shards", "longest_wall_ms"}.
std::string format_corpus_json(const std::string& corpus, const std::vector<CorpusRow>& rows,
                               const std::vector<CorpusOutcome>& outcomes, const CorpusTotals& totals,
                               const ReportScope& scope = {});

}  // namespace ariadne::batch
