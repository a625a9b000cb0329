// Shrinking a refuted partition to a minimal core (see relaxed_history.hpp for what a
// core is).
//
// Deletion-based minimisation with clause-set refinement (Marques-Silva, ISMVL 2010):
// try relaxing each op of a refuted set once; an op whose relaxation makes the
// history linearizable is necessary, and stays necessary for every subset
// (monotonicity), so one pass leaves a core from which no single op can be dropped.
//
// What makes it fast is where it starts and what each question costs:
//  - A first core. A partition of up to a few hundred ops is decided as recorded by
//    the solver, whose refutation names the ops its constraint groups needed; a
//    larger one tries windows of the ops completed last before the first failing op
//    (k of them, k growing fourfold), plus the model's companions (core_seeds.hpp).
//  - One formula for all questions (switchable_check.hpp): every op of the first
//    core is in it both as recorded and relaxed, switched by an assumption, so each
//    question is one incremental solve, and each refutation's failed assumptions
//    shrink the core at once. A short native search answers first where it can
//    (most questions have an order).
//  - Relaxed ops that cannot matter are left out of every question
//    (relevant_relaxed.hpp).
// Models without a direct encoding, and formulas too large to build quickly, fall
// back to deciding each relaxed history anew (relaxed_check.hpp), with the deletion
// pass trying ops in doubling and halving chunks.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "refute/relevant_relaxed.hpp"
#include "search/search_engine.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace ariadne::refute {

struct CoreSearch {
  std::vector<std::uint32_t> core;  // indices into the partition, ascending
  // Whether the pass finished: false when the stop signal fired first, in which case
  // `core` is still a core (its relaxed history is not linearizable), just perhaps
  // not a minimal one.
  bool minimal = false;
  std::uint64_t decisions = 0;  // relaxed histories decided
};

// `ops`: a partition known not to be linearizable, in ascending call order.
// `failing_op`: the index of its first failing op, if known. `refuting_ops`: the few
// ops the refuting engine named (SearchEngine::refuting_ops), tried before any other
// seed and, when refuted, instead of them. `relevance`: the partition's, if the
// caller has it (else it is built here). Throws std::logic_error if the partition
// turns out linearizable (engines disagree).
CoreSearch find_minimal_core(std::span<const Operation* const> ops, const Model& model,
                             std::optional<std::uint32_t> failing_op, const search::StopSignal& stop,
                             std::uint64_t memory_limit, std::span<const std::uint32_t> refuting_ops = {},
                             std::shared_ptr<const RelaxedRelevance> relevance = nullptr);

}  // namespace ariadne::refute
