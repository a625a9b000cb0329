// One interface in front of every solver back-end (CaDiCaL, Z3), so the solver
// engine drives them alike: load a formula, solve under a stop request, read the
// model, read which constraint groups a refutation needed.
#pragma once

#include "encoder/formula.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ariadne::solvers {

enum class SolveResult : std::uint8_t { satisfiable, unsatisfiable, stopped };

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;  // "cadical", "z3"
  // Whether order atoms come out transitive by construction (integer positions), so
  // no cycle can appear among them, or must be made transitive by cutting cycles.
  virtual bool transitive_order() const = 0;
  // Loads a formula. With track_groups, every constraint group is guarded by an
  // assumption, so failed_groups() can name the groups a refutation needed.
  virtual void load(const encoder::Formula& formula, bool track_groups) = 0;
  // Adds a clause over the formula's variables (a cycle cut), kept for later solves.
  virtual void add_clause(std::span<const encoder::Literal> clause) = 0;
  virtual SolveResult solve() = 0;
  // After satisfiable: the value of a literal of the formula.
  virtual bool value(encoder::Literal literal) const = 0;
  // After satisfiable, solvers with transitive_order(): each op's integer position.
  virtual std::optional<std::vector<std::int64_t>> positions() const { return std::nullopt; }
  // After unsatisfiable with track_groups: the groups whose assumptions failed.
  virtual std::vector<std::uint32_t> failed_groups() const = 0;
  // Incremental use, one loaded formula asked many questions (minimal cores): literals
  // of the formula assumed on the next solve() only, and after it answered
  // unsatisfiable, whether the refutation needed the assumption `literal`. CaDiCaL
  // takes them; the other back-ends throw logic_error.
  virtual void assume_next(std::span<const encoder::Literal> literals);
  virtual bool failed(encoder::Literal literal) const;
  // Thread-safe: makes a running solve() return `stopped` soon, and every later one
  // at once. An interrupt is final, so one that lands between two solves is not lost.
  virtual void interrupt() = 0;
  // Makes solve() also poll `should_stop` and return `stopped` once it says so, for
  // callers without a referee thread to call interrupt() (a deadline, say). Back-ends
  // that cannot poll ignore it.
  virtual void stop_when(std::function<bool()> should_stop) { (void)should_stop; }
  // Makes load() also poll `over_budget` as it goes and, once it says so, stop early as
  // an interrupt would. Loading is where a solver's memory grows fastest (Z3 takes
  // about a hundred times the formula's own size, and doubles its tables at once), and
  // nothing else can look at it meanwhile. Back-ends that cannot poll ignore it.
  virtual void stop_loading_when(std::function<bool()> over_budget) { (void)over_budget; }
  // An estimate of the memory the solver holds, for --memory-limit.
  virtual std::size_t memory_bytes() const = 0;
  // What load(formula) would take, estimated before loading: a solver sizes its
  // per-variable tables in one step that nothing can interrupt, so a formula too
  // large for what is left must be refused before it starts. 0 when unknown.
  virtual std::size_t load_bytes_estimate(const encoder::Formula& formula) const {
    (void)formula;
    return 0;
  }
};

std::unique_ptr<Solver> make_cadical_solver();
std::unique_ptr<Solver> make_z3_solver();
// Z3's own ceiling on its memory, process-wide (its global memory_max_size): past it,
// Z3 fails its call with "out of memory". For a process that runs one Z3 solver only
// (isolated_decision.hpp).
void limit_z3_memory(std::uint64_t bytes);

}  // namespace ariadne::solvers
