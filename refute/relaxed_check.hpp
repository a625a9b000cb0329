// Deciding relaxed histories, the one question core minimisation keeps asking: is
// the partition still not linearizable when only the ops of S keep their intervals
// and results?
//
// The SAT back-end answers it on the encoder's formula, with every constraint group
// tracked, so that a refutation also says which kept ops its groups mention: a hint
// that the core may be smaller still (clause-set refinement). The hint is only a
// hint: relaxing an op that no needed group mentions can still make room for a new
// order (a relaxed write may now come before a read it used to follow), so callers
// re-decide before trusting it. Models the encoder does not handle fall back to the
// native WGL search, without hints.
//
// Verdicts need no certificate here: a core is reported only after the final relaxed
// history was refuted, and the tests re-check each core's minimality with witnesses
// the certificate checker replays.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "base/limits_ledger.hpp"
#include "refute/relaxed_history.hpp"
#include "refute/relevant_relaxed.hpp"
#include "search/search_engine.hpp"
#include "solvers/solver_engine.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace ariadne::refute {

enum class RelaxedVerdict : std::uint8_t { linearizable, not_linearizable, undecided };

struct RelaxedDecision {
  RelaxedVerdict verdict = RelaxedVerdict::undecided;
  // Refuted by the solver: the kept ops (indices into the partition) that the needed
  // constraint groups mention. hinted is false when no hint is available.
  bool hinted = false;
  std::vector<std::uint32_t> needed;
  // Linearizable: the witness, as ids of the ops of the partition, in order.
  std::vector<std::uint32_t> linearization;

  // Linearizable, with the witness `order` (indices into relaxed.ops, as a search or a
  // solver over relaxed.pointers() returns it) named by the partition's ids.
  static RelaxedDecision ordered(std::span<const std::uint32_t> order, const RelaxedHistory& relaxed) {
    RelaxedDecision decision;
    decision.verdict = RelaxedVerdict::linearizable;
    decision.linearization.reserve(order.size());
    for (const std::uint32_t i : order) decision.linearization.push_back(relaxed.original_id[i]);
    return decision;
  }
};

// What a solver deciding relaxed histories answers to, for this checker and the
// switchable one (switchable_check.hpp) alike.
struct RelaxedSolverLimits {
  const search::StopSignal& stop;
  std::uint64_t memory_limit;

  bool stopped() const { return stop.check() != search::StopSignal::Why::none; }
  // Whether a formula of `bytes` fits: within memory_limit, and within what the
  // command's resident-memory measure has left (EncodeOptions::memory_ok).
  bool formula_fits(std::size_t bytes) const {
    return bytes <= memory_limit && (!stop.limits || base::would_fit(*stop.limits, bytes));
  }
  // Whether loading `formula` into a solver, `bytes` by its own estimate, fits.
  bool load_fits(std::size_t bytes, const encoder::Formula& formula) const {
    return bytes + formula.memory_bytes() <= memory_limit && (!stop.limits || base::would_fit(*stop.limits, bytes));
  }
  // Hooks for deciding `formula` on `solver`: stop at the stop signal, or once what is
  // left before the deadline would not cover freeing what the solver holds (`held`,
  // kept up to date here, must outlive the hooks); stay within the memory limits.
  solvers::FormulaHooks hooks(const solvers::Solver& solver, const encoder::Formula& formula,
                              std::atomic<std::uint64_t>& held) const;
};

class RelaxedChecker {
 public:
  // `ops`: one partition in ascending call order. All arguments must outlive the
  // checker.
  // `relevance`: the partition's, when the caller has it already (it costs a pass
  // over the partition, relaxed and described, which the explanation needs too).
  RelaxedChecker(std::span<const Operation* const> ops, const Model& model, const search::StopSignal& stop,
                 std::uint64_t memory_limit, std::shared_ptr<const RelaxedRelevance> relevance = nullptr);

  // The solver first, for its hint.
  RelaxedDecision decide(const std::vector<bool>& keep);
  // The looks first (look()), which settle most core questions of register and mutex
  // histories in microseconds; then the native search and the solver
  // racing each other (decision_race.hpp): some relaxed histories take WGL a second
  // and CDCL a millisecond, others the other way round.
  // With `budget`, gives up (undecided) after that long.
  RelaxedDecision decide_quickly(const std::vector<bool>& keep,
                                 std::optional<std::chrono::steady_clock::duration> budget = std::nullopt) {
    return decide_quickly(relaxed_of(keep), budget);
  }
  // The same for a relaxed history already made (relaxed_of()): a caller asking
  // several of these about one candidate makes it once (on a partition of a million
  // ops, each takes a pass over all of them).
  RelaxedDecision decide_quickly(const RelaxedHistory& relaxed,
                                 std::optional<std::chrono::steady_clock::duration> budget = std::nullopt);
  // The closure look, then the native search alone, giving up (undecided) after
  // `step_budget` model steps: for callers that have a solver of their own to fall
  // back on.
  RelaxedDecision decide_by_search_only(const RelaxedHistory& relaxed, std::uint64_t step_budget) {
    return decide_by_search(relaxed, step_budget, stop_, memory_limit_, true);
  }
  // The looks that need no search: a mutex's sweep (relaxed_mutex.hpp), which decides
  // its relaxed histories exactly in microseconds; else the closure look
  // (relaxed_closure.hpp).
  RelaxedDecision look(const RelaxedHistory& relaxed);
  // Whether the closure look still applies to this partition.
  bool closure_applies() const { return closure_applies_; }
  std::uint64_t decisions() const { return decisions_; }
  const RelaxedRelevance& relevance() const { return *relevance_; }

  // The relaxed history of `keep`, less the relaxed ops that cannot matter; counts a
  // decision.
  RelaxedHistory relaxed_of(const std::vector<bool>& keep);
  // The native search on `relaxed` (relaxed_of()) with no step limit, until `stop`
  // fires, in `memory_limit` bytes: for racing a solver on another thread, so no
  // other call may run on this checker meanwhile.
  RelaxedDecision search_until_stopped(const RelaxedHistory& relaxed, const search::StopSignal& stop,
                                       std::uint64_t memory_limit);

 private:
  // With `stop` and `memory_limit` given, so that a race's two sides can each have
  // their own. Answers undecided, setting *unsupported, when the model has no direct
  // encoding for the relaxed history; then the solver is not tried again until a
  // relaxed history keeps at most half as many ops (worth_encoding).
  RelaxedDecision decide_by_solver(const RelaxedHistory& relaxed, const search::StopSignal& stop,
                                   std::uint64_t memory_limit, bool* unsupported);
  bool worth_encoding(const RelaxedHistory& relaxed) const;
  // Gives up (undecided) after `step_budget` model steps; 0 means no limit.
  RelaxedDecision decide_by_search(const RelaxedHistory& relaxed, std::uint64_t step_budget,
                                   const search::StopSignal& stop, std::uint64_t memory_limit, bool closure_first);
  // Undecided once a closure grew too large for the partition's model.
  RelaxedDecision look_by_closure(const RelaxedHistory& relaxed, const search::StopSignal& stop,
                                  std::uint64_t memory_limit);

  std::span<const Operation* const> ops_;
  const Model& model_;
  std::shared_ptr<const RelaxedRelevance> relevance_;  // which relaxed ops each decision leaves out
  const search::StopSignal& stop_;
  std::uint64_t memory_limit_;
  // The fewest kept ops of a relaxed history the encoder found unsupported; SIZE_MAX
  // while none was. Written by a race's solver side, hence the mutex.
  std::size_t unencodable_kept_ = SIZE_MAX;
  mutable std::mutex unencodable_mutex_;
  bool closure_applies_ = true;  // false once a closure grew too large (relaxed_closure.hpp)...
  int look_misses_ = 0;          // ...or this many looks in a row answered nothing
  std::uint64_t decisions_ = 0;
};

}  // namespace ariadne::refute
