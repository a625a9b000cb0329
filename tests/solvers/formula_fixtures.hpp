// Hand-built formulas for the decoding and back-end tests, so that they need no
// encoder: a few helpers to write clauses and order atoms by hand, and the
// pigeonhole formula as an instance no solver finishes quickly.
#pragma once

#include "encoder/formula.hpp"

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

namespace ariadne::testing {

// A formula over `op_count` completed ops with variables up to `variable_count`
// (variable 1 being the constant true, with its unit clause as the encoder writes it).
inline encoder::Formula empty_formula(std::uint32_t op_count, std::int32_t variable_count) {
  encoder::Formula formula;
  formula.op_count = op_count;
  formula.variable_count = variable_count;
  formula.clause_literals = {encoder::kTrue, 0};
  formula.clause_groups = {encoder::kNoGroup};
  formula.presence.assign(op_count, encoder::kTrue);
  return formula;
}

inline void add_clause(encoder::Formula& formula, std::initializer_list<encoder::Literal> literals,
                       std::uint32_t group = encoder::kNoGroup) {
  formula.clause_literals.insert(formula.clause_literals.end(), literals);
  formula.clause_literals.push_back(0);
  formula.clause_groups.push_back(group);
}

inline std::uint32_t add_group(encoder::Formula& formula, std::string name) {
  formula.groups.push_back(encoder::ConstraintGroup{std::move(name), {}});
  return static_cast<std::uint32_t>(formula.groups.size() - 1);
}

// An assignment given by the set of true variables; variable 1 is always true. Not
// named Assignment: the formula oracle's (support/formula_oracle.hpp) is, in the same
// namespace and the same test binary, and two classes of one name break the one
// definition rule: the linker keeps one copy of their inline members (an unoptimised
// build then calls the oracle's operator() on this one and crashes).
struct TrueVariables {
  std::set<encoder::Literal> true_variables;
  bool operator()(encoder::Literal literal) const {
    const encoder::Literal variable = literal > 0 ? literal : -literal;
    const bool variable_true = variable == encoder::kTrue || true_variables.contains(variable);
    return literal > 0 ? variable_true : !variable_true;
  }
};

// Pigeons into holes, one pigeon per hole: unsatisfiable when pigeons > holes, and
// exponentially hard for resolution: at 11 into 10 neither CaDiCaL nor Z3 finishes
// within 30 seconds.
inline encoder::Formula pigeonhole(std::int32_t pigeons, std::int32_t holes) {
  const auto sits = [holes](std::int32_t pigeon, std::int32_t hole) { return 2 + pigeon * holes + hole; };
  encoder::Formula formula = empty_formula(0, 1 + pigeons * holes);
  for (std::int32_t pigeon = 0; pigeon < pigeons; ++pigeon) {
    for (std::int32_t hole = 0; hole < holes; ++hole) formula.clause_literals.push_back(sits(pigeon, hole));
    formula.clause_literals.push_back(0);
    formula.clause_groups.push_back(encoder::kNoGroup);
  }
  for (std::int32_t hole = 0; hole < holes; ++hole) {
    for (std::int32_t a = 0; a < pigeons; ++a) {
      for (std::int32_t b = a + 1; b < pigeons; ++b) add_clause(formula, {-sits(a, hole), -sits(b, hole)});
    }
  }
  return formula;
}

}  // namespace ariadne::testing
