// `ariadne corpus --merge REPORT.json...`: joining the --json reports of the N shards
// of a corpus run (corpus --shard I/N) back into the rows, outcomes and times of one
// unsharded run, so the merged table, totals and exit status are the ones a single
// machine would have given. A merge that could silently differ from that run is
// refused instead: a shard missing or given twice, shards of different N, of a
// different corpus, checked with different options or by another ariadne version, a
// shard cut short by a signal, and a report that is not well-formed.
#pragma once

#include "batch/corpus_report.hpp"
#include "batch/corpus_rows.hpp"

#include <string>
#include <vector>

namespace ariadne::batch {

struct MergedCorpus {
  std::string corpus;                   // as shard 0's run named it
  std::vector<CorpusRow> rows;          // the whole corpus, in its row order
  std::vector<CorpusOutcome> outcomes;  // one per row
  double wall_ms = 0;                   // the shards' wall times, summed
  MergeSummary summary;
  // The condition the shards checked under (their options' "consistency"; every shard
  // has the same options, or the merge is refused).
  Consistency consistency = Consistency::linearizable;
};

// Reads and checks every report. Throws InputError, naming the report (with
// line:column for malformed JSON) or, for a missing shard, the shards that were given.
MergedCorpus merge_shard_reports(const std::vector<std::string>& report_paths);

}  // namespace ariadne::batch
