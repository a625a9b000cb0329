#include "explain/explanation.hpp"

#include "explain/dead_ends.hpp"
#include "explain/excerpt.hpp"
#include "explain/reads_from.hpp"
#include "models/semantics.hpp"
#include "refute/relaxed_history.hpp"
#include "refute/relevant_relaxed.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_set>

namespace ariadne::explain {

namespace {

std::string event_span(const Operation& op) {
  if (op.ret == kNever) return "from event " + std::to_string(op.call) + ", never completed";
  return "events " + std::to_string(op.call) + " to " + std::to_string(op.ret);
}

// The last few ops of a run, the ones nearest the dead end: "after 11 ops (…, A, B, C)".
std::string run_words(const Model& model, const SearchOps& ops, const std::vector<std::uint32_t>& path) {
  constexpr std::size_t kShownOps = 3;
  const auto op_words = [&](std::uint32_t i) {
    const Operation& op = *ops.recorded[i];
    return shorten(model.describe_operation(op), kExcerptWidth) + " (op " + std::to_string(op.id) +
           (ops.relaxed.kept[i] ? ")" : ", outside the core)");
  };
  if (path.empty()) return "at the start,";
  std::string out = "after ";
  std::size_t first = 0;
  if (path.size() > kShownOps) {
    first = path.size() - kShownOps;
    out += std::to_string(path.size()) + " ops (…, ";
  }
  for (std::size_t p = first; p < path.size(); ++p) out += (p > first ? ", " : "") + op_words(path[p]);
  return out + (path.size() > kShownOps ? "):" : ":");
}

std::string why_no_order(const Model& model, std::span<const Operation* const> core,
                         std::span<const Operation* const> partition, const RelaxedRelevance& relevance,
                         std::chrono::steady_clock::time_point deadline, const Limits* limits) {
  const DeadEnds found = find_dead_ends(model, core, partition, relevance, deadline, limits);
  const SearchOps& ops = found.ops;
  if (found.out_of_time && found.ends.empty()) {
    return "Why no order works: the check's time ran out before the dead ends of these ops and the " +
           std::to_string(ops.others) +
           " others that could change the state were listed; the solver's refutation covers them all "
           "(--proof writes it down).\n";
  }
  if (found.cut_short && found.ends.empty()) {
    return "Why no order works: too many orders of these ops and the " + std::to_string(ops.others) +
           " others that could change the state to list the dead ends; the solver's refutation covers them all "
           "(--proof writes it down).\n";
  }
  if (found.ordered) {
    return "Why no order works: these ops can be ordered with the others that fit in this search; it takes "
           "the remaining others, which may take effect anywhere, to rule every order out (the solver's "
           "refutation; --proof writes it down).\n";
  }
  std::string out = "Why no order works: ";
  if (found.cut_short) {
    out +=
        "orders run into dead ends (too many orders to list them all; the solver's refutation covers every "
        "one)";
  } else if (ops.others_left_out != 0) {
    out += "every order of these ops and " + std::to_string(ops.others) +
           " others that could change the state runs into a dead end";
  } else {
    out += "every order real time allows runs into a dead end";
  }
  if (ops.others != 0) out += " (ops marked 'outside the core' may take effect anywhere, or never)";
  out += ", such as:\n";
  // A few, each a different op refused in a different state: the same refusal reached
  // by many runs reads as one line repeated.
  constexpr std::size_t kMaxDeadEnds = 3;
  std::set<std::pair<std::uint32_t, std::string>> shown;
  std::size_t listed = 0;
  for (const DeadEnd& end : found.ends) {
    if (listed == kMaxDeadEnds) break;
    if (!shown.insert({end.blocked, end.state}).second) continue;
    ++listed;
    const Operation& blocked = *ops.recorded[end.blocked];
    const std::string wanted = blocked.value.to_edn();
    out += "  - " + run_words(model, ops, end.path) + " the state is " + excerpt_near_difference(end.state, wanted) +
           ", in which " + name_op(model, blocked) + " cannot take effect.\n";
  }
  const std::size_t more = found.ends.size() - listed + found.dropped;
  if (more != 0) {
    out += std::string("  - and ") + (found.cut_short ? "at least " : "") + std::to_string(more) +
           (more == 1 ? " more run" : " more runs") + " into dead ends (--proof writes down the whole refutation).\n";
  }
  if (ops.others_left_out != 0) {
    out += "  (" + std::to_string(ops.others_left_out) +
           " more ops outside the core could change the state; "
           "they are left out of this search, not of the refutation, which shows that they cannot help either.)\n";
  }
  return out;
}

}  // namespace

std::string name_op(const Model& model, const Operation& op) {
  std::string text = model.describe_operation(op);
  if (op.status == OpStatus::crashed) text += " (crashed)";
  if (op.status == OpStatus::failed) text += " (failed)";
  return text + " (op " + std::to_string(op.id) + ", process " + std::to_string(op.process) + ")";
}

std::string explain_core(const Model& model, const CoreSummary& summary) {
  const auto& core = summary.core;
  std::string out;
  if (summary.shrinking_skipped) {
    out = "The failing partition (not shrunk to a core: --no-core): its " + std::to_string(core.size()) +
          " operations" + summary.partition + " cannot be linearized together:\n";
  } else {
    out = (summary.minimal ? "Minimal core: " : "Core (not shrunk to minimal in time): ") +
          std::to_string(core.size()) + " of the " + std::to_string(summary.partition_ops.size()) + " operations" +
          summary.partition +
          " cannot be linearized together, whatever the others did (each other op may have taken effect anywhere, "
          "or never):\n";
  }
  // A core not shrunk may be a whole partition of millions of ops: the words list the
  // first few, and the JSON's `core` all of them.
  for (std::size_t k = 0; k < core.size() && k < kMaxListedOps; ++k) {
    out += "  - " + name_op(model, *core[k]) + ", " + event_span(*core[k]) + "\n";
  }
  if (core.size() > kMaxListedOps) {
    out += "  - and " + std::to_string(core.size() - kMaxListedOps) + " more (the JSON's core lists every one)\n";
  }
  if (!summary.facts.empty()) {
    out += "Real-time facts:\n";
    std::map<std::uint32_t, const Operation*> by_id;
    for (const Operation* op : core) by_id[op->id] = op;
    for (const RealTimeFact& fact : summary.facts) {
      out += "  - " + name_op(model, *by_id.at(fact.before)) + " completed before " +
             name_op(model, *by_id.at(fact.after)) + " began.\n";
    }
  } else if (core.size() > 1 && summary.facts_known) {
    out += "Real-time facts: none; these ops all overlap in time.\n";
  }
  // Both analyses below read what each relaxed op could do from one description of
  // the partition: the core search's, or one made here.
  std::optional<RelaxedRelevance> own;
  const auto relevance = [&]() -> const RelaxedRelevance& {
    if (summary.relevance) return *summary.relevance;
    if (!own) own.emplace(summary.partition_ops, model);
    return *own;
  };
  if (core.size() <= kMaxExplainedOps) {
    out += why_no_order(model, core, summary.partition_ops, relevance(), summary.deadline, summary.limits);
  }
  // Reads-from reasons are read against every other op of the core: for a partition
  // left whole (--no-core, or a core not shrunk), quadratic in its size, and no help.
  const std::string starved = core.size() <= kMaxListedOps
                                  ? explain_starved_reads(model, core, summary.partition_ops, relevance())
                                  : std::string();
  if (!starved.empty()) {
    out += "In reads-from terms:\n" + starved;
  }
  return out;
}

}  // namespace ariadne::explain
