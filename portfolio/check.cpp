// check(): the library's entry point. An independent model's keys are checked each as
// its own history (independent.hpp), except under sequential consistency, which is
// not local; any other history is decided whole
// (decide.hpp), its partitions scheduled over the engines (scheduler.hpp) and raced
// when they hold out (race_plan.hpp, race.hpp).
#include <ariadne/check.hpp>

#include "portfolio/decide.hpp"
#include "portfolio/independent.hpp"

namespace ariadne {

CheckResult check(const History& history, const Model& model, const CheckOptions& options) {
  // Sequential consistency is not local: an independent history is decided whole, as
  // one object whose state holds every key's (models/independent.cpp).
  const Model* inner = options.consistency == Consistency::sequential ? nullptr : independent_inner_model(model);
  if (inner) {
    return portfolio::check_independent(history, model, *inner, options);
  }
  return portfolio::decide(history, model, options, /*describe_refuted=*/true);
}

}  // namespace ariadne
