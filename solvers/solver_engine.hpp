// The SAT and SMT engines: a partition is encoded as a Formula, handed to a solver
// back-end, and the model decoded into a linearization, behind the same SearchEngine
// interface as the native engines so the race treats them alike.
#pragma once

#include <ariadne/model.hpp>

#include "encoder/formula.hpp"
#include "search/search_engine.hpp"
#include "solvers/solver.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ariadne::solvers {

// "sat": CaDiCaL, order atoms made transitive by cutting the cycles of each model.
// "smt": Z3, order atoms as integer difference constraints.
//
// Both ignore run()'s step budget: a solver call cannot be suspended and resumed, so
// run() returns only with a verdict, a stop, or out of memory, never `undecided`.
// A solver cannot poll the StopSignal either: the engine checks it between solver
// calls, hands it to CaDiCaL's terminator, and whoever enforces the deadline calls
// interrupt() (the race does). "smt" runs Z3 in a child process it kills when the
// StopSignal fires (isolated_decision.hpp), since Z3 does not always act on an
// interrupt. steps() counts solver calls plus cycle cuts, not model steps.
//
// When the encoder does not support the history, or the solver fails, run() returns
// `stopped` with stop_reason() == none and withdrawal_reason() saying why
// ("unsupported: ..."). `sub`, `model` and `stop` must outlive the engine.
std::unique_ptr<search::SearchEngine> make_sat_engine(const search::SubHistory& sub, const Model& model,
                                                      search::MemoryBudget& memory, const search::StopSignal& stop);
std::unique_ptr<search::SearchEngine> make_smt_engine(const search::SubHistory& sub, const Model& model,
                                                      search::MemoryBudget& memory, const search::StopSignal& stop);

// The engines' decision loop on a formula already encoded, apart from encoding so that
// the back-ends can be tested on hand-built formulas.
struct FormulaHooks {
  // Polled before every solver call; true means return `stopped`.
  std::function<bool()> should_stop;
  // Called after loading and after every solver call; false means return
  // `out_of_memory`.
  std::function<bool()> memory_ok;
  // Asked before loading with the solver's estimate of what loading takes
  // (Solver::load_bytes_estimate); false means return `out_of_memory` unloaded.
  std::function<bool(std::size_t bytes)> load_fits;
};

// What decide_formula() keeps beyond the verdict, for minimal cores and proofs.
struct DecisionRecording {
  // Guard each constraint group by an assumption, so that a refutation names the
  // groups it needed (FormulaDecision::failed_groups).
  bool track_groups = false;
  // Keep every cycle cut added (FormulaDecision::cuts_added): with them, the
  // formula's clauses alone are unsatisfiable, which a DRAT proof needs.
  bool keep_cuts = false;
};

struct FormulaDecision {
  // linearizable, not_linearizable, stopped (the hook or the solver) or out_of_memory.
  search::Outcome outcome = search::Outcome::stopped;
  std::vector<std::uint32_t> linearization;  // op indices, when linearizable
  std::uint64_t solver_calls = 0;
  std::uint64_t cuts = 0;                                 // cycle cuts added (SAT back-end)
  std::vector<std::uint32_t> failed_groups;               // with track_groups, when refuted
  std::vector<std::vector<encoder::Literal>> cuts_added;  // with keep_cuts
};

// Loads `formula` into `solver` and solves, cutting cycles for back-ends without
// transitive_order(), until a model decodes or the solver refutes. Throws
// std::logic_error if a decoded order contradicts the formula's order constraints.
FormulaDecision decide_formula(Solver& solver, const encoder::Formula& formula, const FormulaHooks& hooks = {},
                               const DecisionRecording& recording = {});

// The same loop on a formula `solver` loaded already (by an earlier decide_formula or
// decide_loaded, whose cycle cuts it keeps), under `assumptions` (literals of the
// formula, which need a back-end that takes them, Solver::assume_next): one formula,
// many questions.
// hooks.load_fits is not consulted. `cuts_per_model` caps the cycle cuts taken from
// one model (0: the engines' own cap, tuned for verdicts); a solver asked many
// questions on one formula gains from taking more at once, since the cuts stay.
FormulaDecision decide_loaded(Solver& solver, const encoder::Formula& formula,
                              std::span<const encoder::Literal> assumptions, const FormulaHooks& hooks = {},
                              const DecisionRecording& recording = {}, std::size_t cuts_per_model = 0);

}  // namespace ariadne::solvers
