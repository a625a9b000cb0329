// The rows of a corpus: which file to check, with which model, expecting which
// verdict. Two sources: an expected.tsv (`path<TAB>verdict<TAB>model`, paths relative
// to the TSV's folder) or a directory of .edn files that carry their verdict in a
// leading comment header (`; expected: <verdict>` and `; model: <spec>`), keeping
// each verdict with its data. A directory's subfolders are read too (each through
// its own expected.tsv if it has one), so a folder of families is one corpus.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ariadne::batch {

struct CorpusRow {
  std::string name;            // as the TSV wrote it, or the file name in a directory
  std::filesystem::path path;  // where to read it
  std::string model;           // a spec, e.g. "cas-register(0)"
  std::optional<Verdict> expected;
  // A directory row's `; expected-sequential:` and `; expected-sequential-per-key:`
  // headers: its verdicts under those conditions, when the file knows them.
  std::optional<Verdict> expected_sequential = {};
  std::optional<Verdict> expected_sequential_per_key = {};
  std::string error;  // non-empty: the row cannot be checked (bad header)
};

// linearizable, not-linearizable, unknown, and the sequential conditions' names
// (sequentially-consistent reads as the condition holding: Verdict::linearizable).
std::optional<Verdict> parse_verdict(std::string_view name);

// What the row should give under `consistency` (corpus --consistency): its
// `expected` under linearizability; under the sequential conditions its header's
// verdict, else what follows from the others (a linearizable history is sequentially
// consistent; a sequentially consistent one is so per key), else nullopt: unknown.
std::optional<Verdict> expected_under(const CorpusRow& row, Consistency consistency);

// A row's model spec for its history converted to `format`. JSON has no keywords, so
// converting writes them as strings; a keyword in the spec's initial state
// (`fifo-queue([:a])`, or inside `independent(fifo-queue([:a]))`) must become a
// string too (`fifo-queue(["a"])`), or the converted history would no longer match
// its own model. Other formats keep the spec.
std::string model_spec_for_format(const std::string& spec, Format format);

// One path below `dir` per row name, all different, for outputs that must not
// overwrite each other (corpus --certify, convert --corpus): the row's whole path, with ".." written
// "_up_" and an absolute path's root "_root_", so `../a/history.edn` and
// `../b/history.edn` stay apart; names that still meet (or differ only in case) get
// "~2", "~3", ... in row order.
std::vector<std::filesystem::path> unique_paths_below(const std::filesystem::path& dir,
                                                      const std::vector<std::string>& row_names);

// Reads an expected.tsv, or scans a directory. Throws InputError (with line and
// column for a malformed TSV line) when the corpus itself cannot be read; a single
// file with a malformed header becomes a row carrying an error instead.
std::vector<CorpusRow> read_corpus_rows(const std::string& corpus);

}  // namespace ariadne::batch
