// Checking a history: the one entry point engines, the command line and tests share.
//
//   ariadne::History history = ariadne::build_history(ariadne::read_events(path), *model);
//   ariadne::CheckResult result = ariadne::check(history, *model, {.timeout_seconds = 10});
//   if (result.verdict == ariadne::Verdict::linearizable) ... result.linearization ...
//
// A verdict comes with its evidence: a linearizable history with a witness order the
// independent certificate checker has replayed, a non-linearizable one with a core of
// operations that no order explains, and unknown with the reason. docs/library.md is
// the tour; what here is stable API is said there too.
#pragma once

#include <ariadne/engine.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne {

// unknown is an answer, not a failure: a limit was reached first (CheckResult::reason).
enum class Verdict : std::uint8_t { linearizable, not_linearizable, unknown };
std::string_view verdict_name(Verdict v);  // "linearizable", "not-linearizable", "unknown"

// The brute-force engine (Engine::brute) tries every order, so it takes partitions of
// at most this many operations.
inline constexpr std::size_t kBruteForceMaxOps = 14;

// Aggregate, so designated initializers name what they change:
// CheckOptions{.timeout_seconds = 10, .jobs = 1}.
struct CheckOptions {
  Engine engine = Engine::automatic;
  double timeout_seconds = 0;                      // 0: no limit
  std::uint64_t memory_limit = 2ULL << 30;         // bytes of search memory
  unsigned jobs = 0;                               // worker threads; 0: all cores
  // Set to true from another thread to stop early; check() then returns unknown with
  // the reason "cancelled". Must outlive the call.
  const std::atomic<bool>* cancel = nullptr;
  // Not linearizable: shrink the failing partition to a minimal core (see CheckResult).
  // `ariadne corpus` turns it off, since it compares verdicts only.
  bool minimal_core = true;
  // How long shrinking may take, never past timeout_seconds. 0 (the default): as
  // long as the verdict took, ten times over, plus two seconds (kCoreBudgetFloor and
  // kCoreBudgetPerVerdict below), so the core costs what the verdict costs. A core not
  // shrunk in time is reported with core_minimal false (still a core, just perhaps
  // not a minimal one).
  double core_seconds = 0;
  // Not linearizable: also find the longest linearizable prefix and its order.
  bool prefix = false;
  // The command's limits (limits.hpp), shared with the phases around the check
  // (reading before it, proofs and reports after it). When set, its deadline, cancel
  // flag and memory limit replace timeout_seconds, cancel and memory_limit above, and
  // every part of the check (verdict, failing op, core, explanation) polls it and
  // enters its Phase. Must outlive the call.
  const Limits* limits = nullptr;
};

// The automatic core budget (CheckOptions::core_seconds 0): floor plus a multiple of
// the verdict's time.
inline constexpr double kCoreBudgetFloorSeconds = 2;
inline constexpr double kCoreBudgetPerVerdict = 10;

// Real-time order between two ops of a core: `before` completed before `after` was
// invoked (op ids).
struct RealTimeFact {
  std::uint32_t before = 0;
  std::uint32_t after = 0;
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

// What check() found. Op ids throughout are Operation::id, the positions of the
// invocation events in the recorded history (see history.hpp).
struct CheckResult {
  Verdict verdict = Verdict::unknown;
  std::string engine;       // the engine that produced the answer, by engine_name()
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
  // With CheckOptions::prefix: the ops of the longest linearizable prefix of the
  // failing partition (every op invoked before failing_op completed, open ones as
  // crashed), in an order that linearizes it: Knossos' linearizable prefix and the
  // longest partial linearization Porcupine draws.
  std::vector<std::uint32_t> prefix_linearization;
  std::string reason;        // why unknown
  // The limit that stopped some part of the check, and the phase it stopped: the
  // verdict when unknown; otherwise a later part, whose answer is then partial (no
  // failing op, a core not minimal, an explanation cut short). none if nothing was.
  Limit limit = Limit::none;
  Phase limit_phase = Phase::starting;
  std::string failing_partition;  // the key of the failing partition, as EDN
  // Not linearizable: the op whose completion is the first event after which no order
  // exists (Knossos' failing op), when the search for it finished within its budget.
  std::optional<std::uint32_t> failing_op;
  std::size_t partitions = 1;  // 1 unless the model is partitioned (Model::is_partitioned)
  std::uint64_t steps = 0;   // model steps taken by the search, all partitions
  std::uint64_t peak_search_bytes = 0;
  // Set when some partition went to the race (--engine auto, or a solver engine run
  // alone): the engines that entered the race that decided the answer, how long the
  // losers of the slowest race took to stop once it had its answer, and the engines
  // that gave up on their own ("smt: unsupported: ...").
  std::vector<std::string> race_entrants;
  double losers_stopped_ms = 0;
  std::string slowest_loser;
  std::vector<std::string> withdrawals;
  // Independent models only: every key's answer, in order of first appearance in the
  // history, and the EDN text of the key whose failing op, core and explanation are
  // reported above: the first key (in that order) not linearizable. The core then
  // lies within that key.
  std::vector<KeyResult> keys = {};
  std::string failing_key = {};
};

// Decides the history, which build_history() made with the same model. Every
// linearizable answer has been replayed by the independent certificate checker before
// it is returned; a certificate that fails throws InternalError (a bug, never a wrong
// verdict). Limits and cancellation give unknown, never an exception.
//
// check() may run on several threads at once, for different histories or the same
// one: it keeps no state between calls, and every thread it starts has been joined
// when it returns.
CheckResult check(const History& history, const Model& model, const CheckOptions& options);

// The independent certificate checker check() runs on its own witnesses, for a witness
// from anywhere else (a file, another checker): nullopt when `order` (op ids) is a
// linearization of `history` under `model`, that is every :ok op (and every failed op
// the model keeps as an observation) exactly once, crashed ops at most once, no
// unknown id, real-time order respected, and the model reproducing every observed
// result; otherwise a sentence saying what is wrong.
std::optional<std::string> verify_linearization(const History& history, const Model& model,
                                                std::span<const std::uint32_t> order);

}  // namespace ariadne
