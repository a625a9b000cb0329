// Merging per-partition linearizations into one global order that respects real time.
#pragma once

#include <ariadne/history.hpp>

#include <cstdint>
#include <vector>

namespace ariadne::portfolio {

// Each chain is one partition's linearization (it respects real time within itself).
// Returns all ops as one sequence, as op ids, respecting real time across chains.
std::vector<std::uint32_t> merge_linearizations(const std::vector<std::vector<const Operation*>>& chains);

}  // namespace ariadne::portfolio
