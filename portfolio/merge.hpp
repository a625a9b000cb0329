// Merging per-partition linearizations into one global order that respects real time.
#pragma once

#include <ariadne/history.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace ariadne::portfolio {

// One op of a partition's linearization, with all the merge needs of it, so that the
// merge reads each chain front to back instead of chasing an Operation pointer (a
// cache miss each, on large histories) per op.
struct ChainLink {
  std::uint64_t suffix_min_ret;  // the earliest return of this op and every op after it
  std::uint64_t call;
  std::uint32_t id;
};

// The chain of one partition's linearization (which respects real time within itself).
std::vector<ChainLink> make_chain(std::span<const Operation* const> ops_in_order);

// Returns all ops of the chains as one sequence of op ids that respects real time
// across chains too.
std::vector<std::uint32_t> merge_chains(const std::vector<std::vector<ChainLink>>& chains);

// make_chain of each, then merge_chains.
std::vector<std::uint32_t> merge_linearizations(const std::vector<std::vector<const Operation*>>& chains);

}  // namespace ariadne::portfolio
