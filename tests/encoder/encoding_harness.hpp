// What the encoder tests share: encode a history, decide the formula with the
// enumeration oracle (tests/support/formula_oracle.hpp), and replay every order a
// decoder could read from the oracle's model through the certificate checker, so a
// test fails on an unsound encoding even when its verdict happens to be right.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "certify/witness_checker.hpp"
#include "encoder/encode.hpp"
#include "support/formula_oracle.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace ariadne::encoder_tests {

inline std::vector<const Operation*> op_pointers(const History& history) {
  std::vector<const Operation*> ops;
  for (const Operation& op : history.ops) ops.push_back(&op);
  return ops;
}

// Whether the formula is satisfiable. When it is, every order the oracle's model
// allows must be a linearization the certificate checker accepts.
inline bool satisfiable_and_sound(const History& history, const Model& model, const encoder::Formula& formula,
                                  testing::AbsentOps absent = testing::AbsentOps::free) {
  const auto assignment = testing::solve_by_enumeration(formula, absent);
  if (!assignment) return false;
  const auto orders = testing::orders_allowed_by(formula, *assignment);
  REQUIRE_FALSE(orders.empty());
  for (const auto& order : orders) {
    std::vector<std::uint32_t> ids;
    for (const std::uint32_t op : order) ids.push_back(history.ops[op].id);
    const auto complaint = certify::check_linearization(history, model, ids);
    INFO("decoded order rejected: ", complaint.value_or(""));
    REQUIRE_FALSE(complaint.has_value());
  }
  return true;
}

// Encodes the whole history (these tests use models that are not partitioned).
inline encoder::Formula encode_history(const History& history, const Model& model, bool force_unrolling = false) {
  const auto ops = op_pointers(history);
  encoder::EncodeOptions options;
  options.force_unrolling = force_unrolling;
  return encoder::encode(model, ops, options);
}

}  // namespace ariadne::encoder_tests
