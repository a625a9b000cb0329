// `ariadne corpus TSV|DIR`: check every row of a corpus against its expected verdict.
#pragma once

#include "cli/option_values.hpp"

#include <optional>
#include <string>

namespace ariadne::cli {

struct CorpusCommandOptions {
  std::string corpus;            // an expected.tsv or a directory of .edn files
  unsigned jobs = 0;             // files checked at once; 0: one per core
  bool json = false;
  SearchLimits limits;           // per file
  // --certify DIR: write each row's certificate (witness, or core, explanation and
  // proof) under DIR, replay it, and index them in DIR/certificates.tsv.
  std::optional<std::string> certify_dir;
};

// 0 when every row matched, 1 on any mismatch or error row. Throws UsageError for
// bad options and InputError when the corpus itself cannot be read.
int run_corpus_command(const CorpusCommandOptions& options);

}  // namespace ariadne::cli
