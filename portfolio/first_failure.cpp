// Finding the first failing completion by binary search over prefixes.
//
// The prefix P(t) of a history holds the ops invoked by event t; those still open at t
// become crashed (they may or may not have taken effect by then). Linearizability is
// monotone in t: cutting a linearization of P(t') (t' > t) just before its first op
// invoked after t leaves every op that completed by t (real time puts them first) with
// its observed result, and only pending ops otherwise, which P(t) allows. So the
// prefixes switch from linearizable to not exactly once, at an :ok completion (a new
// invocation alone only adds an optional op), and log2(n) searches find where.
//
// Each prefix is asked of the race's first engines (engines.cpp: the unique-value
// tests, which answer in near-linear time or decline at once), then of WGL.
#include "portfolio/first_failure.hpp"

#include "portfolio/engines.hpp"

#include <algorithm>

namespace ariadne::portfolio {

namespace {

enum class PrefixVerdict { linearizable, not_linearizable, undecided };

PrefixVerdict check_prefix(const search::SubHistory& sub, std::uint64_t cut, const Model& model,
                           search::MemoryBudget& memory, const search::StopSignal& stop, std::uint64_t budget,
                           std::uint64_t& spent, std::vector<std::uint32_t>* order = nullptr) {
  std::vector<Operation> prefix_ops;
  for (const Operation* op : sub.ops) {
    if (op->call > cut) break;  // ops are in call order
    Operation copy = *op;
    if (copy.ret > cut) {
      copy.status = OpStatus::crashed;
      copy.ret = kNever;
      copy.value = copy.invoke_value;
    }
    prefix_ops.push_back(std::move(copy));
  }
  search::SubHistory prefix;
  for (const Operation& op : prefix_ops) prefix.ops.push_back(&op);
  std::unique_ptr<search::SearchEngine> engine;
  search::Outcome outcome = search::Outcome::stopped;
  for (const EngineRow& row : engine_rows()) {
    if (!row.first_in_race) continue;
    engine = row.make(prefix, model, memory, stop);
    outcome = engine->run(budget > spent ? budget - spent : 0);
    spent += engine->steps();
    if (outcome == search::Outcome::linearizable || outcome == search::Outcome::not_linearizable) break;
    engine.reset();
  }
  if (!engine && stop.check() == search::StopSignal::Why::none) {
    engine = search::make_wgl(prefix, model, memory, stop);
    outcome = engine->run(budget > spent ? budget - spent : 0);
    spent += engine->steps();
  }
  switch (outcome) {
    case search::Outcome::linearizable:
      if (order) {
        for (const std::uint32_t i : engine->linearization()) order->push_back(prefix_ops[i].id);
      }
      return PrefixVerdict::linearizable;
    case search::Outcome::not_linearizable: return PrefixVerdict::not_linearizable;
    default: return PrefixVerdict::undecided;
  }
}

}  // namespace

std::optional<FirstFailure> find_first_failure(const search::SubHistory& sub, const Model& model,
                                               search::MemoryBudget& memory, const search::StopSignal& stop,
                                               std::uint64_t step_budget) {
  std::vector<const Operation*> completions;
  for (const Operation* op : sub.ops) {
    if (op->must_take_effect()) completions.push_back(op);
  }
  if (completions.empty()) return std::nullopt;
  std::sort(completions.begin(), completions.end(),
            [](const Operation* a, const Operation* b) { return a->ret < b->ret; });
  // Invariant: the prefix ending at completions[hi] is not linearizable (the whole
  // partition is known not to be), and every prefix ending before completions[lo] is.
  std::size_t lo = 0, hi = completions.size() - 1;
  std::uint64_t spent = 0;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    switch (check_prefix(sub, completions[mid]->ret, model, memory, stop, step_budget, spent)) {
      case PrefixVerdict::not_linearizable: hi = mid; break;
      case PrefixVerdict::linearizable: lo = mid + 1; break;
      case PrefixVerdict::undecided: return std::nullopt;
    }
  }
  return FirstFailure{completions[lo], static_cast<std::size_t>(completions[lo]->ret)};
}

std::optional<std::vector<std::uint32_t>> linearize_prefix(const search::SubHistory& sub, const Model& model,
                                                           const FirstFailure& failure, search::MemoryBudget& memory,
                                                           const search::StopSignal& stop,
                                                           std::uint64_t step_budget) {
  std::vector<std::uint32_t> order;
  std::uint64_t spent = 0;
  // Events are numbered from 0, so the completion at position ret is preceded by
  // positions up to ret - 1; a completion is never the first event.
  const std::uint64_t cut = failure.op->ret - 1;
  if (check_prefix(sub, cut, model, memory, stop, step_budget, spent, &order) != PrefixVerdict::linearizable) {
    return std::nullopt;
  }
  return order;
}

}  // namespace ariadne::portfolio
