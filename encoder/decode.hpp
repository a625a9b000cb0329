// Reading a linearization back out of a solver's model of a Formula, and, for the
// SAT back-end, finding the order cycles the model proposes so they can be cut.
//
// Decoding is solver-neutral: a model is only a function from literals to truth
// values, so the same code serves CaDiCaL, Z3 and hand-built assignments in tests.
#pragma once

#include "encoder/formula.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace ariadne::encoder {

// The truth value a model gives a literal (negative literals included).
using LiteralValue = std::function<bool(Literal)>;

struct OrderCheck {
  // Whether real-time order plus the order atoms as the model chose them are acyclic
  // over the ops that took effect.
  bool acyclic = false;
  // If acyclic: the present ops in a topological order, ties broken by smallest op
  // index, so the witness reads in call order wherever the order leaves a choice.
  std::vector<std::uint32_t> order;
  // If not: clauses each forbidding one cycle the model chose; every literal of a cut
  // is false under the model, so adding any cut excludes the model.
  std::vector<std::vector<Literal>> cuts;
};

// Builds the precedence graph of the model over the present ops and either orders it
// or returns up to max_cuts distinct cycle cuts.
OrderCheck order_or_cycle_cuts(const Formula& formula, const LiteralValue& value, std::size_t max_cuts);

// Positional formulas: the present ops sorted by the position whose literal is true,
// ties by op index. Throws std::logic_error if a present op has no true position.
std::vector<std::uint32_t> order_from_positions(const Formula& formula, const LiteralValue& value);

// Back-ends with integer positions (transitive_order()): the present ops sorted by
// their integer, ties by op index.
std::vector<std::uint32_t> order_from_integers(const Formula& formula, const LiteralValue& value,
                                               const std::vector<std::int64_t>& positions);

// Whether `order` lists exactly the present ops, once each, and agrees with every
// real-time pair and every order atom (as the model chose it) between present ops.
// A decoded order that fails this is a bug in an encoder or a back-end.
bool respects_order(const Formula& formula, const LiteralValue& value, std::span<const std::uint32_t> order);

}  // namespace ariadne::encoder
