// The first operation that cannot be linearized, as Knossos reports it: the op whose
// completion turns the history read so far from linearizable into not.
#pragma once

#include <ariadne/model.hpp>

#include "search/search_engine.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ariadne::refute {

struct FirstFailure {
  const Operation* op = nullptr;               // its completion is the first event no order survives
  std::size_t linearizable_prefix_events = 0;  // events before that completion
};

// `sub` is a partition already known not to be linearizable. Returns nullopt when the
// search for the first failure runs past `step_budget` model steps or is stopped.
// `refuting_ops` (indices into sub.ops: the refuting engine's own, if it named some)
// say where to look first: the prefix that holds them all is checked, and if it is
// refuted the search gallops back from its end (see first_failure.cpp).
std::optional<FirstFailure> find_first_failure(const search::SubHistory& sub, const Model& model,
                                               search::MemoryBudget& memory, const search::StopSignal& stop,
                                               std::uint64_t step_budget,
                                               std::span<const std::uint32_t> refuting_ops = {});

// The longest linearizable prefix: every op invoked before `failure`'s completion,
// those still open then as crashed, in an order that linearizes them (op ids), or
// nullopt when the search runs past `step_budget` or is stopped.
std::optional<std::vector<std::uint32_t>> linearize_prefix(const search::SubHistory& sub, const Model& model,
                                                           const FirstFailure& failure, search::MemoryBudget& memory,
                                                           const search::StopSignal& stop, std::uint64_t step_budget);

}  // namespace ariadne::refute
