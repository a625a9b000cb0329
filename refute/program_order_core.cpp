// Deletion-based shrinking of a sequential-consistency core (see the header).
#include "refute/program_order_core.hpp"

#include "models/semantics.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

namespace ariadne::refute {

namespace {

enum class Decision { holds, fails, unknown };

Decision decide(std::span<const Operation* const> ops, const Model& model, const search::StopSignal& stop,
                std::uint64_t memory_limit) {
  search::SubHistory sub;
  sub.ops.assign(ops.begin(), ops.end());
  sub.consistency = Consistency::sequential;
  search::MemoryBudget memory(memory_limit, stop.limits);
  auto engine = search::make_program_order_search(sub, model, memory, stop);
  switch (engine->run(0)) {
    case search::Outcome::linearizable: return Decision::holds;
    case search::Outcome::not_linearizable: return Decision::fails;
    default: return Decision::unknown;
  }
}

// The relaxed history that keeps `keep` (the core's reading).
Decision decide_relaxed(std::span<const Operation* const> ops, const Model& model, const std::vector<bool>& keep,
                        const search::StopSignal& stop, std::uint64_t memory_limit) {
  std::vector<const Operation*> pointers;
  const std::vector<Operation> relaxed = relax_outside(ops, keep, pointers);
  return decide(pointers, model, stop, memory_limit);
}

// The history with only `keep`'s ops, less the completed reads of a register value
// no kept op writes (and that is not the initial one): a cheaper question with no
// free ops to place, whose reads still have their writers. It only proposes a core;
// the relaxed question confirms it.
Decision decide_removed(std::span<const Operation* const> ops, const Model& model, const std::vector<bool>& keep,
                        const search::StopSignal& stop, std::uint64_t memory_limit) {
  std::vector<const Operation*> kept;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (keep[i]) kept.push_back(ops[i]);
  }
  const std::optional<models::Semantics> semantics = models::semantics_of(model, kept);
  if (semantics && semantics->theory == models::Theory::registers) {
    using Kind = models::RegisterAccess::Kind;
    std::set<std::pair<std::uint32_t, std::uint32_t>> written;
    bool appends = false;
    for (const models::OpMeaning& m : semantics->ops) {
      for (const models::RegisterAccess& a : m.accesses) {
        if (a.kind == Kind::write) written.emplace(a.key, a.value);
        appends |= a.kind == Kind::append;
      }
    }
    if (!appends) {
      std::vector<const Operation*> readable;
      for (std::size_t i = 0; i < kept.size(); ++i) {
        const auto unreadable = [&](const models::RegisterAccess& a) {
          return a.kind == Kind::read && a.key < semantics->initial.size() && semantics->initial[a.key] != a.value &&
                 !written.contains({a.key, a.value});
        };
        if (!std::ranges::any_of(semantics->ops[i].accesses, unreadable)) readable.push_back(kept[i]);
      }
      kept = std::move(readable);
    }
  }
  return decide(kept, model, stop, memory_limit);
}

using Question = Decision (*)(std::span<const Operation* const>, const Model&, const std::vector<bool>&,
                              const search::StopSignal&, std::uint64_t);

// Deletion in halving chunks (see the header) over the ops `keep` holds, asking
// `question`; `keep` shrinks to what stays needed. False when a decision was cut short
// (`keep` is then what it was at that point).
bool shrink(std::span<const Operation* const> ops, const Model& model, std::vector<bool>& keep, Question question,
            const search::StopSignal& stop, std::uint64_t memory_limit, std::uint64_t& decisions) {
  std::vector<std::uint32_t> untried;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (keep[i]) untried.push_back(i);
  }
  std::size_t chunk = std::max<std::size_t>(1, untried.size() / 2);
  while (!untried.empty()) {
    std::vector<std::uint32_t> needed;  // chunks that could not go, to retry smaller
    for (std::size_t start = 0; start < untried.size(); start += chunk) {
      const std::size_t end = std::min(untried.size(), start + chunk);
      for (std::size_t k = start; k < end; ++k) keep[untried[k]] = false;
      ++decisions;
      const Decision d = question(ops, model, keep, stop, memory_limit);
      if (d == Decision::fails) continue;  // the chunk is not needed
      for (std::size_t k = start; k < end; ++k) keep[untried[k]] = true;
      if (d == Decision::unknown) return false;
      // A single op that had to stay is in every core within this one (monotonicity);
      // a larger chunk is split and tried again.
      if (end - start > 1) needed.insert(needed.end(), untried.begin() + start, untried.begin() + end);
    }
    if (chunk == 1) break;
    untried = std::move(needed);
    chunk = std::max<std::size_t>(1, chunk / 2);
  }
  return true;
}

}  // namespace

std::vector<Operation> relax_outside(std::span<const Operation* const> ops, const std::vector<bool>& keep,
                                     std::vector<const Operation*>& pointers) {
  std::vector<Operation> relaxed;
  relaxed.reserve(ops.size());
  // Fresh process ids below every recorded one (client processes are integers Jepsen
  // numbers from 0; the relaxed ones count down from the smallest seen).
  std::int64_t lowest = 0;
  for (const Operation* op : ops) lowest = std::min(lowest, op->process);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    Operation op = *ops[i];
    if (!keep[i]) {
      if (op.status != OpStatus::crashed) op.value = op.invoke_value;
      op.status = OpStatus::crashed;
      op.ret = kNever;
      op.process = --lowest;
    }
    relaxed.push_back(std::move(op));
  }
  pointers.clear();
  for (const Operation& op : relaxed) pointers.push_back(&op);
  return relaxed;
}

CoreSearch find_program_order_core(std::span<const Operation* const> ops, const Model& model,
                                   const search::StopSignal& stop, std::uint64_t memory_limit) {
  CoreSearch out;
  // First without the relaxation: removing ops leaves no free ops to place, so each
  // question is about as cheap as the verdict, and a large history loses most of its
  // ops fast. What is left is a core of the history with the rest removed, which is
  // usually a core under the relaxation too; when it is, the relaxed deletion below
  // starts from it, and when it is not, from the whole history.
  std::vector<bool> keep(ops.size(), true);
  std::vector<bool> all(ops.size(), true);
  if (!shrink(ops, model, keep, decide_removed, stop, memory_limit, out.decisions)) keep = all;
  if (keep != all) {
    ++out.decisions;
    const Decision d = decide_relaxed(ops, model, keep, stop, memory_limit);
    if (d != Decision::fails) keep = all;
  }
  // Cut short, `keep` is still a core: it started as one (the whole history, or the
  // removal pass's result confirmed above), and shrink() drops ops only on "fails".
  out.minimal = shrink(ops, model, keep, decide_relaxed, stop, memory_limit, out.decisions);
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (keep[i]) out.core.push_back(i);
  }
  return out;
}

}  // namespace ariadne::refute
