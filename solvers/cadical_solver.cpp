// The CaDiCaL back-end: a formula's clauses go in as they are; order atoms are plain
// variables, made transitive by the engine cutting the cycles a model proposes
// (transitive_order() is false). Constraint groups are tracked the usual incremental
// way: one fresh selector variable per group, `-selector` appended to each of the
// group's clauses, every selector assumed on every solve, and the selectors CaDiCaL
// reports as failed name the groups the refutation needed.
#include "solvers/solver.hpp"

#include <algorithm>
#include <cadical.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

namespace ariadne::solvers {

namespace {

// CaDiCaL polls its terminator during search; this one answers from a flag that
// another thread may set, which is how interrupt() reaches a running solve(), and
// from the caller's own condition, if any (stop_when()).
class FlagTerminator final : public CaDiCaL::Terminator {
 public:
  explicit FlagTerminator(const std::atomic<bool>& flag) : flag_(flag) {}
  bool terminate() override { return flag_.load(std::memory_order_relaxed) || (should_stop_ && should_stop_()); }
  void stop_when(std::function<bool()> should_stop) { should_stop_ = std::move(should_stop); }

 private:
  const std::atomic<bool>& flag_;
  std::function<bool()> should_stop_;
};

class CadicalSolver final : public Solver {
 public:
  CadicalSolver() : solver_(std::make_unique<CaDiCaL::Solver>()) {
    solver_->set("quiet", 1);
    solver_->connect_terminator(&terminator_);
  }

  ~CadicalSolver() override { solver_->disconnect_terminator(); }

  CadicalSolver(const CadicalSolver&) = delete;
  CadicalSolver& operator=(const CadicalSolver&) = delete;

  std::string name() const override { return "cadical"; }
  bool transitive_order() const override { return false; }

  // Measured on CaDiCaL 1.5 (Debian 12): reserving a million variables grows the
  // process by 141 bytes each, and each clause costs about 88 bytes plus 4 a literal
  // (its arena record and two watches).
  std::size_t load_bytes_estimate(const encoder::Formula& formula) const override {
    const std::size_t clauses = formula.clause_groups.size();
    const std::size_t literals = formula.clause_literals.size() - std::min(formula.clause_literals.size(), clauses);
    return 144 * static_cast<std::size_t>(std::max(formula.variable_count, 0)) + 88 * clauses + 4 * literals;
  }

  void load(const encoder::Formula& formula, bool track_groups) override {
    variable_count_ = formula.variable_count;
    selectors_.clear();
    if (track_groups) {
      for (std::size_t group = 0; group < formula.groups.size(); ++group) {
        selectors_.push_back(variable_count_ + 1 + static_cast<encoder::Literal>(group));
      }
    }
    // Declaring every variable up front keeps val() defined for variables that occur
    // in no clause (an order atom the encoder left free).
    solver_->reserve(variable_count_ + static_cast<int>(selectors_.size()));
    add_literal(encoder::kTrue);  // variable 1 is the constant true, whatever the formula says
    add_literal(0);
    // Decisions follow the history unless propagation says otherwise: an order atom is
    // decided as call order (the formula's ops come in call order, and an atom's
    // `before` is the lower index), an op that may or may not take effect as absent.
    // Left to phase saving, the models of a history with crashed ops ordered them
    // against the ops invoked after them at random, each model held hundreds of
    // cycles, and the cuts never ran out: a 2,000-op cas-register history with 97
    // crashed ops was undecided in 60 s after 500 models, and is decided in 3 s after
    // 58 (docs/frontier.md, "SAT: decisions in call order, and windows thinned by
    // real time"). These are hints; the answers do not depend on them.
    for (const encoder::OrderAtom& atom : formula.order_atoms) solver_->phase(atom.var);
    for (const encoder::Literal present : formula.presence) {
      if (present != encoder::kTrue && present != encoder::kFalse) solver_->phase(-present);
    }
    // Adding the clauses of a large formula takes seconds (a 2,000-op register history
    // over two values has millions), and CaDiCaL polls its terminator only while it
    // searches; so loading polls it too, every few thousand clauses, and the memory
    // budget with it (stop_loading_when), and a stop makes the interrupt sticky: the
    // next solve() answers `stopped` at once. The clauses left out then never matter,
    // since nothing is solved.
    std::size_t clause = 0;
    for (encoder::Literal literal : formula.clause_literals) {
      if (literal == 0) {
        const std::uint32_t group = formula.clause_groups[clause++];
        if (track_groups && group != encoder::kNoGroup) add_literal(-selectors_[group]);
        add_literal(0);
        if ((clause & 4095) == 0 && (terminator_.terminate() || (over_budget_ && over_budget_()))) {
          interrupted_.store(true, std::memory_order_relaxed);
          return;
        }
        continue;
      }
      add_literal(literal);
    }
  }

  void stop_when(std::function<bool()> should_stop) override { terminator_.stop_when(std::move(should_stop)); }
  void stop_loading_when(std::function<bool()> over_budget) override { over_budget_ = std::move(over_budget); }

  void add_clause(std::span<const encoder::Literal> clause) override {
    last_result_.reset();
    for (encoder::Literal literal : clause) add_literal(literal);
    add_literal(0);
  }

  SolveResult solve() override {
    // The flag stays set: once interrupted, every solve answers `stopped` at once, so
    // an interrupt that lands between two solves is never lost.
    if (interrupted_.load(std::memory_order_relaxed)) return SolveResult::stopped;
    for (encoder::Literal selector : selectors_) solver_->assume(selector);
    for (encoder::Literal literal : next_assumptions_) solver_->assume(literal);
    next_assumptions_.clear();
    switch (solver_->solve()) {
      case 10: last_result_ = SolveResult::satisfiable; break;
      case 20: last_result_ = SolveResult::unsatisfiable; break;
      default: last_result_ = SolveResult::stopped; break;
    }
    return *last_result_;
  }

  // CaDiCaL aborts the process on a query in the wrong state; a misuse here should be
  // an exception the engine can report instead.
  bool value(encoder::Literal literal) const override {
    if (last_result_ != SolveResult::satisfiable) throw std::logic_error("cadical: value() without a model");
    return solver_->val(literal) > 0;
  }

  void assume_next(std::span<const encoder::Literal> literals) override {
    next_assumptions_.assign(literals.begin(), literals.end());
  }
  bool failed(encoder::Literal literal) const override {
    if (last_result_ != SolveResult::unsatisfiable) throw std::logic_error("cadical: failed() without a refutation");
    return solver_->failed(literal);
  }

  std::vector<std::uint32_t> failed_groups() const override {
    std::vector<std::uint32_t> failed;
    if (last_result_ != SolveResult::unsatisfiable) return failed;
    for (std::uint32_t group = 0; group < selectors_.size(); ++group) {
      if (solver_->failed(selectors_[group])) failed.push_back(group);
    }
    return failed;
  }

  void interrupt() override { interrupted_.store(true, std::memory_order_relaxed); }

  // CaDiCaL offers no query for the memory it holds, so this is an estimate from what
  // it was given and what it keeps: per variable, the dozen or so per-variable arrays
  // (values, levels, reasons, phases, scores, watch lists...); per live clause
  // (original or learned), its header and two watches; per added literal, the literal
  // itself. It tracks growth, not bytes exactly.
  std::size_t memory_bytes() const override {
    constexpr std::size_t kBytesPerVariable = 160;
    constexpr std::size_t kBytesPerClause = 96;
    constexpr std::size_t kBytesPerLiteral = 4;
    const auto variables = static_cast<std::size_t>(variable_count_) + selectors_.size();
    const auto live_clauses = static_cast<std::size_t>(solver_->irredundant() + solver_->redundant());
    return variables * kBytesPerVariable + live_clauses * kBytesPerClause + literals_added_ * kBytesPerLiteral;
  }

 private:
  void add_literal(encoder::Literal literal) {
    solver_->add(literal);
    ++literals_added_;
  }

  std::atomic<bool> interrupted_{false};
  FlagTerminator terminator_{interrupted_};
  // Behind a pointer because CaDiCaL's queries (val, failed) are not const.
  std::unique_ptr<CaDiCaL::Solver> solver_;
  encoder::Literal variable_count_ = 1;
  std::vector<encoder::Literal> selectors_;         // per group, when tracking
  std::vector<encoder::Literal> next_assumptions_;  // assume_next(), for one solve
  std::size_t literals_added_ = 0;
  std::function<bool()> over_budget_;       // polled while loading
  std::optional<SolveResult> last_result_;  // of the last solve, until a clause is added
};

}  // namespace

std::unique_ptr<Solver> make_cadical_solver() { return std::make_unique<CadicalSolver>(); }

}  // namespace ariadne::solvers
