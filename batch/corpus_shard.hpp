// `ariadne corpus --shard I/N`: which rows of a corpus one of N machines checks, and
// what its report must carry so that `corpus --merge` can tell that N reports are the
// N disjoint parts of one run, checked the same way. Shards are 0-based, as Slurm's
// SLURM_ARRAY_TASK_ID (with --array=0-<N-1>) and Kubernetes' JOB_COMPLETION_INDEX
// count them, so a job script passes the index through unchanged.
#pragma once

#include "answer/shard.hpp"
#include "batch/corpus_rows.hpp"

#include <ariadne/check.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::batch {

// The 0-based positions, in the whole corpus's row order, of the rows shard `spec`
// checks: every count-th row starting at index. Round-robin by position gives every
// shard the same number of rows, give or take one, and spreads a family of slow
// files (which sit together in the sorted row order) over all the shards.
std::vector<std::size_t> shard_positions(std::size_t corpus_rows, answer::ShardSpec spec);
// How many rows that is, without listing them.
std::size_t shard_row_count(std::size_t corpus_rows, answer::ShardSpec spec);

// A fingerprint of the whole corpus, the same on every machine that sees the same
// files: each row's name, model, expected verdict and file size, in row order, hashed
// with 64-bit FNV-1a. Two shards whose digests differ did not read the same corpus.
// The sizes catch a file changed between machines at the cost of one stat per row;
// the contents themselves are not read, which would cost every shard the I/O of all.
std::string corpus_digest(const std::vector<CorpusRow>& rows);

// Everything a shard report says about what it is part of. Two reports merge only if
// all but `spec.index` agree.
struct ShardIdentity {
  answer::ShardSpec spec;
  std::size_t corpus_rows = 0;
  std::string corpus_digest;
  // The options a row's verdict depends on, in canonical form (an engine name, seconds,
  // bytes), so "2GiB" and "2048MiB" agree; --jobs does not change a verdict and is
  // left out, so each machine may use its own core count.
  std::string engine;
  double timeout_seconds = 0;
  std::uint64_t memory_limit = 0;
  bool certify = false;
  Consistency consistency = Consistency::linearizable;
  std::string version;  // ariadne's own version: a newer one may answer differently
};

ShardIdentity make_shard_identity(answer::ShardSpec spec, const std::vector<CorpusRow>& all_rows,
                                  const CheckOptions& options, bool certify);

}  // namespace ariadne::batch
