// Deciding many relaxed histories on one formula: the incremental half of core
// minimisation (minimal_core.hpp).
//
// Shrinking a core asks, again and again, whether the partition stays refuted when
// only the ops of some S keep their recorded intervals and results (relaxed_history.hpp).
// Each S differs from the last by an op or two, yet re-encoding each one costs a
// formula and a cold solver. Here every op of a candidate set C gets both readings
// in one formula, its recorded version and its relaxed twin, switched by a selector
// literal (encoder/encode.hpp's OpSelector); the ops outside C appear only as relaxed
// twins, less those that cannot matter to any subset of C (relevant_relaxed.hpp). The
// formula is loaded into one CaDiCaL instance once, and "is S a core?" becomes one
// solve under the assumptions "the selectors of S hold", with everything learned so far
// kept. A refutation's failed assumptions name a subset of S that is refuted too (the
// solver needed no other assumption), so each refutation shrinks the core directly:
// this is assumption-based core extraction (Een and Sorensson, "An Extensible
// SAT-solver", SAT 2003: MiniSat's final conflict analysis) serving deletion-based
// minimisation with clause-set refinement (Marques-Silva, "Minimal Unsatisfiability:
// Models, Algorithms and Applications", ISMVL 2010).
//
// Why leaving a selector free means "relaxed": a model in which the recorded version
// took effect can use the twin instead, in the same place (the twin is invoked before
// everything, never completes, and may do whatever the recorded op did), so freeing a
// selector adds no model the relaxed reading lacks and loses none it has.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "encoder/formula.hpp"
#include "refute/relaxed_check.hpp"
#include "refute/relaxed_history.hpp"
#include "refute/relevant_relaxed.hpp"
#include "search/search_engine.hpp"
#include "solvers/solver.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace ariadne::refute {

class SwitchableCheck {
 public:
  // `ops`: one partition in ascending call order; `candidate`: the ops that any later
  // question may keep; `relevance`: the rules for `ops` (built once per core). Encodes
  // and loads the formula; nullptr when the model has no
  // direct encoding, the formula would not fit `memory_limit` or the command's
  // limits, encoding it takes longer than `encoding_budget`, or the stop signal fired.
  // All arguments must outlive the check.
  static std::unique_ptr<SwitchableCheck> make(std::span<const Operation* const> ops, const Model& model,
                                               const RelaxedRelevance& relevance, const std::vector<bool>& candidate,
                                               const search::StopSignal& stop, std::uint64_t memory_limit,
                                               std::chrono::steady_clock::duration encoding_budget);

  // Whether the relaxed history of `keep` (a subset of the candidate) is linearizable.
  // When refuted, `needed` lists the kept ops (partition indices, ascending) whose
  // selectors the refutation used: a subset of `keep` that is refuted too.
  // `stop` overrides the check's stop signal for this decision (a race's).
  RelaxedDecision decide(const std::vector<bool>& keep, const search::StopSignal* stop = nullptr);

  std::uint64_t decisions() const { return decisions_; }

 private:
  SwitchableCheck(const search::StopSignal& stop, std::uint64_t memory_limit)
      : stop_(stop), memory_limit_(memory_limit) {}

  const search::StopSignal& stop_;
  std::uint64_t memory_limit_;
  RelaxedHistory relaxed_;  // twins of every op not left out, then the candidate as recorded
  std::vector<std::optional<std::uint32_t>> selector_of_;  // per partition op: its selector, if a candidate
  encoder::Formula formula_;
  std::unique_ptr<solvers::Solver> solver_;
  std::uint64_t decisions_ = 0;
};

}  // namespace ariadne::refute
