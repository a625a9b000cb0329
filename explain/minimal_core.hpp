// Shrinking a refuted partition to a minimal core (see relaxed_history.hpp for what a
// core is).
//
// Deletion-based minimisation [MarquesSilva10] with clause-set refinement: start
// from the whole partition, or from the ops completed by the first failing op when
// that window is already refuted; whenever the solver refutes a candidate, shrink to
// the kept ops its needed constraint groups mention (after re-deciding that smaller
// set); then try relaxing each remaining op once. An op whose relaxation makes the
// history linearizable is necessary, and stays necessary for every subset
// (monotonicity), so one pass leaves a core from which no single op can be dropped.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "search/search_engine.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ariadne::explain {

struct CoreSearch {
  std::vector<std::uint32_t> core;  // indices into the partition, ascending
  // Whether the pass finished: false when the stop signal fired first, in which case
  // `core` is still a core (its relaxed history is not linearizable), just perhaps
  // not a minimal one.
  bool minimal = false;
  std::uint64_t decisions = 0;  // relaxed histories decided
};

// `ops`: a partition known not to be linearizable, in ascending call order.
// `failing_op`: the index of its first failing op, if known. Throws
// std::logic_error if the partition turns out linearizable (engines disagree).
CoreSearch find_minimal_core(std::span<const Operation* const> ops, const Model& model,
                             std::optional<std::uint32_t> failing_op, const search::StopSignal& stop,
                             std::uint64_t memory_limit);

}  // namespace ariadne::explain
