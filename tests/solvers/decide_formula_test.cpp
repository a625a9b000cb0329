// The solver engines' decision loop on hand-built formulas: cycle cuts until the SAT
// model is acyclic, direct decoding for Z3 and positional formulas, the stop and
// memory hooks, and the guard against a back-end whose order contradicts its atoms.
#include "solvers/solver_engine.hpp"

#include "encoder/decode.hpp"
#include "formula_fixtures.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace ariadne;
using encoder::OrderAtom;
using search::Outcome;
using solvers::decide_formula;
using solvers::SolveResult;
using testing::add_clause;
using testing::empty_formula;

using Order = std::vector<std::uint32_t>;

namespace {

// Ops 0, 1, 2; clauses force 0 < 1 and 1 < 2 and leave atom 4, "2 before 0", free.
// Set, it closes the cycle 0 < 1 < 2 < 0, which only a cut can rule out.
encoder::Formula three_cycle_formula() {
  encoder::Formula formula = empty_formula(3, 5);
  formula.order_atoms = {OrderAtom{2, 0, 1}, OrderAtom{3, 1, 2}, OrderAtom{4, 2, 0}};
  add_clause(formula, {2});
  add_clause(formula, {3});
  add_clause(formula, {4, 5});  // keeps atom 4 in a clause, free either way
  return formula;
}

// A back-end that claims transitive order but answers positions against real time.
class ContradictoryBackend final : public solvers::Solver {
 public:
  std::string name() const override { return "contradictory"; }
  bool transitive_order() const override { return true; }
  void load(const encoder::Formula&, bool) override {}
  void add_clause(std::span<const encoder::Literal>) override {}
  SolveResult solve() override { return SolveResult::satisfiable; }
  bool value(encoder::Literal literal) const override { return literal > 0; }
  std::optional<std::vector<std::int64_t>> positions() const override { return std::vector<std::int64_t>{1, 0}; }
  std::vector<std::uint32_t> failed_groups() const override { return {}; }
  void interrupt() override {}
  std::size_t memory_bytes() const override { return 0; }
};

}  // namespace

TEST_CASE("the SAT loop cuts an order cycle and ends in a valid order") {
  const encoder::Formula formula = three_cycle_formula();

  // The cyclic model is found and cut by the negation of its three atoms.
  const auto cyclic = encoder::order_or_cycle_cuts(formula, testing::TrueVariables{{2, 3, 4}}, 256);
  REQUIRE_FALSE(cyclic.acyclic);
  REQUIRE(cyclic.cuts == std::vector<std::vector<encoder::Literal>>{{-4, -3, -2}});

  // With that cut the solver can only order 0 < 1 < 2.
  auto solver = solvers::make_cadical_solver();
  solver->load(formula, false);
  solver->add_clause(cyclic.cuts.front());
  REQUIRE(solver->solve() == SolveResult::satisfiable);
  const auto value = [&](encoder::Literal literal) { return solver->value(literal); };
  const auto fixed = encoder::order_or_cycle_cuts(formula, value, 256);
  CHECK(fixed.acyclic);
  CHECK(fixed.order == Order{0, 1, 2});

  // The loop itself gets there whichever way the solver first sets atom 4.
  auto fresh = solvers::make_cadical_solver();
  const auto decision = decide_formula(*fresh, formula);
  CHECK(decision.outcome == Outcome::linearizable);
  CHECK(decision.linearization == Order{0, 1, 2});
  CHECK(decision.solver_calls == decision.cuts + 1);
  MESSAGE("cadical needed ", decision.cuts, " cut(s)");
}

TEST_CASE("the SMT loop decodes the first model without cuts") {
  auto solver = solvers::make_z3_solver();
  const auto decision = decide_formula(*solver, three_cycle_formula());
  CHECK(decision.outcome == Outcome::linearizable);
  CHECK(decision.linearization == Order{0, 1, 2});
  CHECK(decision.solver_calls == 1);
  CHECK(decision.cuts == 0);
}

TEST_CASE("both loops respect real time and leave absent ops out") {
  encoder::Formula formula = empty_formula(4, 4);
  formula.real_time = {{3, 0}};
  formula.presence[1] = 4;  // crashed; the clause below forces it absent
  formula.order_atoms = {OrderAtom{2, 0, 2}, OrderAtom{3, 2, 3}};
  add_clause(formula, {-4});
  add_clause(formula, {2});
  for (auto make : {solvers::make_cadical_solver, solvers::make_z3_solver}) {
    auto solver = make();
    CAPTURE(solver->name());
    const auto decision = decide_formula(*solver, formula);
    REQUIRE(decision.outcome == Outcome::linearizable);
    // 3 < 0 by real time, 0 < 2 by atom 2; atom 3 (2 < 3) would close a cycle.
    CHECK(decision.linearization == Order{3, 0, 2});
  }
}

TEST_CASE("both loops refute when every order has a cycle") {
  encoder::Formula formula = three_cycle_formula();
  add_clause(formula, {4});
  for (auto make : {solvers::make_cadical_solver, solvers::make_z3_solver}) {
    auto solver = make();
    CAPTURE(solver->name());
    CHECK(decide_formula(*solver, formula).outcome == Outcome::not_linearizable);
  }
}

TEST_CASE("positional formulas decode from the true position literals") {
  encoder::Formula formula = empty_formula(2, 5);
  formula.positions = {{2, 3}, {4, 5}};
  add_clause(formula, {-2});
  add_clause(formula, {3});  // op 0 at position 1
  add_clause(formula, {4});  // op 1 at position 0
  add_clause(formula, {-5});
  for (auto make : {solvers::make_cadical_solver, solvers::make_z3_solver}) {
    auto solver = make();
    CAPTURE(solver->name());
    const auto decision = decide_formula(*solver, formula);
    REQUIRE(decision.outcome == Outcome::linearizable);
    CHECK(decision.linearization == Order{1, 0});
  }
}

TEST_CASE("the loop stops when asked before solving and when memory runs out") {
  auto stopping = solvers::make_cadical_solver();
  solvers::FormulaHooks stop_hooks;
  stop_hooks.should_stop = [] { return true; };
  const auto stopped = decide_formula(*stopping, three_cycle_formula(), stop_hooks);
  CHECK(stopped.outcome == Outcome::stopped);
  CHECK(stopped.solver_calls == 0);

  auto starved = solvers::make_z3_solver();
  solvers::FormulaHooks memory_hooks;
  memory_hooks.memory_ok = [] { return false; };
  CHECK(decide_formula(*starved, three_cycle_formula(), memory_hooks).outcome == Outcome::out_of_memory);
}

TEST_CASE("a decoded order that contradicts real time is a logic error") {
  encoder::Formula formula = empty_formula(2, 1);
  formula.real_time = {{0, 1}};
  ContradictoryBackend backend;
  CHECK_THROWS_AS(decide_formula(backend, formula), std::logic_error);
}
