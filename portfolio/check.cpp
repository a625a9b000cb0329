// check(): the library's entry point. An independent model's keys are checked each as
// its own history (independent.hpp); any other history is decided whole
// (decide.hpp), its partitions scheduled over the engines (scheduler.hpp) and raced
// when they hold out (race_plan.hpp, race.hpp).
#include <ariadne/check.hpp>

#include "portfolio/decide.hpp"
#include "portfolio/independent.hpp"

namespace ariadne {

CheckResult check(const History& history, const Model& model, const CheckOptions& options) {
  if (const Model* inner = independent_inner_model(model)) {
    return portfolio::check_independent(history, model, *inner, options);
  }
  return portfolio::decide(history, model, options, /*describe_refuted=*/true);
}

}  // namespace ariadne
