// decide_formula() in a child process of its own, for a back-end that cannot be relied
// on to stop when asked.
//
// Z3 acts on an interrupt only at the points where it looks for one, and some of its
// phases look rarely or never: on a real Jepsen Redis history of 8,846 ops
// (shared/corpus/reported/redis-register-8846-ops.edn) Z3_solver_check ran for more
// than 100 s after its interrupt, reaching 877 MiB, with a 5 s --timeout. A thread
// cannot be stopped from outside, but a process can: the solve runs in a forked
// child, and the parent, which polls the limits every few milliseconds, kills it
// with SIGKILL when a limit is reached or the race is over. The child's memory is
// measured (its resident size beyond what it shared with the parent when forked), so
// the solver's memory counts against --memory-limit with a real measure, and the
// back-end's own memory ceiling is set from what the budget has left.
//
// The child only solves: the formula is encoded by the parent before the fork (and
// its encoding polls the limits), and the child hands back the outcome and the
// linearization through a pipe. It dies with its parent (PR_SET_PDEATHSIG), so a
// parent killed outright leaves no solver behind.
#pragma once

#include "encoder/formula.hpp"
#include "solvers/solver.hpp"
#include "solvers/solver_engine.hpp"

#include <cstdint>
#include <functional>

namespace ariadne::solvers {

struct IsolationHooks {
  // Polled every few milliseconds while the child runs; true kills it: `stopped`.
  std::function<bool()> should_stop;
  // Told the child's own memory (bytes beyond what it shares with the parent) as it
  // changes; false kills it: `out_of_memory`.
  std::function<bool(std::uint64_t child_bytes)> memory_ok;
  // The most the child's solver may hold, handed in the child to the back-end's own
  // ceiling (limit_z3_memory) when both are set.
  std::uint64_t memory_ceiling = 0;
  void (*set_memory_ceiling)(std::uint64_t bytes) = nullptr;
};

// Runs decide_formula(*make_solver(), formula) in a child process. Throws
// std::runtime_error when no child can be made or it dies on its own (a give-up),
// std::logic_error when the child's decision loop found a bug (as decide_formula).
FormulaDecision decide_formula_isolated(std::unique_ptr<Solver> (*make_solver)(), const encoder::Formula& formula,
                                        const IsolationHooks& hooks);

}  // namespace ariadne::solvers
