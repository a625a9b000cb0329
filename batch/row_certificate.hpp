// A certified answer for one corpus row, written where another checker's author can
// read it: the witness of a linearizable history, or the minimal core, explanation
// and proof of a non-linearizable one, each replayed before it counts. `ariadne
// corpus --certify DIR` writes one per row; `ariadne cross-check` makes one per
// refuted row and keeps it only long enough to verify it.
#pragma once

#include "batch/corpus_rows.hpp"

#include <ariadne/check.hpp>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace ariadne::batch {

struct RowCertificate {
  std::optional<Verdict> verdict;  // nullopt: the row could not be checked (see problem)
  std::string engine;
  // `check --json` output for the row (its witness, or its core and explanation):
  // `ariadne verify-witness FILE --model M --witness <json>` replays a witness.
  std::filesystem::path answer_json;
  // Not linearizable: the proof directory, checked by `ariadne verify-proof DIR`.
  std::filesystem::path proof_dir;
  std::size_t core_size = 0;
  bool core_minimal = false;
  bool proof_covers_whole_partition = false;
  // The witness replayed, or the proof verified: the answer is certified.
  bool certified = false;
  std::string problem;  // why not certified: unknown verdict, unreadable row, failed replay
  // Set when a limit (the row's --timeout, --memory-limit, Ctrl-C) stopped reading or
  // the proof: the row is not certified, and that is no fault of its answer.
  Limit stopped_by = Limit::none;
  // Not linearizable, and the core's relaxed history is past what the encoder takes
  // (refute::ProofBeyondEncoder): no proof could be written. The refutation rests on its
  // minimal core alone; not certified, and no fault of its answer either.
  bool proof_beyond_encoder = false;
  double check_ms = 0;
  double certify_ms = 0;
};

// Checks the row with `options` (a minimal core is shrunk for a refutation), writes
// `<stem>.json` and, when not linearizable, the proof directory `<stem>.proof/`, then
// replays the witness or verifies the proof from the files alone. `stem` is a path
// without extension, e.g. DIR/jepsen/etcd_000.log; its folder is created. Never
// throws for a bad row: the problem is recorded instead.
// `proof_budget` bounds the solver on the core's formula (then the proof covers the
// whole failing partition).
RowCertificate certify_row(const CorpusRow& row, const CheckOptions& options, const std::filesystem::path& stem,
                           std::chrono::steady_clock::duration proof_budget = std::chrono::seconds(20));

}  // namespace ariadne::batch
