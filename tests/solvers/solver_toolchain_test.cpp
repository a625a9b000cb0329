// The solver back-ends of the SAT/SMT engines build on CaDiCaL and Z3 from Debian's
// packages. These checks pin down that the build's imported targets link and that both
// libraries answer a tiny query the way the engines will rely on (assumptions, cores).
#include <z3++.h>
#include <cadical.hpp>

#include <doctest/doctest.h>

TEST_CASE("CaDiCaL links and reports failed assumptions") {
  CaDiCaL::Solver solver;
  solver.add(1), solver.add(2), solver.add(0);  // x1 or x2
  solver.add(-1), solver.add(0);                // not x1
  CHECK(solver.solve() == 10);                  // satisfiable
  CHECK(solver.val(2) > 0);
  solver.assume(-2);
  CHECK(solver.solve() == 20);  // unsatisfiable under the assumption
  CHECK(solver.failed(-2));
}

TEST_CASE("Z3 links and decides integer difference constraints") {
  z3::context ctx;
  z3::solver solver(ctx);
  z3::expr a = ctx.int_const("a"), b = ctx.int_const("b");
  solver.add(a < b);
  CHECK(solver.check() == z3::sat);
  solver.add(b < a);
  CHECK(solver.check() == z3::unsat);
}
