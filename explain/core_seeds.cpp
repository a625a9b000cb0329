#include "explain/core_seeds.hpp"

#include "models/semantics.hpp"

namespace ariadne::explain {

std::vector<bool> seed_companions(std::span<const Operation* const> ops, const Model& model,
                                  std::uint32_t failing_op) {
  std::vector<bool> companions(ops.size(), false);
  const auto semantics = models::semantics_of(model, ops);
  if (!semantics || semantics->theory != models::Theory::mutex) return companions;
  const models::Effect failing = semantics->ops[failing_op].effect;
  if (failing != models::Effect::acquire && failing != models::Effect::release) return companions;
  // What could undo the failing op's complaint: releases for an acquire of a held
  // lock, acquires for a release of a free one.
  const models::Effect opposite =
      failing == models::Effect::acquire ? models::Effect::release : models::Effect::acquire;
  for (std::uint32_t i = 0; i < ops.size(); ++i) companions[i] = semantics->ops[i].effect == opposite;
  return companions;
}

}  // namespace ariadne::explain
