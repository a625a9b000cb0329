// check(): the library's entry point. An independent model's keys are checked each as
// its own history (independent.hpp), except under sequential consistency, which is
// not local; any other history is decided whole
// (decide.hpp), its partitions scheduled over the engines (scheduler.hpp) and raced
// when they hold out (race_plan.hpp, race.hpp).
#include <ariadne/check.hpp>

#include "portfolio/decide.hpp"
#include "portfolio/independent.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace ariadne {

namespace {

// Whether the history reads as jepsen.independent writes one: every op's invocation
// value a [key value] tuple. Plain histories do not: reads, dequeues and pops are
// invoked with nil; a history of nothing but cas ops ([old new]) is not counted, nor
// one whose "keys" are vectors (multi-register's micro-ops, [[:r :x nil] ...]).
bool every_value_a_key_tuple(const History& history) {
  bool other_than_cas = false;
  for (const Operation& op : history.ops) {
    const Value& v = op.invoke_value;
    if (v.kind() != Value::Kind::vector || v.elements().size() != 2) return false;
    if (v.elements()[0].is_sequential() || v.elements()[0].is_map()) return false;
    other_than_cas = other_than_cas || op.f != "cas";
  }
  return other_than_cas;
}

std::string independent_hint(const Model& model) {
  return "Every value in this history is a [key value] tuple, as Jepsen's independent checker writes them, but "
         "the model " +
         model.spec() +
         " reads each tuple as one value of one object: if each key is an object of its own, check with " +
         "--independent (the model independent(" + model.spec() + ")).";
}

}  // namespace

CheckResult check(const History& history, const Model& model, const CheckOptions& given) {
  // The check's limits, made here once when the caller has none, from the options'
  // own fields; every part of the check below polls these.
  std::optional<Limits> own_limits;
  CheckOptions options = given;
  if (!options.limits) {
    own_limits.emplace(LimitSettings{.timeout_seconds = given.timeout_seconds,
                                     .memory_limit = given.memory_limit,
                                     .cancel = given.cancel,
                                     .jobs = given.jobs});
    options.limits = &*own_limits;
  }
  // The partitions' workers and the keys' pool (CheckOptions::jobs) never go past the
  // command's jobs, which the rest of the check (the race, the core) keeps to.
  const unsigned jobs = options.limits->jobs();
  options.jobs = options.jobs == 0 ? jobs : std::min(options.jobs, jobs);
  // Sequential consistency is not local: an independent history is decided whole, as
  // one object whose state holds every key's (models/independent.cpp).
  const Model* inner = options.consistency == Consistency::sequential ? nullptr : independent_inner_model(model);
  if (inner) {
    return portfolio::check_independent(history, model, *inner, options);
  }
  CheckResult result = portfolio::decide(history, model, options, /*describe_refuted=*/!options.verdict_only);
  if (!independent_inner_model(model) && every_value_a_key_tuple(history)) {
    result.hint = independent_hint(model);
    // A refutation of such a history most likely says only that: first.
    if (result.verdict == Verdict::not_linearizable) result.explanation = result.hint + "\n" + result.explanation;
  }
  return result;
}

}  // namespace ariadne
