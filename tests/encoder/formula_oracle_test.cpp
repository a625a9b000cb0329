// The enumeration oracle that the encoder tests trust, on formulas written by hand.
#include "support/formula_oracle.hpp"

#include <doctest/doctest.h>

#include <initializer_list>

using namespace ariadne;
using encoder::Formula;
using encoder::Literal;
using testing::AbsentOps;
using testing::solve_by_enumeration;

namespace {

// A formula over `ops` ops whose variables 2..variable_count are free, with `clauses`.
Formula formula(std::uint32_t ops, Literal variables, std::initializer_list<std::initializer_list<Literal>> clauses) {
  Formula f;
  f.op_count = ops;
  f.variable_count = variables;
  f.presence.assign(ops, encoder::kTrue);
  f.clause_literals = {encoder::kTrue, 0};
  f.clause_groups = {encoder::kNoGroup};
  for (const auto& clause : clauses) {
    f.clause_literals.insert(f.clause_literals.end(), clause.begin(), clause.end());
    f.clause_literals.push_back(0);
    f.clause_groups.push_back(encoder::kNoGroup);
  }
  return f;
}

}  // namespace

TEST_SUITE("encoder") {
  TEST_CASE("oracle: order atoms are transitive") {
    // Atoms 2: 0<1, 3: 1<2, 4: 0<2. Demanding 0<1, 1<2 and 2<0 is a cycle.
    Formula f = formula(3, 4, {{2}, {3}, {-4}});
    f.order_atoms = {{2, 0, 1}, {3, 1, 2}, {4, 0, 2}};
    CHECK_FALSE(solve_by_enumeration(f).has_value());
    Formula g = formula(3, 4, {{2}, {3}});
    g.order_atoms = f.order_atoms;
    const auto model = solve_by_enumeration(g);
    REQUIRE(model.has_value());
    CHECK((*model)(4));
    CHECK(testing::orders_allowed_by(g, *model) == std::vector<std::vector<std::uint32_t>>{{0, 1, 2}});
  }

  TEST_CASE("oracle: real time orders the atoms") {
    Formula f = formula(2, 2, {{-2}});
    f.order_atoms = {{2, 0, 1}};
    f.real_time = {{0, 1}};
    CHECK_FALSE(solve_by_enumeration(f).has_value());
  }

  TEST_CASE("oracle: atoms of an absent op are free unless absent ops are ordered too") {
    // Op 2 may be absent (presence 5) and must be: clause -5. Its atoms demand 0<2<1
    // while 1<0 is demanded too.
    Formula f = formula(3, 5, {{-2}, {3}, {4}, {-5}});
    f.order_atoms = {{2, 0, 1}, {3, 0, 2}, {4, 2, 1}};
    f.presence[2] = 5;
    CHECK(solve_by_enumeration(f, AbsentOps::free).has_value());
    CHECK_FALSE(solve_by_enumeration(f, AbsentOps::ordered).has_value());
  }

  TEST_CASE("oracle: helper variables are searched") {
    const Formula f = formula(1, 4, {{2, 3}, {-2, 4}, {-4}});
    const auto model = solve_by_enumeration(f);
    REQUIRE(model.has_value());
    CHECK((*model)(3));
    CHECK(testing::satisfies(f, *model));
    CHECK_FALSE(solve_by_enumeration(formula(1, 3, {{2, 3}, {-2}, {-3}})).has_value());
  }

  TEST_CASE("oracle: a positional formula orders ops by their positions") {
    // Op 0 at position 1 (variable 3), op 1 at position 0 (variable 4).
    Formula f = formula(2, 5, {{3}, {4}, {-2}, {-5}});
    f.positions = {{2, 3}, {4, 5}};
    const auto model = solve_by_enumeration(f);
    REQUIRE(model.has_value());
    CHECK(testing::orders_allowed_by(f, *model) == std::vector<std::vector<std::uint32_t>>{{1, 0}});
  }
}
