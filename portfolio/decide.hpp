// check() itself, for a model that is not independent (decide.cpp).
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>
#include <ariadne/options.hpp>
#include <ariadne/result.hpp>

#include "portfolio/refutation.hpp"

#include <optional>
#include <stdexcept>

namespace ariadne::portfolio {

// The search --engine auto opens with under `consistency`: what a result names when
// no engine answered.
inline Engine opening_engine(Consistency consistency) {
  return keeps_real_time(consistency) ? Engine::wgl : Engine::program_order;
}

// The check's limits: check() makes them once, from the options' own fields when the
// caller passed none, and sets CheckOptions::limits before anything below it runs.
inline const Limits& check_limits(const CheckOptions& options) {
  if (!options.limits) throw std::logic_error("check() sets CheckOptions::limits before deciding");
  return *options.limits;
}

// With describe_refuted false, a refuted history gets its verdict only: no failing
// op, core or explanation. Its refutation is then kept in `kept` (when options.limits
// is set, which the kept refutation's stop signal refers to), so that the caller may
// describe it later (describe_refutation) without deciding the history again: an
// independent history's keys are decided first, and only the key reported gets its
// core.
CheckResult decide(const History& history, const Model& model, const CheckOptions& options, bool describe_refuted,
                   std::optional<Refutation>* kept = nullptr);

}  // namespace ariadne::portfolio
