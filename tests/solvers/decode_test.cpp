// Decoding models into linearizations, and the cycle cuts of the SAT back-end, on
// hand-built formulas and assignments.
#include "encoder/decode.hpp"

#include "formula_fixtures.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace ariadne;
using encoder::Literal;
using encoder::order_or_cycle_cuts;
using encoder::OrderAtom;
using testing::empty_formula;
using testing::TrueVariables;

using Order = std::vector<std::uint32_t>;
using Cuts = std::vector<std::vector<Literal>>;

TEST_CASE("topological order breaks ties by op index") {
  encoder::Formula formula = empty_formula(4, 1);
  formula.real_time = {{2, 1}};
  const auto check = order_or_cycle_cuts(formula, TrueVariables{}, 8);
  CHECK(check.acyclic);
  CHECK(check.order == Order{0, 2, 1, 3});
}

TEST_CASE("order atoms point the way the model chose") {
  encoder::Formula formula = empty_formula(3, 3);
  formula.order_atoms = {OrderAtom{2, 0, 1}, OrderAtom{3, 1, 2}};
  CHECK(order_or_cycle_cuts(formula, TrueVariables{{2, 3}}, 8).order == Order{0, 1, 2});
  CHECK(order_or_cycle_cuts(formula, TrueVariables{{3}}, 8).order == Order{1, 0, 2});
  CHECK(order_or_cycle_cuts(formula, TrueVariables{}, 8).order == Order{2, 1, 0});
}

TEST_CASE("absent ops are left out of the order and their edges ignored") {
  encoder::Formula formula = empty_formula(3, 3);
  formula.presence[1] = 2;                                         // op 1 crashed: present iff variable 2
  formula.order_atoms = {OrderAtom{3, 2, 1}, OrderAtom{3, 1, 0}};  // would put 2 < 1 < 0
  const auto absent = order_or_cycle_cuts(formula, TrueVariables{{3}}, 8);
  CHECK(absent.acyclic);
  CHECK(absent.order == Order{0, 2});
  const auto present = order_or_cycle_cuts(formula, TrueVariables{{2, 3}}, 8);
  CHECK(present.order == Order{2, 1, 0});
}

TEST_CASE("a cycle of chosen atoms is cut by the negation of its atoms") {
  encoder::Formula formula = empty_formula(3, 4);
  formula.order_atoms = {OrderAtom{2, 0, 1}, OrderAtom{3, 1, 2}, OrderAtom{4, 2, 0}};
  const auto check = order_or_cycle_cuts(formula, TrueVariables{{2, 3, 4}}, 8);
  CHECK_FALSE(check.acyclic);
  CHECK(check.order.empty());
  CHECK(check.cuts == Cuts{{-4, -3, -2}});
}

TEST_CASE("a false atom on a cycle is cut by its positive literal") {
  encoder::Formula formula = empty_formula(3, 4);
  // Atom 4 says 0 < 2; false, it puts 2 before 0 and closes 0 < 1 < 2 < 0.
  formula.order_atoms = {OrderAtom{2, 0, 1}, OrderAtom{3, 1, 2}, OrderAtom{4, 0, 2}};
  CHECK(order_or_cycle_cuts(formula, TrueVariables{{2, 3}}, 8).cuts == Cuts{{-3, -2, 4}});
}

TEST_CASE("a cut through a crashed op also names its presence") {
  encoder::Formula formula = empty_formula(3, 5);
  formula.presence[2] = 5;
  formula.order_atoms = {OrderAtom{2, 0, 1}, OrderAtom{3, 1, 2}, OrderAtom{4, 2, 0}};
  CHECK(order_or_cycle_cuts(formula, TrueVariables{{2, 3, 4, 5}}, 8).cuts == Cuts{{-5, -4, -3, -2}});
}

TEST_CASE("real-time edges close cycles but add nothing to the cut") {
  encoder::Formula formula = empty_formula(3, 3);
  formula.real_time = {{0, 1}};
  formula.order_atoms = {OrderAtom{2, 1, 2}, OrderAtom{3, 2, 0}};
  CHECK(order_or_cycle_cuts(formula, TrueVariables{{2, 3}}, 8).cuts == Cuts{{-3, -2}});
}

TEST_CASE("a cycle of constants is cut by the empty clause") {
  encoder::Formula formula = empty_formula(2, 1);
  formula.real_time = {{0, 1}};
  formula.order_atoms = {OrderAtom{encoder::kTrue, 1, 0}};
  const auto check = order_or_cycle_cuts(formula, TrueVariables{}, 8);
  CHECK_FALSE(check.acyclic);
  CHECK(check.cuts == Cuts{std::vector<Literal>{}});
}

TEST_CASE("max_cuts bounds the cuts of one model and the cuts are distinct") {
  encoder::Formula formula = empty_formula(6, 7);
  formula.order_atoms = {OrderAtom{2, 0, 1}, OrderAtom{3, 1, 2}, OrderAtom{4, 2, 0},
                         OrderAtom{5, 3, 4}, OrderAtom{6, 4, 5}, OrderAtom{7, 5, 3}};
  const TrueVariables all{{2, 3, 4, 5, 6, 7}};
  CHECK(order_or_cycle_cuts(formula, all, 1).cuts.size() == 1);
  CHECK(order_or_cycle_cuts(formula, all, 8).cuts == Cuts{{-4, -3, -2}, {-7, -6, -5}});
}

TEST_CASE("a shortest cycle is cut when a longer one shares its atom") {
  // 0 < 1 < 2 < 3 < 0 and the chord 2 < 0: the cycle through atom 2 (0 < 1) is the
  // triangle 0 1 2, not the square.
  encoder::Formula formula = empty_formula(4, 6);
  formula.order_atoms = {OrderAtom{2, 0, 1}, OrderAtom{3, 1, 2}, OrderAtom{4, 2, 3}, OrderAtom{5, 3, 0},
                         OrderAtom{6, 2, 0}};
  const auto cuts = order_or_cycle_cuts(formula, TrueVariables{{2, 3, 4, 5, 6}}, 1).cuts;
  CHECK(cuts == Cuts{{-6, -3, -2}});
}

TEST_CASE("positional models order the present ops by their true position") {
  encoder::Formula formula = empty_formula(3, 10);
  formula.presence[2] = 10;
  formula.positions = {{2, 3, 4}, {5, 6, 7}, {8, 9, 4}};
  CHECK(encoder::order_from_positions(formula, TrueVariables{{4, 5}}) == Order{1, 0});
  CHECK(encoder::order_from_positions(formula, TrueVariables{{4, 6, 8, 10}}) == Order{2, 1, 0});
  CHECK_THROWS_AS(encoder::order_from_positions(formula, TrueVariables{{4}}), std::logic_error);
}

TEST_CASE("integer positions order the present ops with ties by op index") {
  encoder::Formula formula = empty_formula(4, 2);
  formula.presence[3] = 2;
  CHECK(encoder::order_from_integers(formula, TrueVariables{}, {5, 3, 5, 0}) == Order{1, 0, 2});
  CHECK(encoder::order_from_integers(formula, TrueVariables{{2}}, {5, 3, 5, 0}) == Order{3, 1, 0, 2});
}

TEST_CASE("respects_order accepts only the present ops in an order that agrees with the model") {
  encoder::Formula formula = empty_formula(3, 3);
  formula.presence[2] = 3;
  formula.real_time = {{0, 1}};
  formula.order_atoms = {OrderAtom{2, 1, 2}};
  const TrueVariables model{{2, 3}};
  CHECK(encoder::respects_order(formula, model, Order{0, 1, 2}));
  CHECK_FALSE(encoder::respects_order(formula, model, Order{1, 0, 2}));  // against real time
  CHECK_FALSE(encoder::respects_order(formula, model, Order{0, 2, 1}));  // against the atom
  CHECK_FALSE(encoder::respects_order(formula, model, Order{0, 1}));     // a present op missing
  CHECK_FALSE(encoder::respects_order(formula, model, Order{0, 1, 2, 2}));
  CHECK(encoder::respects_order(formula, TrueVariables{{2}}, Order{0, 1}));
  CHECK_FALSE(encoder::respects_order(formula, TrueVariables{{2}}, Order{0, 1, 2}));  // an absent op
}
