// How a check may run: its engine, limits, threads and which parts of a refutation
// it computes. check() (check.hpp) takes it.
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/engine.hpp>
#include <ariadne/limits.hpp>

#include <atomic>
#include <cstdint>

namespace ariadne {

// Aggregate, so designated initializers name what they change:
// CheckOptions{.timeout_seconds = 10, .jobs = 1}.
struct CheckOptions {
  // The condition to decide (consistency.hpp). Under the sequential ones the engines
  // that know only real time (wgl, jit, unique) are not run: the program-order search
  // and the solvers decide, and `engine` may name only those or brute.
  Consistency consistency = Consistency::linearizable;
  Engine engine = Engine::automatic;
  double timeout_seconds = 0;                        // 0: no limit
  std::uint64_t memory_limit = kDefaultMemoryLimit;  // bytes of search memory
  // Threads the check may run at once, never more than its limits' jobs(); 0: all of
  // those (without `limits`, available_cpus(): the CPUs the process may run on).
  unsigned jobs = 0;
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
  // The verdict alone: a refutation, confirmed as ever, is not described (no failing
  // op, core, explanation or sentence), which can cost many times the verdict.
  // `ariadne corpus` sets it, since it compares verdicts.
  bool verdict_only = false;
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

}  // namespace ariadne
