// Deletion-based shrinking of a sequential-consistency core (see the header).
#include "refute/program_order_core.hpp"

#include <algorithm>
#include <stdexcept>

namespace ariadne::refute {

namespace {

enum class Decision { holds, fails, unknown };

Decision decide_relaxed(std::span<const Operation* const> ops, const Model& model, const std::vector<bool>& keep,
                        const search::StopSignal& stop, std::uint64_t memory_limit) {
  std::vector<const Operation*> pointers;
  const std::vector<Operation> relaxed = relax_outside(ops, keep, pointers);
  search::SubHistory sub;
  sub.ops = pointers;
  sub.consistency = Consistency::sequential;
  search::MemoryBudget memory(memory_limit, stop.limits);
  auto engine = search::make_program_order_search(sub, model, memory, stop);
  switch (engine->run(0)) {
    case search::Outcome::linearizable: return Decision::holds;
    case search::Outcome::not_linearizable: return Decision::fails;
    default: return Decision::unknown;
  }
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
  std::vector<bool> keep(ops.size(), true);
  // Candidates still to try relaxing, in order; chunks halve down to single ops.
  std::vector<std::uint32_t> untried(ops.size());
  for (std::uint32_t i = 0; i < ops.size(); ++i) untried[i] = i;
  std::size_t chunk = std::max<std::size_t>(1, ops.size() / 2);
  bool cut_short = false;
  while (!untried.empty() && !cut_short) {
    std::vector<std::uint32_t> needed;  // chunks that could not go, to retry smaller
    for (std::size_t start = 0; start < untried.size(); start += chunk) {
      const std::size_t end = std::min(untried.size(), start + chunk);
      for (std::size_t k = start; k < end; ++k) keep[untried[k]] = false;
      ++out.decisions;
      const Decision d = decide_relaxed(ops, model, keep, stop, memory_limit);
      if (d == Decision::fails) continue;  // the chunk is not needed: it stays relaxed
      for (std::size_t k = start; k < end; ++k) keep[untried[k]] = true;
      if (d == Decision::unknown) {
        cut_short = true;
        break;
      }
      // A single op that had to stay is in every core within this one; a larger
      // chunk is split and tried again.
      if (end - start > 1) needed.insert(needed.end(), untried.begin() + start, untried.begin() + end);
    }
    if (chunk == 1) break;
    untried = std::move(needed);
    chunk = std::max<std::size_t>(1, chunk / 2);
  }
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (keep[i]) out.core.push_back(i);
  }
  out.minimal = !cut_short;
  return out;
}

}  // namespace ariadne::refute
