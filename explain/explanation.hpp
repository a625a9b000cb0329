// A core in plain words, for `--explain` and the JSON's "explanation": which ops,
// which real-time facts bind them, and why no order of them works.
//
// The "why" comes from running the model over the core's ops in every order real time
// allows (crashed core ops may also not take effect), together with the other ops of
// the partition that could change the state, relaxed as the refutation relaxes them
// (they may take effect anywhere, or never), and collecting the dead ends: the points
// where no remaining core op can take effect, the state that refused them, and the
// shortest run of ops leading there. Past kMaxSearchedOps ops in all, further others
// are left out of the list (and said to be); the solver's refutation of the whole
// relaxed history still covers them (and --proof writes it down).
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>
#include <ariadne/result.hpp>

#include <chrono>
#include <span>
#include <string>
#include <vector>

namespace ariadne::refute {
class RelaxedRelevance;  // refute/relevant_relaxed.hpp
}

namespace ariadne::explain {

using refute::RelaxedRelevance;

struct CoreSummary {
  std::span<const Operation* const> core;           // in ascending call order
  std::span<const Operation* const> partition_ops;  // all ops of the core's partition
  std::string partition;                            // " on key 3", or empty
  bool minimal = false;
  bool shrinking_skipped = false;  // the caller asked for no core (--no-core): this is the failing partition
  // The real-time facts among the core's ops, when they were computed (facts_known);
  // for very large cores they are not, and nothing is said about them.
  bool facts_known = true;
  std::vector<RealTimeFact> facts;
  // The check's own deadline: the dead-end search stops there and says so, so that
  // explaining never takes a check past its --timeout.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  // The command's limits, polled with the deadline (Ctrl-C, the memory limit).
  const Limits* limits = nullptr;
  // The partition relaxed and described, if the core search built it: the dead-end
  // search and the reads-from words read what each relaxed op could do from it
  // instead of relaxing and describing the partition again (nullptr: they do).
  const RelaxedRelevance* relevance = nullptr;
};

// "read 1 (op 12, process 3)": what an op did, and whose it is.
std::string name_op(const Model& model, const Operation& op);

// The whole explanation, several lines, each ending in '\n'.
std::string explain_core(const Model& model, const CoreSummary& summary);

// Cores up to this many ops get the dead-end analysis; larger ones only the facts.
inline constexpr std::size_t kMaxExplainedOps = 16;
// Cores up to this many ops are listed whole and get their real-time facts and
// reads-from reasons; a larger one (a partition not shrunk) has its first ops listed.
inline constexpr std::size_t kMaxListedOps = 4 * kMaxExplainedOps;

}  // namespace ariadne::explain
