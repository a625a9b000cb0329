// `ariadne corpus TSV|DIR`: check every row of a corpus against its expected verdict.
#pragma once

#include "cli/option_values.hpp"

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ariadne::cli {

struct CorpusCommandOptions {
  std::string corpus;  // an expected.tsv or a directory of .edn files; empty with --merge
  unsigned jobs = 0;   // files checked at once; 0: one per core
  bool json = false;
  SearchLimits limits;  // per file
  // --consistency: the condition every row is checked under, and its expectation read
  // (corpus_rows.hpp's expected_under); rows whose verdict under it is not known are
  // left out, and the report says how many.
  std::string consistency = "linearizable";
  // --certify DIR: write each row's certificate (witness, or core, explanation and
  // proof) under DIR, replay it, and index them in DIR/certificates.tsv.
  std::optional<std::string> certify_dir;
  // --shard I/N: check only shard I (0-based) of N; see corpus_shard.hpp.
  std::optional<std::string> shard;
  // --merge REPORT.json...: instead of checking, join the --json reports of all N
  // shards into the report one unsharded run would have printed.
  std::vector<std::string> merge_reports;
};

// Adds CORPUS, --jobs, the limits, --certify, --shard and --merge to `corpus`, bound
// to `options`.
void add_corpus_options(CLI::App& corpus, CorpusCommandOptions& options);

// 0 when every row matched, 1 on any mismatch or error row; 128 + the signal's number
// (130 for Ctrl-C) when a signal stopped the run, after printing the rows done. Throws
// UsageError for bad options and InputError when the corpus itself, or with --merge a
// report, cannot be read or the reports do not make up one whole run.
int run_corpus_command(const CorpusCommandOptions& options);

}  // namespace ariadne::cli
