// `ariadne cross-check`: every engine on every history of one or more corpora, as a
// referee. A row is in trouble when two engines give opposite definite verdicts, when
// a definite verdict contradicts the corpus' expected one, when an engine fails, or
// when a certificate does not replay: each linearizable answer's witness is replayed
// by the witness checker, and each refuted row gets a minimal core and a DRAT proof
// that is written out and verified from the files (corpus/row_certificate.hpp). With
// --import, another checker's verdicts (imported_verdicts.hpp) are compared with the
// expected and certified ones too.
#pragma once

#include "batch/corpus_rows.hpp"
#include "batch/imported_verdicts.hpp"
#include "cli/byte_size.hpp"
#include "cli/option_values.hpp"

#include <ariadne/check.hpp>

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ariadne::cli {

struct CrossCheckOptions {
  std::vector<std::string> corpora;  // expected.tsv files or directories
  std::string engines = "wgl,jit,sat,smt,brute,auto";
  double timeout_seconds = 10;                             // per engine and file
  std::string memory_limit = default_memory_limit_text();  // per engine and file
  unsigned jobs = 0;                                       // files at once; 0: one per core
  bool proofs = true;                                      // certify refutations with a core and a proof
  std::optional<std::string> import_checker;               // "knossos" or "porcupine"; --import sets both or neither
  std::optional<std::string> import_results;               // their results
  bool json = false;
};

// One engine's answer on one file.
struct EngineRun {
  Engine engine = Engine::automatic;
  bool applicable = true;          // brute force: only partitions of at most 14 ops
  std::optional<Verdict> verdict;  // nullopt when the engine failed (see error)
  double ms = 0;
  std::string reason;             // why unknown
  std::string error;              // the engine threw: a bug
  bool witness_replayed = false;  // linearizable: its order replayed
};

// A refuted row's certificate, as cross-check verified it.
struct RefutationCheck {
  bool attempted = false;
  bool certified = false;
  std::size_t core_size = 0;
  bool core_minimal = false;
  double ms = 0;
  std::string problem;
  // The certifying run was stopped by the per-run limits (or Ctrl-C): not certified,
  // and not a fault found either.
  bool stopped_by_limit = false;
  // No DRAT proof could be written: the core's relaxed history is past what the
  // encoder takes. The refutation rests on its minimal core alone: reported, counted
  // apart, and not a fault found.
  bool proof_beyond_encoder = false;
};

struct CrossCheckRow {
  std::size_t corpus = 0;  // index into CrossCheckOptions::corpora
  batch::CorpusRow row;
  std::vector<EngineRun> runs;  // in the order of the engines asked for
  RefutationCheck refutation;
  std::optional<Verdict> imported;  // --import: their verdict (combined_verdict); nullopt when absent
  std::vector<batch::ImportedResult> imported_results;  // and each of their analyzers' results
  // When they contradict the engines: the difference in reading that explains it, if
  // one is found (reading_difference.hpp).
  std::string reading_difference;
  bool imported_missing = false;
  std::string error;                  // the file could not be read
  std::vector<std::string> problems;  // disagreements and failed replays, in words
  // The verdict the engines agree on, when at least one decided and none contradicts.
  std::optional<Verdict> agreed;
};

struct CrossCheckResult {
  std::vector<Engine> engines;
  std::vector<CrossCheckRow> rows;
  std::optional<batch::ImportedVerdicts> imported;
  double wall_ms = 0;
};

// Adds CORPUS..., the engines, the limits, --import and --json to `cross`, bound to
// `options`.
void add_cross_check_options(CLI::App& cross, CrossCheckOptions& options);

// Exit 0 when no row has a problem, 1 otherwise. Throws UsageError for bad options
// and InputError when a corpus or the imported results cannot be read.
int run_cross_check_command(const CrossCheckOptions& options);

}  // namespace ariadne::cli
