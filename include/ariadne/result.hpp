// What a check answers: the verdict and its evidence (a witness order, or a core with
// the facts that bind it), per key for independent models, and why when unknown.
// The vocabulary every layer shares; check() (check.hpp) is what produces it.
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne {

// unknown is an answer, not a failure: a limit was reached first (CheckResult::reason).
enum class Verdict : std::uint8_t { linearizable, not_linearizable, unknown };
std::string_view verdict_name(Verdict v);  // "linearizable", "not-linearizable", "unknown"
// The verdict as the condition names it: linearizable's names, or
// "sequentially-consistent" / "not-sequentially-consistent" under both sequential
// conditions (Verdict::linearizable then means the condition holds); "unknown" either
// way.
std::string_view verdict_name(Verdict v, Consistency c);

// Real-time order between two ops of a core: `before` completed before `after` was
// invoked (op ids).
struct RealTimeFact {
  std::uint32_t before = 0;
  std::uint32_t after = 0;
};

// The part an op plays in CheckResult::why, the violation in one sentence.
enum class WhyRole : std::uint8_t {
  refused,  // the op whose result no order explains (the stale read, the dequeue out of order)
  source,   // an op that could have supplied what it observed, ruled out by the sentence
  cause,    // an op that rules it out (the write that overwrote, the earlier enqueue)
  late,     // an op that began only after the refused op completed
  context,  // the rest of the core: needed for the proof, not named by the sentence
};
std::string_view why_role_name(WhyRole role);  // "refused", "source", "cause", "late", "context"

struct WhyOp {
  std::uint32_t op = 0;  // op id
  WhyRole role = WhyRole::context;
};

// One key's answer, when the model is an independent one (make_independent_model).
struct KeyResult {
  Value key;
  Verdict verdict = Verdict::unknown;
  std::size_t operations = 0;  // the key's ops
  double elapsed_ms = 0;       // deciding the key (its verdict, not its core)
  std::string engine = {};     // the engine that decided it
  std::string reason = {};     // why unknown
};

// How the engines' race went, for the report and for tuning: set when some partition
// went to the race (--engine auto, or a solver engine run alone). Diagnostics, which
// change as the race does; the verdict and its evidence (CheckResult) are the API.
struct RaceDiagnostics {
  // The engines that entered the race that decided the answer.
  std::vector<std::string> entrants = {};
  // How long the losers of the slowest race took to stop once it had its answer.
  double losers_stopped_ms = 0;
  std::string slowest_loser = {};
  // The engines that gave up on their own ("smt: unsupported: ...").
  std::vector<std::string> withdrawals = {};
};

// What check() found. Op ids throughout are Operation::id, the positions of the
// invocation events in the recorded history (see history.hpp).
struct CheckResult {
  // The condition decided (CheckOptions::consistency). Under the sequential ones,
  // Verdict::linearizable reads "sequentially consistent", the linearization is the
  // witness order, the core keeps program order instead of real time, and
  // core_real_time holds the program-order facts among the core's ops.
  Consistency consistency = Consistency::linearizable;
  Verdict verdict = Verdict::unknown;
  std::string engine;          // the engine that produced the answer, by engine_name()
  std::size_t operations = 0;  // history.ops.size()
  double elapsed_ms = 0;       // wall time of the whole call
  // Not linearizable: when the verdict was known, before the search for failing_op.
  double verdict_ms = 0;
  // Linearizable: every :ok op and each crashed op that took effect, in order (op ids).
  std::vector<std::uint32_t> linearization;
  // Not linearizable: a core S, op ids in ascending order. Keep every op of S as
  // recorded and turn every other op into a crashed op invoked before everything else
  // (it may take effect anywhere, or never): that relaxed history is still not
  // linearizable, so S alone proves the history wrong. When core_minimal, dropping any
  // one op of S from it makes the relaxed history linearizable.
  std::vector<std::uint32_t> core;
  bool core_minimal = false;
  double core_ms = 0;  // time spent finding and shrinking the core
  // The real-time facts among the core's ops, transitively reduced.
  std::vector<RealTimeFact> core_real_time;
  // Plain words: the core's ops, the facts that bind them, and why no order works.
  std::string explanation;
  // The violation in one sentence, built from the core and the model's meaning,
  // naming ops by id, process and events (explain/why.hpp); and every op of the core,
  // and the failing op, with the part it plays in it. Empty when nothing was said (a
  // partition too large to explain, or a limit reached first).
  std::string why;
  std::vector<WhyOp> why_ops = {};
  // With CheckOptions::prefix: the ops of the longest linearizable prefix of the
  // failing partition (every op invoked before failing_op completed, open ones as
  // crashed), in an order that linearizes it: Knossos' linearizable prefix and the
  // longest partial linearization Porcupine draws.
  std::vector<std::uint32_t> prefix_linearization;
  std::string reason;  // why unknown
  // The limit that stopped some part of the check, and the phase it stopped: the
  // verdict when unknown; otherwise a later part, whose answer is then partial (no
  // failing op, a core not minimal, an explanation cut short). none if nothing was.
  Limit limit = Limit::none;
  Phase limit_phase = Phase::starting;
  std::string failing_partition;  // the key of the failing partition, as EDN
  // Not linearizable: the failing partition's ops (op ids, in call order), the ops
  // around the core that a proof relaxes (check --proof, refute/proof_writer.hpp).
  std::vector<std::uint32_t> failing_partition_ops = {};
  // Not linearizable: the op whose completion is the first event after which no order
  // exists (Knossos' failing op), when the search for it finished within its budget.
  std::optional<std::uint32_t> failing_op;
  std::size_t partitions = 1;  // 1 unless the model is partitioned (Model::is_partitioned)
  std::uint64_t steps = 0;     // model steps taken by the search, all partitions
  std::uint64_t peak_search_bytes = 0;
  // How the race went: diagnostics, not part of the stable API (RaceDiagnostics).
  RaceDiagnostics race = {};
  // Independent models only: every key's answer, in order of first appearance in the
  // history, and the EDN text of the key whose failing op, core and explanation are
  // reported above: the first key (in that order) not linearizable. The core then
  // lies within that key.
  std::vector<KeyResult> keys = {};
  std::string failing_key = {};
  // A sentence for the person reading the answer when the history looks checked the
  // wrong way (every value a [key value] tuple under a model that is not independent:
  // check with --independent); empty otherwise. A refutation's explanation then
  // starts with it too.
  std::string hint = {};
  // Answers that failed their check, each engine's answer dropped (a bug in that
  // engine), in words: a refutation its confirmation contradicted, a linearization the
  // certificate checker rejected. The check went on without that engine.
  std::vector<std::string> dropped_answers = {};
};

}  // namespace ariadne
