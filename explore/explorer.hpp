// `ariadne explore`: looking for a counterexample in a system design.
//
// An Explorer wraps one design (systems/) and offers the three searches of the issue:
// random trajectories (each step chosen uniformly among the successors, stopping at a
// dead end, Knossos' trajectory function [Kingsbury13]), an exhaustive bounded
// depth-first search with a visited set, and the shrinking of a counterexample to the
// shortest trajectory that still fails. All of them check the trajectory's history
// online (online_checker.hpp) as it grows, so a trajectory ends at the first operation
// no order can explain.
//
// Trajectories are recorded as the actions that fired; replay() turns them back into
// states, steps and a history, which is how counterexamples travel between searches,
// threads and the report.
#pragma once

#include "systems/system_design.hpp"

#include <ariadne/history.hpp>

#include <ariadne/limits.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::explore {

using systems::Action;

struct ExploreLimits {
  double timeout_seconds = 0;                        // 0: none
  std::uint64_t memory_limit = kDefaultMemoryLimit;  // bytes of the visited set
  const std::atomic<bool>* cancel = nullptr;         // set from outside to stop early
  // The command's limits (its whole deadline, Ctrl-C, the memory watch), polled
  // with the above; may be null.
  const Limits* limits = nullptr;
};

// Called now and then from a searching thread with the work done so far.
struct ExploreProgress {
  std::uint64_t trajectories = 0;  // random search
  std::uint64_t states = 0;        // exhaustive search: distinct states
  std::uint64_t counterexamples = 0;
};
using ProgressCallback = std::function<void(const ExploreProgress&)>;

struct RandomOptions {
  int depth = 15;
  std::uint64_t trajectories = 40000;
  std::uint64_t seed = 0;
  unsigned jobs = 0;  // 0: the CPUs the process may run on (available_cpus())
};

struct RandomReport {
  std::uint64_t trajectories = 0;  // finished (all of them unless stopped)
  std::uint64_t steps = 0;
  std::uint64_t dead_ends = 0;  // trajectories that ended early with no successor
  std::uint64_t counterexamples = 0;
  double seconds = 0;
  unsigned jobs = 1;
  std::string stopped;  // why the run ended before its budget, or empty
  // The counterexample of the lowest-numbered failing trajectory, so the report does
  // not depend on --jobs or on thread timing.
  std::optional<std::uint64_t> first_failing_trajectory;
  std::vector<Action> first_counterexample;
  systems::Tally tally;  // the design's counters, summed over final states
};

struct ExhaustiveReport {
  int depth = 0;
  std::uint64_t states = 0;       // distinct states (after renaming values) reached
  std::uint64_t transitions = 0;  // steps taken, revisits included
  std::uint64_t table_bytes = 0;
  double seconds = 0;
  bool complete = false;  // every trajectory up to `depth` steps was covered
  std::string stopped;    // why not, when not complete
  std::optional<std::vector<Action>> counterexample;
};

struct ShrinkReport {
  std::vector<Action> actions;     // the shortest failing trajectory found
  std::size_t original_steps = 0;  // before shrinking
  std::size_t after_removal = 0;   // after removing steps from the original
  bool proven_shortest = false;    // no trajectory with fewer steps fails
  std::uint64_t states = 0;        // visited while searching for shorter ones
  double seconds = 0;
  std::string stopped;  // why the search for shorter ones ended early
};

// A trajectory replayed: what the report shows.
struct Trace {
  std::vector<std::string> step_names;  // "c1 write", "coord failover-1-isolate", ...
  std::vector<systems::Step> steps;
  std::string final_state;  // describe_state() of the last state
  // The step whose events made the history non-linearizable, if one did.
  std::optional<std::size_t> failing_step;
  // The history: client events with integer processes, notes as :info events of
  // keyword processes (which checkers ignore), in step order.
  EventLog history;
  // For each event of `history`, the step it came from.
  std::vector<std::size_t> event_step;
  systems::Tally tally;  // the design's counters for the final state
};

class Explorer {
 public:
  virtual ~Explorer() = default;
  virtual std::string_view name() const = 0;
  virtual RandomReport random(const RandomOptions& options, const ExploreLimits& limits,
                              const ProgressCallback& progress) const = 0;
  // With stop_at_first, ends at the first counterexample (not necessarily the
  // shortest); otherwise covers the whole space and reports the first one found.
  virtual ExhaustiveReport exhaustive(int depth, bool stop_at_first, const ExploreLimits& limits,
                                      const ProgressCallback& progress) const = 0;
  // Requires a failing trajectory (throws std::invalid_argument otherwise).
  virtual ShrinkReport shrink(const std::vector<Action>& failing, const ExploreLimits& limits) const = 0;
  // Throws std::invalid_argument if some action is not enabled when its turn comes.
  virtual Trace replay(const std::vector<Action>& actions) const = 0;
  // The actions of a trajectory written as step names ("c1 write", "coord
  // failover-1-isolate", as reports print them). Throws UsageError naming the first
  // step that is not enabled in its turn, and the steps that are.
  virtual std::vector<Action> actions_named(const std::vector<std::string>& names) const = 0;
};

struct DesignInfo {
  std::string name;
  std::string summary;
  std::string parameters;  // "--param" names with their meaning, or empty
};

// The designs `ariadne explore` knows, for --help and --list.
std::vector<DesignInfo> design_catalogue();
// Throws UsageError for an unknown design or a parameter it does not take.
std::unique_ptr<Explorer> make_explorer(std::string_view name, const std::vector<systems::DesignParameter>& params);

}  // namespace ariadne::explore
