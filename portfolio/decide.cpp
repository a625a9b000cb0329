// decide(): one check of one history, the partitions' answers composed into the
// result. The scheduler (scheduler.hpp) decides the partitions; a refutation is final
// whatever else happened, then memory is the more specific reason for unknown, then
// the other limits; otherwise the partitions' certified linearizations are merged and
// the merged order certified once more against the whole history.
#include "portfolio/decide.hpp"

#include "certify/witness_checker.hpp"
#include "engines/engine_table.hpp"
#include "portfolio/confirmation.hpp"
#include "portfolio/partition.hpp"
#include "portfolio/refutation.hpp"
#include "portfolio/scheduler.hpp"

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ariadne::portfolio {

using search::Outcome;

namespace {

using Clock = std::chrono::steady_clock;

// A refuted partition's verdict that no confirmation could be had for within the
// limits: unknown, saying so.
void unconfirmed(CheckResult& result, const Limits& limits, const Refutation& refutation) {
  // reached() also notices a deadline that nothing polled since it passed.
  const Limit now = limits.reached();
  const Limit reached = limits.first_reached() != Limit::none ? limits.first_reached() : now;
  result.verdict = Verdict::unknown;
  result.reason = "the " + std::string(engine_name(refutation.winner.value_or(Engine::automatic))) +
                  " engine refuted the history" + refutation.partition + ", but ";
  result.reason += reached == Limit::none ? "no other engine takes it, to confirm that"
                                          : "its confirmation did not finish: " + limits.describe(reached);
}

CheckResult decide_distrusting(const History& history, const Model& model, const CheckOptions& options,
                               bool describe_refuted, std::optional<Refutation>* kept, std::vector<Engine> distrusted,
                               std::vector<std::string> dropped);

// A refuted partition's refutation and its confirmation, and when that was done.
struct ConfirmedRefutation {
  Refutation refutation;
  Confirmation confirmation;
  Clock::time_point at;
};

// Partition p's refutation, its ops moved out of p (a partition can hold 10^6 ops, and
// a refuted one is not searched again), confirmed (confirmation.hpp).
ConfirmedRefutation confirm_partition(Partition& p, const Model& model, const CheckOptions& options,
                                      const Limits& limits, const search::StopSignal& check_limits) {
  ConfirmedRefutation c;
  Refutation& refutation = c.refutation;
  refutation.partition = describe_partition(model, p);
  refutation.sub = std::move(p.sub);
  refutation.winner = p.answer.winner;
  refutation.steps = p.answer.steps;
  refutation.refuting_ops = std::move(p.answer.refuting_ops);
  refutation.limits = check_limits;
  if (keeps_real_time(refutation.sub.consistency)) {
    refutation.relevance = std::make_shared<const refute::RelaxedRelevance>(refutation.sub.ops, model);
  }
  // Confirmed before it is reported, as part of the verdict: a limit reached later, in
  // the core or the proof, then leaves a confirmed verdict standing. Confirming costs
  // about a verdict more when neither the engine nor the model's seeds name a
  // violation, a small part of what the core costs after it.
  const std::uint64_t memory_limit = limits.memory_limit() > 0 ? limits.memory_limit() : options.memory_limit;
  c.confirmation = confirm_refutation(refutation, model, memory_limit, /*whole=*/true);
  c.at = Clock::now();
  return c;
}

}  // namespace

CheckResult decide(const History& history, const Model& model, const CheckOptions& options, bool describe_refuted,
                   std::optional<Refutation>* kept) {
  return decide_distrusting(history, model, options, describe_refuted, kept, {}, {});
}

namespace {

// decide(), never running the engines in `distrusted`, whose refutations a
// confirmation contradicted earlier in this check (`dropped` says so, for the result).
CheckResult decide_distrusting(const History& history, const Model& model, const CheckOptions& options,
                               bool describe_refuted, std::optional<Refutation>* kept, std::vector<Engine> distrusted,
                               std::vector<std::string> dropped) {
  const auto started = std::chrono::steady_clock::now();
  CheckResult result;
  result.consistency = options.consistency;
  result.operations = history.ops.size();
  const Engine engine = options.engine;
  result.engine = std::string(engine_name(engine == Engine::automatic ? opening_engine(options.consistency) : engine));

  const Limits& limits = check_limits(options);
  limits.enter(Phase::verdict);

  std::vector<Partition> parts = split(history, model, options.consistency);
  result.partitions = parts.size();
  auto finish = [&]() -> CheckResult {
    result.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (const Limit reached = limits.first_reached(); reached != Limit::none) {
      result.limit = reached;
      result.limit_phase = limits.phase_when_reached();
    }
    return result;
  };

  // An engine chosen alone that refuses a partition outright (the brute force beyond
  // its size) leaves the answer unknown before anything runs. The solvers' refusals
  // are their own withdrawals, said when they run (RaceRole and refuses are for the
  // race's plan).
  const engines::EngineRow* alone = engine == Engine::automatic ? nullptr : &engines::engine_row(engine);
  if (alone && !engines::decides(*alone, options.consistency)) {
    result.verdict = Verdict::unknown;
    result.reason = "the " + std::string(alone->name) + " engine does not decide the " +
                    std::string(consistency_name(options.consistency)) + " condition";
    return finish();
  }
  if (alone && alone->kind == engines::EngineKind::native && alone->refuses) {
    for (const Partition& p : parts) {
      if (const auto why = alone->refuses(p.sub, model)) {
        result.verdict = Verdict::unknown;
        result.reason = *why + describe_partition(model, p);
        return finish();
      }
    }
  }

  // Each refutation that is the first in order so far is confirmed by the worker that
  // found it, while the partitions before it may still run: the first confirmed is
  // when the verdict is known (verdict_ms), whichever key is reported in the end.
  std::vector<std::optional<ConfirmedRefutation>> confirmed(parts.size());
  std::mutex confirmed_mutex;
  std::optional<Clock::time_point> first_confirmed;
  const RefutedHook on_refuted = [&](std::size_t i, const search::StopSignal& check_limits) {
    ConfirmedRefutation c = confirm_partition(parts[i], model, options, limits, check_limits);
    const std::lock_guard lock(confirmed_mutex);
    if (c.confirmation.answer == Confirmation::Answer::confirmed && (!first_confirmed || c.at < *first_confirmed)) {
      first_confirmed = c.at;
    }
    confirmed[i] = std::move(c);
  };
  const Schedule schedule_done = schedule(parts, model, options, limits, engine, distrusted, on_refuted);
  result.race.withdrawals = dropped;
  result.dropped_answers = dropped;
  result.peak_search_bytes = schedule_done.peak_search_bytes;
  for (const Partition& p : parts) result.steps += p.answer.steps;
  // The engine that answered: the refuting partition's, else the one that decided the
  // partition that took longest, which is where the race (if any) was run.
  const Partition* slowest = nullptr;
  for (const Partition& p : parts) {
    if (p.answer.winner && (!slowest || p.answer.searched > slowest->answer.searched)) slowest = &p;
  }
  if (slowest) result.engine = engine_name(*slowest->answer.winner);
  for (const Partition& p : parts) {
    // Dropped answers are withdrawals too, whether or not the partition was raced.
    result.dropped_answers.insert(result.dropped_answers.end(), p.answer.dropped.begin(), p.answer.dropped.end());
    result.race.withdrawals.insert(result.race.withdrawals.end(), p.answer.dropped.begin(), p.answer.dropped.end());
    if (p.answer.race.entrants.empty()) continue;
    if (result.race.entrants.empty() || &p == slowest) result.race.entrants = p.answer.race.entrants;
    if (p.answer.race.losers_stopped_ms >= result.race.losers_stopped_ms) {
      result.race.losers_stopped_ms = p.answer.race.losers_stopped_ms;
      result.race.slowest_loser = p.answer.race.slowest_loser;
    }
    result.race.withdrawals.insert(result.race.withdrawals.end(), p.answer.race.withdrawals.begin(),
                                   p.answer.race.withdrawals.end());
  }

  // A refutation is final whatever else happened; report the first partition refuted
  // in order (the scheduler's rule, kMinGrace in scheduler.cpp).
  for (std::size_t i = 0; i < parts.size(); ++i) {
    Partition& p = parts[i];
    if (p.answer.outcome != Outcome::not_linearizable) continue;
    result.verdict = Verdict::not_linearizable;
    if (p.answer.winner) result.engine = engine_name(*p.answer.winner);
    if (!p.answer.race.entrants.empty()) result.race.entrants = p.answer.race.entrants;
    // Confirmed by the scheduler's hook, or here if the hook did not run for it.
    if (!confirmed[i]) confirmed[i] = confirm_partition(p, model, options, limits, schedule_done.limits);
    Refutation& refutation = confirmed[i]->refutation;
    const Confirmation& confirmation = confirmed[i]->confirmation;
    if (confirmation.answer == Confirmation::Answer::contradicted) {
      if (!refutation.winner)
        throw InternalError("a refutation no engine made was contradicted" + refutation.partition);
      const Engine refuter = *refutation.winner;
      // Every answer dropped so far (the partitions' uncertified orders too), then this.
      dropped = result.dropped_answers;
      dropped.push_back(contradicted_refutation(refuter, refutation.partition, confirmation));
      if (engine != Engine::automatic) {
        // The engine chosen alone was wrong, and no other may answer for it.
        result.verdict = Verdict::unknown;
        result.reason = dropped.back();
        result.race.withdrawals.push_back(dropped.back());
        result.dropped_answers.push_back(dropped.back());
        return finish();
      }
      distrusted.push_back(refuter);
      return decide_distrusting(history, model, options, describe_refuted, kept, std::move(distrusted),
                                std::move(dropped));
    }
    if (confirmation.answer == Confirmation::Answer::undecided) {
      unconfirmed(result, limits, refutation);
      return finish();
    }
    if (splits_by_key(model, options.consistency)) result.failing_partition = p.key.to_edn();
    // The confirmed violation seeds the core, unless it is the whole partition.
    if (confirmation.refuted.size() < refutation.sub.ops.size()) refutation.refuting_ops = confirmation.refuted;
    // The verdict was known when the first refutation was confirmed, which may be a
    // key after this one: the wait for the keys before it only chose the key reported.
    // The budgets of the failing-op search and the core go by this key's own time,
    // which says how hard its partition is.
    refutation.verdict_time = confirmed[i]->at - started;
    result.verdict_ms =
        std::chrono::duration<double, std::milli>(first_confirmed.value_or(confirmed[i]->at) - started).count();
    if (describe_refuted) {
      describe_refutation(refutation, model, options, limits, result);
    } else if (kept && options.limits) {
      *kept = std::move(refutation);
    }
    return finish();
  }
  // Unknown: memory is the more specific reason, since running out of it stops the
  // other partitions too (they then merely report having been stopped).
  const Partition* undecided = nullptr;
  for (const Partition& p : parts) {
    if (p.answer.outcome == Outcome::out_of_memory) {
      limits.note_memory_exceeded();
      result.verdict = Verdict::unknown;
      result.reason = limits.describe(Limit::memory) + describe_partition(model, p);
      // The limit named is the reason's. In a race, an engine that runs out of its
      // memory drops out and the others go on, so the deadline may have come first
      // by the time the race ends; the memory is still why there is no answer.
      CheckResult answered = finish();
      answered.limit = Limit::memory;
      return answered;
    }
    if (p.answer.outcome != Outcome::linearizable && !undecided) undecided = &p;
  }
  if (undecided) {
    result.verdict = Verdict::unknown;
    const Limit reached = limits.first_reached();
    if (reached == Limit::none && !undecided->answer.withdrawal.empty()) {
      result.reason = undecided->answer.withdrawal + describe_partition(model, *undecided);
    } else if (reached == Limit::cancelled || reached == Limit::memory) {
      result.reason = limits.describe(reached) + describe_partition(model, *undecided);
    } else {
      // The deadline, whether the limits or an engine noticed it first.
      if (reached == Limit::none) (void)limits.reached();
      result.reason = limits.describe(Limit::timeout) + describe_partition(model, *undecided);
    }
    return finish();
  }

  std::vector<std::vector<ChainLink>> chains;
  chains.reserve(parts.size());
  for (Partition& p : parts) chains.push_back(std::move(p.answer.chain));
  result.linearization = merge_chains(chains);
  // Each partition's legality was replayed as it was decided (certify_legality).
  if (auto problem = certify::check_order(history, model, result.linearization, options.consistency)) {
    throw InternalError("the " + result.engine + " engine's linearization failed the certificate check: " + *problem);
  }
  result.verdict = Verdict::linearizable;
  return finish();
}

}  // namespace

}  // namespace ariadne::portfolio
