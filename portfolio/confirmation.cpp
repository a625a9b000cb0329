#include "portfolio/confirmation.hpp"

#include "certify/witness_checker.hpp"
#include "engines/engine_table.hpp"
#include "refute/core_seeds.hpp"
#include "refute/relaxed_check.hpp"

#include <algorithm>
#include <optional>
#include <span>

namespace ariadne::portfolio {

namespace {

using Confirmed = Confirmation::Answer;

// The model's seeds tried of each kind before the whole partition is decided.
constexpr std::size_t kSeeds = 16;

Confirmation confirmed(std::vector<std::uint32_t> refuted, std::string by) {
  Confirmation c;
  c.answer = Confirmed::confirmed;
  std::sort(refuted.begin(), refuted.end());
  refuted.erase(std::unique(refuted.begin(), refuted.end()), refuted.end());
  c.refuted = std::move(refuted);
  c.by = std::move(by);
  return c;
}

std::vector<std::uint32_t> every_op(const search::SubHistory& sub) {
  std::vector<std::uint32_t> all(sub.ops.size());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

std::string refuter_name(const Refutation& refutation) {
  return refutation.winner ? std::string(engine_name(*refutation.winner)) : std::string("refuting");
}

// An order that contradicts the refutation counts only once the certificate checker
// has replayed it against the partition.
Confirmation contradiction(const Refutation& refutation, const Model& model, std::vector<std::uint32_t> order,
                           std::string by) {
  History partition;
  partition.ops.reserve(refutation.sub.ops.size());
  for (const Operation* op : refutation.sub.ops) partition.ops.push_back(*op);
  std::ranges::sort(partition.ops, {}, &Operation::id);
  if (auto problem = certify::check_linearization(partition, model, order, refutation.sub.consistency)) {
    throw InternalError("the " + refuter_name(refutation) + " engine refuted the history" + refutation.partition +
                        ", and the order " + by + " found instead failed the certificate check: " + *problem);
  }
  Confirmation c;
  c.answer = Confirmed::contradicted;
  c.linearization = std::move(order);
  c.by = std::move(by);
  return c;
}

// Linearizability: the relaxed checker, on the violation and then on everything.
Confirmation by_relaxed_checker(const Refutation& refutation, const Model& model, std::uint64_t memory_limit,
                                bool whole) {
  const search::SubHistory& sub = refutation.sub;
  refute::RelaxedChecker checker(sub.ops, model, refutation.limits, memory_limit, refutation.relevance);
  if (!refutation.refuting_ops.empty()) {
    std::vector<bool> keep(sub.ops.size(), false);
    for (const std::uint32_t i : refutation.refuting_ops) {
      if (i < keep.size()) keep[i] = true;
    }
    const refute::RelaxedDecision decision = checker.decide_quickly(keep);
    if (decision.verdict == refute::RelaxedVerdict::not_linearizable) {
      return confirmed(refutation.refuting_ops, "its violation, relaxed, refuted by the relaxed checker");
    }
    // Linearizable relaxed, the violation is no proof; the whole partition decides.
    if (decision.verdict == refute::RelaxedVerdict::undecided) return {};
  }
  if (!whole) return {};
  // The model's own seeds next (refute/core_seeds.hpp: a pattern of a few ops, a stale
  // read found by real time alone): each a few ops, decided in microseconds, where the
  // whole partition can take seconds (a 3,000-op cas-register key with repeated values:
  // 3 s for the solver, 2 ms for the stale read's seed). A refuted one also seeds the
  // core.
  const auto should_stop = [&refutation] { return refutation.limits.check() != search::StopSignal::Why::none; };
  const models::Semantics* semantics = checker.relevance().semantics();
  // Decided in order, the first refuted wins: the patterns, then the stale reads,
  // earliest first. The first stale read's seed is a core (search/stale_reads.cpp), so
  // it is found and decided alone before the others are looked for: finding 16 costs
  // a pass over most of the partition's reads, and on a kv key of long strings that
  // pass was most of the verdict (1.6 of 2.4 ms on Porcupine's c50-bad).
  std::optional<Confirmation> found;
  const auto decide_seeds = [&](std::span<const std::vector<std::uint32_t>> seeds) {
    for (const std::vector<std::uint32_t>& seed : seeds) {
      std::vector<bool> keep(sub.ops.size(), false);
      for (const std::uint32_t i : seed) keep[i] = true;
      const refute::RelaxedDecision decision = checker.decide_quickly(keep);
      if (decision.verdict == refute::RelaxedVerdict::not_linearizable) {
        found = confirmed(seed, "a violation the model's seeds name, relaxed, refuted by the relaxed checker");
        return true;
      }
      if (should_stop()) {
        found = Confirmation{};
        return true;
      }
    }
    return false;
  };
  if (decide_seeds(refute::pattern_seeds(sub.ops, semantics, kSeeds, should_stop))) return *found;
  const std::vector<std::vector<std::uint32_t>> first_stale =
      refute::stale_read_seeds(sub.ops, semantics, 1, should_stop);
  if (decide_seeds(first_stale)) return *found;
  if (!first_stale.empty()) {
    const std::vector<std::vector<std::uint32_t>> stale =
        refute::stale_read_seeds(sub.ops, semantics, kSeeds, should_stop);
    if (decide_seeds(std::span(stale).subspan(std::min<std::size_t>(1, stale.size())))) return *found;
  }
  const refute::RelaxedDecision decision = checker.decide_quickly(std::vector<bool>(sub.ops.size(), true));
  switch (decision.verdict) {
    case refute::RelaxedVerdict::not_linearizable:
      return confirmed(every_op(sub), "the partition refuted by the relaxed checker");
    case refute::RelaxedVerdict::linearizable:
      return contradiction(refutation, model, decision.linearization, "the relaxed checker");
    case refute::RelaxedVerdict::undecided: break;
  }
  return {};
}

// The sequential conditions: an engine of the other family decides the partition,
// else another engine of the same family.
Confirmation by_other_engine(const Refutation& refutation, const Model& model, std::uint64_t memory_limit) {
  const search::SubHistory& sub = refutation.sub;
  const Engine refuter = refutation.winner.value_or(Engine::automatic);
  const bool refuter_is_solver = refutation.winner && engines::engine_row(refuter).kind == engines::EngineKind::solver;
  search::MemoryBudget memory(memory_limit, refutation.limits.limits);
  for (const bool other_family : {true, false}) {
    for (const engines::EngineRow& row : engines::engine_rows()) {
      if (row.engine == refuter || !engines::decides(row, sub.consistency)) continue;
      if (((row.kind == engines::EngineKind::solver) != refuter_is_solver) != other_family) continue;
      if (row.refuses && row.refuses(sub, model)) continue;
      const std::unique_ptr<search::SearchEngine> engine = row.make(sub, model, memory, refutation.limits);
      const search::Outcome outcome = engine->run(UINT64_MAX);
      const std::string by = "the " + std::string(row.name) + " engine";
      if (outcome == search::Outcome::not_linearizable)
        return confirmed(every_op(sub), "the partition refuted by " + by);
      if (outcome == search::Outcome::linearizable) {
        std::vector<std::uint32_t> order;
        for (const std::uint32_t local : engine->linearization()) order.push_back(sub.ops[local]->id);
        return contradiction(refutation, model, std::move(order), by);
      }
      // An engine that withdrew (not its kind of partition) hands over to the next;
      // one stopped by a limit ends the confirmation.
      if (engine->withdrawal_reason().empty()) return {};
    }
  }
  return {};
}

}  // namespace

Confirmation confirm_refutation(const Refutation& refutation, const Model& model, std::uint64_t memory_limit,
                                bool whole) {
  if (keeps_real_time(refutation.sub.consistency)) return by_relaxed_checker(refutation, model, memory_limit, whole);
  return whole ? by_other_engine(refutation, model, memory_limit) : Confirmation{};
}

std::string contradicted_refutation(Engine engine, const std::string& partition, const Confirmation& confirmation) {
  const std::string name(engine_name(engine));
  return name + ": refuted the history" + partition + ", but " + confirmation.by +
         " found an order that the certificate checker accepts; its answer was dropped (a bug in " + name +
         ": please report it with this history)";
}

std::string uncertified_linearization(Engine engine, const std::string& problem) {
  const std::string name(engine_name(engine));
  // An order too branchy to replay is no sign of a bug, only of an answer nobody can check.
  if (certify::uncheckable(problem)) return name + ": its linearization could not be certified (" + problem + ")";
  return name + ": its linearization failed the certificate check (" + problem +
         "); its answer was dropped (a bug in " + name + ": please report it with this history)";
}

}  // namespace ariadne::portfolio
