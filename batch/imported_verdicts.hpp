// Verdicts another checker reached on a corpus, for `ariadne cross-check --import`.
// Two shapes are read:
//   knossos    Knossos' result maps ({:valid? true|false|:unknown ...}): a directory
//              holding one map per history, named after the history plus ".edn"
//              (e.g. results/jepsen/etcd_000.log.edn), or one EDN file holding a map
//              from file name to result map, or a vector of result maps that each
//              carry :file (the Knossos harness's listing: one map per history and
//              :analyzer, with :time-ms, :error, :cause, :skipped, :knossos-model);
//   porcupine  (and any other checker) a listing, one `file<TAB>verdict` per line,
//              verdict true|false|unknown (also Ok|Illegal, Porcupine's CheckResult,
//              and linearizable|not-linearizable; any case); blank and '#' lines
//              are skipped.
#pragma once

#include "batch/corpus_rows.hpp"

#include <ariadne/check.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::batch {

// One answer of the other checker on one history. A listing from the Knossos harness
// (docs/knossos-harness/) holds one per analyzer (wgl, linear), with its time and, when
// it did not decide, why: the exception it threw, its cause (timeout), or why the row
// was not run at all (Knossos has no model for it).
struct ImportedResult {
  std::string analyzer;  // :analyzer of a Knossos result map ("wgl", "linear"); else empty
  Verdict verdict = Verdict::unknown;
  std::optional<double> ms;  // :time-ms
  std::string error;         // :error, the exception the checker threw
  std::string cause;         // :cause, why it stopped undecided ("timeout", ...)
  std::string skipped;       // :skipped, why it was not run on this history
  std::string model;         // :knossos-model, the model it ran
  std::string row_model;     // :model, the corpus row's model spec it was run for; empty: any
};

struct ImportedVerdicts {
  std::string checker;  // "knossos" or "porcupine"
  std::string source;   // the file or directory they were read from
  // Per file, one result per analyzer, in the order read.
  std::map<std::string, std::vector<ImportedResult>> by_file;
  std::vector<std::string> analyzers;  // every analyzer named, in order of first appearance

  // The results for a row: by the row's name, else by its file name when exactly one
  // imported entry has that file name (a listing written with bare names); of those,
  // the ones run for the row's model, when they say (a corpus may list one file under
  // two models). Empty when there are none.
  std::vector<ImportedResult> find(const CorpusRow& row) const;
  // "knossos wgl", or "knossos" for a result that names no analyzer.
  std::string label(const ImportedResult& result) const;
};

// The one verdict of several analyzers' results: the one the decided results share,
// else unknown (none decided, or they contradict each other).
Verdict combined_verdict(const std::vector<ImportedResult>& results);

// The checkers --import accepts, for the usage message.
inline constexpr std::string_view kImportableCheckers = "knossos|porcupine";

// Throws UsageError for an unknown checker and InputError (with line and column where
// there is one) for a results file that cannot be read.
ImportedVerdicts read_imported_verdicts(std::string_view checker, const std::string& path);

}  // namespace ariadne::batch
