// Verdicts another checker reached on a corpus, for `ariadne cross-check --import`.
// Two shapes are read:
//   knossos    Knossos' result maps ({:valid? true|false|:unknown ...}): a directory
//              holding one map per history, named after the history plus ".edn"
//              (e.g. results/jepsen/etcd_000.log.edn), or one EDN file holding a map
//              from file name to result map, or a vector of result maps that each
//              carry :file;
//   porcupine  (and any other checker) a listing, one `file<TAB>verdict` per line,
//              verdict true|false|unknown (also Ok|Illegal, Porcupine's CheckResult,
//              and linearizable|not-linearizable; any case); blank and '#' lines
//              are skipped.
#pragma once

#include "cli/corpus/corpus_rows.hpp"

#include <ariadne/check.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ariadne::cli {

struct ImportedVerdicts {
  std::string checker;  // "knossos" or "porcupine"
  std::string source;   // the file or directory they were read from
  std::map<std::string, Verdict> by_file;

  // The verdict for a row: by the row's name, else by its file name when exactly
  // one imported entry has that file name (a listing written with bare names).
  std::optional<Verdict> find(const CorpusRow& row) const;
};

// The checkers --import accepts, for the usage message.
inline constexpr std::string_view kImportableCheckers = "knossos|porcupine";

// Throws UsageError for an unknown checker and InputError (with line and column where
// there is one) for a results file that cannot be read.
ImportedVerdicts read_imported_verdicts(std::string_view checker, const std::string& path);

}  // namespace ariadne::cli
