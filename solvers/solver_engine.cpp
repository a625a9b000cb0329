// The engine behind "sat" and "smt": encode the partition, load the formula into a
// solver, and solve until a model decodes into a linearization or the solver refutes.
//
// With the SAT back-end the order atoms are independent variables, so a model may
// order ops in a cycle; order_or_cycle_cuts() finds such cycles, their cuts go back
// to the solver, and it solves again (lazy transitivity). Every cut excludes the model
// that produced it, and there are finitely many models, so the loop ends. With Z3 the atoms
// are integer differences and the first model decodes directly; positional formulas
// name each op's position outright.
//
// Every decoded order is checked against the formula's own order constraints before
// it is offered: a contradiction there is a bug in an encoder or a back-end, thrown
// as std::logic_error for the race to report, not passed on as a witness.
#include "solvers/solver_engine.hpp"

#include "base/limits_ledger.hpp"
#include "encoder/decode.hpp"
#include "encoder/encode.hpp"
#include "solvers/isolated_decision.hpp"
#include "solvers/solver.hpp"

#include <atomic>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace ariadne::solvers {

using search::Outcome;
using search::StopSignal;

namespace {

// Cycle cuts added per model. Many at once spares solver calls when a model is full
// of cycles; the cap keeps one model from flooding the solver with near-duplicates.
constexpr std::size_t kMaxCutsPerModel = 256;

// Every decoding is checked, not trusted: the topological order by construction agrees
// with the atoms, but the integer and positional ones agree only if the back-end and
// the encoder do.
std::vector<std::uint32_t> checked(const Solver& solver, const encoder::Formula& formula,
                                   const encoder::LiteralValue& value, std::vector<std::uint32_t> order) {
  if (!encoder::respects_order(formula, value, order)) {
    throw std::logic_error(solver.name() + ": the decoded order contradicts the model's order atoms or real time");
  }
  return order;
}

}  // namespace

FormulaDecision decide_formula(Solver& solver, const encoder::Formula& formula, const FormulaHooks& hooks,
                               const DecisionRecording& recording) {
  FormulaDecision decision;
  const auto out_of_memory = [&] { return hooks.memory_ok && !hooks.memory_ok(); };
  // The stop condition goes in first, so that loading a large formula can stop too.
  if (hooks.should_stop) solver.stop_when(hooks.should_stop);
  if (hooks.load_fits && !hooks.load_fits(solver.load_bytes_estimate(formula))) {
    decision.outcome = Outcome::out_of_memory;
    return decision;
  }
  if (hooks.memory_ok) solver.stop_loading_when(out_of_memory);
  solver.load(formula, recording.track_groups);
  solver.stop_loading_when({});
  if (out_of_memory()) {
    decision.outcome = Outcome::out_of_memory;
    return decision;
  }
  return decide_loaded(solver, formula, {}, hooks, recording);
}

FormulaDecision decide_loaded(Solver& solver, const encoder::Formula& formula,
                              std::span<const encoder::Literal> assumptions, const FormulaHooks& hooks,
                              const DecisionRecording& recording, std::size_t cuts_per_model) {
  FormulaDecision decision;
  const auto out_of_memory = [&] { return hooks.memory_ok && !hooks.memory_ok(); };
  if (hooks.should_stop) solver.stop_when(hooks.should_stop);
  const encoder::LiteralValue value = [&solver](encoder::Literal literal) { return solver.value(literal); };
  for (;;) {
    if (hooks.should_stop && hooks.should_stop()) {
      decision.outcome = Outcome::stopped;
      return decision;
    }
    ++decision.solver_calls;
    // Assumptions hold for one solve only: every re-solve after a cut needs them again.
    if (!assumptions.empty()) solver.assume_next(assumptions);
    const SolveResult result = solver.solve();
    if (out_of_memory()) {
      decision.outcome = Outcome::out_of_memory;
      return decision;
    }
    if (result != SolveResult::satisfiable) {
      decision.outcome = result == SolveResult::unsatisfiable ? Outcome::not_linearizable : Outcome::stopped;
      if (result == SolveResult::unsatisfiable && recording.track_groups)
        decision.failed_groups = solver.failed_groups();
      return decision;
    }
    decision.outcome = Outcome::linearizable;
    if (formula.positional()) {
      decision.linearization = checked(solver, formula, value, encoder::order_from_positions(formula, value));
      return decision;
    }
    if (solver.transitive_order()) {
      const auto positions = solver.positions();
      if (!positions) throw std::logic_error(solver.name() + ": a transitive back-end gave no positions");
      decision.linearization =
          checked(solver, formula, value, encoder::order_from_integers(formula, value, *positions));
      return decision;
    }
    encoder::OrderCheck check =
        encoder::order_or_cycle_cuts(formula, value, cuts_per_model ? cuts_per_model : kMaxCutsPerModel);
    if (check.acyclic) {
      decision.linearization = checked(solver, formula, value, std::move(check.order));
      return decision;
    }
    if (check.cuts.empty()) throw std::logic_error(solver.name() + ": a cyclic model with no cycle to cut");
    for (const auto& cut : check.cuts) solver.add_clause(cut);
    decision.cuts += check.cuts.size();
    if (recording.keep_cuts) {
      for (auto& cut : check.cuts) decision.cuts_added.push_back(std::move(cut));
    }
  }
}

namespace {

class SolverBackedEngine final : public search::SearchEngine {
 public:
  using SolverFactory = std::unique_ptr<Solver> (*)();

  // isolated: the solver runs in a child process (isolated_decision.hpp), for
  // back-ends that do not stop reliably when interrupted.
  SolverBackedEngine(Engine id, SolverFactory make_solver, bool isolated, const search::SubHistory& sub,
                     const Model& model, search::MemoryBudget& memory, const StopSignal& stop)
      : id_(id),
        make_solver_(make_solver),
        isolated_(isolated),
        sub_(sub),
        model_(model),
        memory_share_(memory),
        stop_(stop) {}

  Engine id() const override { return id_; }
  std::vector<std::uint32_t> linearization() const override { return linearization_; }
  std::uint64_t steps() const override { return steps_; }
  StopSignal::Why stop_reason() const override { return stop_reason_; }
  std::string withdrawal_reason() const override { return withdrawal_reason_; }

  // The solver exists only inside run(), so the mutex makes sure an interrupt either
  // reaches it or is seen by run() right after creating it.
  void interrupt() override {
    interrupted_.store(true, std::memory_order_relaxed);
    std::lock_guard lock(solver_mutex_);
    if (solver_) solver_->interrupt();
  }

  Outcome run(std::uint64_t /*step_budget*/) override {
    linearization_.clear();
    stop_reason_ = StopSignal::Why::none;
    withdrawal_reason_.clear();
    encoding_over_budget_ = false;
    stopped_for_teardown_.store(false, std::memory_order_relaxed);
    const ReleaseOnExit release(*this);
    try {
      return decide();
    } catch (const encoder::EncodingStopped&) {
      return stopped();
    } catch (const encoder::EncodingUnsupported& e) {
      if (encoding_over_budget_) return Outcome::out_of_memory;
      return withdraw(std::string("unsupported: ") + e.what());
    } catch (const std::bad_alloc&) {
      return Outcome::out_of_memory;
    } catch (const std::runtime_error& e) {
      // A solver's own failure is a give-up, not a verdict. std::logic_error, a bug
      // in ariadne, is left for the race to report.
      return withdraw(std::string("solver failed: ") + e.what());
    }
  }

 private:
  // The formula and the solver are needed only while run() decides; dropping them
  // when it returns gives their memory back while other engines still race. Not when
  // it was stopped, though: then the race is over or the deadline has passed, and
  // freeing a large Z3 context takes longer than stopping it (about 200 ms for a
  // 2,000-op crash storm), so the engine returns at once and its destructor frees
  // them once every engine has stopped.
  class ReleaseOnExit {
   public:
    explicit ReleaseOnExit(SolverBackedEngine& engine) : engine_(engine) {}
    ~ReleaseOnExit() {
      if (engine_.stop_reason_ != StopSignal::Why::none) return;
      {
        std::lock_guard lock(engine_.solver_mutex_);
        engine_.solver_.reset();
      }
      engine_.formula_ = encoder::Formula{};
      engine_.memory_share_.report(0);
    }
    ReleaseOnExit(const ReleaseOnExit&) = delete;
    ReleaseOnExit& operator=(const ReleaseOnExit&) = delete;

   private:
    SolverBackedEngine& engine_;
  };

  Outcome decide() {
    encoder::EncodeOptions options;
    options.consistency = sub_.consistency;
    options.should_stop = [this] { return stop_requested(); };
    // The encoder asks with what it is about to hold, so the budget is consulted
    // before the allocation and records only what was allowed.
    options.memory_ok = [this](std::size_t bytes) {
      if (!memory_share_.would_fit(static_cast<std::int64_t>(bytes)) ||
          (stop_.limits && !base::would_fit(*stop_.limits, bytes))) {
        encoding_over_budget_ = true;
        return false;
      }
      memory_share_.report(static_cast<std::int64_t>(bytes));
      return true;
    };
    formula_ = encoder::encode(model_, sub_.ops, options);
    if (isolated_) return decided(decide_isolated());
    {
      std::lock_guard lock(solver_mutex_);
      solver_ = make_solver_();
      if (interrupted_.load(std::memory_order_relaxed)) solver_->interrupt();
    }
    FormulaHooks hooks;
    hooks.should_stop = [this] { return stop_requested(); };
    hooks.memory_ok = [this] {
      solver_bytes_.store(solver_->memory_bytes(), std::memory_order_relaxed);
      const std::size_t usage = solver_->memory_bytes() + formula_.memory_bytes();
      return memory_share_.report(static_cast<std::int64_t>(usage));
    };
    hooks.load_fits = [this](std::size_t bytes) {
      return memory_share_.would_fit(static_cast<std::int64_t>(bytes + formula_.memory_bytes())) &&
             (!stop_.limits || base::would_fit(*stop_.limits, bytes));
    };
    return decided(decide_formula(*solver_, formula_, hooks));
  }

  FormulaDecision decide_isolated() {
    IsolationHooks hooks;
    hooks.should_stop = [this] { return stop_requested(); };
    const Limits* limits = stop_.limits;
    hooks.memory_ok = [this, limits](std::uint64_t child_bytes) {
      // The child's memory is outside this process, so the limits' resident watch
      // must be told of it too.
      if (limits) base::add_outside_bytes(*limits, static_cast<std::int64_t>(child_bytes) - child_bytes_);
      child_bytes_ = static_cast<std::int64_t>(child_bytes);
      return memory_share_.report(static_cast<std::int64_t>(child_bytes + formula_.memory_bytes()));
    };
    const search::MemoryBudget& budget = memory_share_.budget();
    const std::int64_t left =
        static_cast<std::int64_t>(budget.limit()) - budget.used() - static_cast<std::int64_t>(formula_.memory_bytes());
    hooks.memory_ceiling = static_cast<std::uint64_t>(std::max<std::int64_t>(left, 1 << 20));
    hooks.set_memory_ceiling = make_solver_ == make_z3_solver ? limit_z3_memory : nullptr;
    // However it ends, the child is gone and holds nothing.
    struct ForgetChild {
      SolverBackedEngine& engine;
      const Limits* limits;
      ~ForgetChild() {
        if (limits) base::add_outside_bytes(*limits, -engine.child_bytes_);
        engine.child_bytes_ = 0;
      }
    } forget{*this, limits};
    return decide_formula_isolated(make_solver_, formula_, hooks);
  }

  Outcome decided(FormulaDecision decision) {
    steps_ += decision.solver_calls + decision.cuts;
    switch (decision.outcome) {
      case Outcome::linearizable: linearization_ = std::move(decision.linearization); return Outcome::linearizable;
      case Outcome::stopped: return stopped();
      default: return decision.outcome;
    }
  }

  bool stop_requested() const {
    if (interrupted_.load(std::memory_order_relaxed) || stop_.check() != StopSignal::Why::none) return true;
    if (search::teardown_due(stop_, held_bytes())) {
      stopped_for_teardown_.store(true, std::memory_order_relaxed);
      return true;
    }
    return false;
  }

  // What freeing would take long to give back: the solver's many small allocations.
  // The formula is a few large arrays, freed at once; an isolated solver's child is
  // killed and the kernel frees it in milliseconds (measured: a check of the
  // reported Redis history ends 5-20 ms after its 5 s deadline).
  std::uint64_t held_bytes() const { return isolated_ ? 0 : solver_bytes_.load(std::memory_order_relaxed); }

  // An interrupt with no stop signal behind it comes from the race having its answer;
  // one for the teardown's sake is the deadline's.
  Outcome stopped() {
    stop_reason_ = stop_.check();
    if (stop_reason_ == StopSignal::Why::none && stopped_for_teardown_.load(std::memory_order_relaxed)) {
      stop_reason_ = StopSignal::Why::timeout;
      if (stop_.limits) base::note_timeout(*stop_.limits);
    }
    if (stop_reason_ == StopSignal::Why::none) stop_reason_ = StopSignal::Why::decided;
    return Outcome::stopped;
  }

  Outcome withdraw(std::string why) {
    withdrawal_reason_ = std::move(why);
    return Outcome::stopped;
  }

  const Engine id_;
  const SolverFactory make_solver_;
  const bool isolated_;
  std::int64_t child_bytes_ = 0;  // the isolated solver's, as last measured
  // For teardown_due(), read by the solver's stop polls.
  std::atomic<std::uint64_t> solver_bytes_{0};
  mutable std::atomic<bool> stopped_for_teardown_{false};
  const search::SubHistory& sub_;
  const Model& model_;
  search::MemoryShare memory_share_;
  const StopSignal& stop_;

  std::atomic<bool> interrupted_{false};
  std::mutex solver_mutex_;
  std::unique_ptr<Solver> solver_;  // written under solver_mutex_, only by run()
  encoder::Formula formula_;
  bool encoding_over_budget_ = false;

  std::vector<std::uint32_t> linearization_;
  std::uint64_t steps_ = 0;
  StopSignal::Why stop_reason_ = StopSignal::Why::none;
  std::string withdrawal_reason_;
};

}  // namespace

std::unique_ptr<search::SearchEngine> make_sat_engine(const search::SubHistory& sub, const Model& model,
                                                      search::MemoryBudget& memory, const StopSignal& stop) {
  return std::make_unique<SolverBackedEngine>(Engine::sat, make_cadical_solver, /*isolated=*/false, sub, model, memory,
                                              stop);
}

std::unique_ptr<search::SearchEngine> make_smt_engine(const search::SubHistory& sub, const Model& model,
                                                      search::MemoryBudget& memory, const StopSignal& stop) {
  return std::make_unique<SolverBackedEngine>(Engine::smt, make_z3_solver, /*isolated=*/true, sub, model, memory, stop);
}

}  // namespace ariadne::solvers
