// What back-ends without incremental assumptions answer (solver.hpp).
#include "solvers/solver.hpp"

#include <stdexcept>

namespace ariadne::solvers {

void Solver::assume_next(std::span<const encoder::Literal> literals) {
  (void)literals;
  throw std::logic_error(name() + ": no assumptions of literals");
}

bool Solver::failed(encoder::Literal literal) const {
  (void)literal;
  throw std::logic_error(name() + ": no assumptions of literals");
}

}  // namespace ariadne::solvers
