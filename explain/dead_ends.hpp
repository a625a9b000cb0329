// The dead ends of a core: the points where, in some order real time allows, no
// remaining op of the core can take effect, with the state that refused them and the
// shortest run of ops leading there. `--explain` lists a few; the one-sentence "why"
// (explain/why.hpp) reads them when no single fact of the model explains the core.
//
// The search orders the core's ops as recorded together with the other ops of the
// partition that could change the state, relaxed as the refutation relaxes them (they
// may take effect anywhere, or never). Past kMaxSearchedOps ops in all, further
// others are left out (and said to be); the solver's refutation still covers them.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include "refute/relaxed_history.hpp"

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ariadne::refute {
class RelaxedRelevance;  // refute/relevant_relaxed.hpp
}

namespace ariadne::explain {

// The dead-end search orders at most this many ops: the core's and relaxed others.
inline constexpr std::size_t kMaxSearchedOps = 20;

// The ops the search orders: the core's, as recorded, and those of the other ops that
// could change the state, relaxed.
struct SearchOps {
  refute::RelaxedHistory relaxed;          // ops in ascending call order
  std::vector<const Operation*> recorded;  // per relaxed op: the op as recorded, for naming
  std::size_t others = 0;                  // relaxed ops among them
  std::size_t others_left_out = 0;         // could change the state, but over the size limit
};

struct DeadEnd {
  std::vector<std::uint32_t> path;  // the shortest run of ops there (indices into SearchOps)
  std::uint32_t blocked = 0;        // the op that cannot take effect (index into SearchOps)
  std::uint32_t done = 0;           // the ops done, as a bit set over SearchOps
  std::string state;                // the refusing state, described by the model
};

struct DeadEnds {
  SearchOps ops;
  // Some order linearizes every op that must take effect: the core is a core only
  // with relaxed ops left out of the search (possible only when others_left_out).
  bool ordered = false;
  bool cut_short = false;    // stopped at its state limit or the deadline: only some listed
  bool out_of_time = false;  // stopped at the deadline or a limit
  std::size_t dropped = 0;   // dead ends found but not kept
  // Fewest ops outside the core first, then the shortest runs: they read most easily.
  std::vector<DeadEnd> ends;
};

// Requires core.size() + (others that matter) to fit the search; callers keep cores
// at most kMaxExplainedOps (explanation.hpp).
DeadEnds find_dead_ends(const Model& model, std::span<const Operation* const> core,
                        std::span<const Operation* const> partition, const refute::RelaxedRelevance& relevance,
                        std::chrono::steady_clock::time_point deadline, const Limits* limits);

}  // namespace ariadne::explain
