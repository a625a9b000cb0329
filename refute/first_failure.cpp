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
// Each check costs about the prefix's length, so a plain binary search costs about
// log2(n) times the failing prefix. When the refuting engine named its few ops (the
// unique-value tests' violated condition), the failure lies at or before the last
// completion among them, and usually at it: once the prefix ending there is refuted,
// the search gallops back from it (1, 2, 4, ... completions) to a linearizable prefix
// and bisects only what lies between, a few checks in all. Nothing is taken on trust:
// the hint's prefix is checked like any other, and the invariant below holds either way.
//
// Each prefix is asked of the race's first engines (engines.cpp: the unique-value
// tests, which answer in near-linear time or decline at once), then of WGL.
#include "refute/first_failure.hpp"

#include "engines/engine_table.hpp"

#include <algorithm>

namespace ariadne::refute {

namespace {

enum class PrefixVerdict { linearizable, not_linearizable, undecided };

PrefixVerdict check_prefix(const search::SubHistory& sub, std::uint64_t cut, const Model& model,
                           search::MemoryBudget& memory, const search::StopSignal& stop, std::uint64_t budget,
                           std::uint64_t& spent, std::vector<std::uint32_t>* order = nullptr) {
  // Only the ops still open at the cut change (they become crashed); the others are
  // the partition's own, not copies, so a check costs what its engine does.
  std::size_t open = 0;
  std::size_t size = 0;
  for (const Operation* op : sub.ops) {
    if (op->call > cut) break;  // ops are in call order
    ++size;
    open += op->ret > cut ? 1 : 0;
  }
  std::vector<Operation> cut_open;
  cut_open.reserve(open);  // never reallocated: prefix.ops points into it
  search::SubHistory prefix;
  prefix.ops.reserve(size);
  for (std::size_t i = 0; i < size; ++i) {
    const Operation* op = sub.ops[i];
    if (op->ret <= cut) {
      prefix.ops.push_back(op);
      continue;
    }
    Operation& copy = cut_open.emplace_back(*op);
    copy.status = OpStatus::crashed;
    copy.ret = kNever;
    copy.value = copy.invoke_value;
    prefix.ops.push_back(&copy);
  }
  std::unique_ptr<search::SearchEngine> engine;
  search::Outcome outcome = search::Outcome::stopped;
  for (const engines::EngineRow& row : engines::engine_rows()) {
    if (row.race != engines::RaceRole::first) continue;
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
        for (const std::uint32_t i : engine->linearization()) order->push_back(prefix.ops[i]->id);
      }
      return PrefixVerdict::linearizable;
    case search::Outcome::not_linearizable: return PrefixVerdict::not_linearizable;
    default: return PrefixVerdict::undecided;
  }
}

}  // namespace

std::optional<FirstFailure> find_first_failure(const search::SubHistory& sub, const Model& model,
                                               search::MemoryBudget& memory, const search::StopSignal& stop,
                                               std::uint64_t step_budget, std::span<const std::uint32_t> refuting_ops) {
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
  std::uint64_t hint_cut = 0;  // the last completion among the refuting ops
  for (const std::uint32_t i : refuting_ops) {
    if (i < sub.ops.size() && sub.ops[i]->must_take_effect()) hint_cut = std::max(hint_cut, sub.ops[i]->ret);
  }
  if (hint_cut > 0) {
    const auto at = std::lower_bound(completions.begin(), completions.end(), hint_cut,
                                     [](const Operation* op, std::uint64_t t) { return op->ret < t; });
    const auto index = static_cast<std::size_t>(at - completions.begin());
    if (index < hi) {
      switch (check_prefix(sub, completions[index]->ret, model, memory, stop, step_budget, spent)) {
        case PrefixVerdict::not_linearizable: hi = index; break;
        case PrefixVerdict::linearizable: lo = index + 1; break;
        case PrefixVerdict::undecided: return std::nullopt;
      }
    }
    // Gallop back from hi to a linearizable prefix.
    for (std::size_t step = 1; lo < hi; step *= 2) {
      const std::size_t probe = hi - std::min(step, hi - lo);
      if (probe == hi) break;
      const PrefixVerdict verdict = check_prefix(sub, completions[probe]->ret, model, memory, stop, step_budget, spent);
      if (verdict == PrefixVerdict::undecided) return std::nullopt;
      if (verdict == PrefixVerdict::linearizable) {
        lo = probe + 1;
        break;
      }
      hi = probe;
    }
  }
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
                                                           const search::StopSignal& stop, std::uint64_t step_budget) {
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

}  // namespace ariadne::refute
