#include "explain/explanation.hpp"

#include "explain/reads_from.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace ariadne::explain {

namespace {

std::string event_span(const Operation& op) {
  if (op.ret == kNever) return "from event " + std::to_string(op.call) + ", never completed";
  return "events " + std::to_string(op.call) + " to " + std::to_string(op.ret);
}

// A dead end: op `blocked` could not take effect in a state no other order avoids.
struct DeadEnd {
  std::vector<std::uint32_t> path;  // core indices linearized before it
  std::string state;
};

// Depth-first over the orders real time allows, memoised on (ops done, state), with
// the dead ends found: per blocked op and refusing state, the shortest path there.
class DeadEndSearch {
 public:
  DeadEndSearch(const Model& model, std::span<const Operation* const> core)
      : core_(core), compiled_(model.compile(core)) {}

  // Returns whether some order linearizes every op (then the core is not a core:
  // possible only when relaxed ops were needed to refute it, which the caller says).
  bool run() { return visit(0, compiled_->initial()); }

  const std::map<std::pair<std::uint32_t, std::string>, std::vector<std::uint32_t>>& dead_ends() const {
    return dead_ends_;
  }

 private:
  bool visit(std::uint32_t done, StateId state) {
    bool complete = true;  // every op that must take effect has
    for (std::uint32_t i = 0; i < core_.size(); ++i) {
      if (!(done >> i & 1) && core_[i]->must_take_effect()) complete = false;
    }
    if (complete) return true;
    if (!seen_.insert({done, state}).second) return false;
    for (std::uint32_t i = 0; i < core_.size(); ++i) {
      if (done >> i & 1) continue;
      if (!ready(done, i)) continue;
      std::vector<StateId> next;
      compiled_->step(state, i, next);
      if (next.empty()) {
        if (core_[i]->must_take_effect()) record(i, state);
        continue;
      }
      path_.push_back(i);
      for (const StateId s : next) {
        if (visit(done | 1u << i, s)) return true;
      }
      path_.pop_back();
    }
    return false;
  }

  // Op i may come next when every op that real time puts before it is done.
  bool ready(std::uint32_t done, std::uint32_t i) const {
    for (std::uint32_t j = 0; j < core_.size(); ++j) {
      if (j != i && !(done >> j & 1) && core_[j]->precedes(*core_[i])) return false;
    }
    return true;
  }

  void record(std::uint32_t op, StateId state) {
    auto key = std::make_pair(op, compiled_->describe_state(state));
    auto it = dead_ends_.find(key);
    if (it == dead_ends_.end() || it->second.size() > path_.size()) dead_ends_[key] = path_;
  }

  std::span<const Operation* const> core_;
  std::unique_ptr<CompiledModel> compiled_;
  std::set<std::pair<std::uint32_t, StateId>> seen_;
  std::vector<std::uint32_t> path_;
  std::map<std::pair<std::uint32_t, std::string>, std::vector<std::uint32_t>> dead_ends_;
};

std::string why_no_order(const Model& model, std::span<const Operation* const> core) {
  DeadEndSearch search(model, core);
  if (search.run()) {
    return "Why no order works: these ops alone can be ordered; it takes the other ops, which may take "
           "effect anywhere, to rule every order out (the solver's refutation; --proof writes it down).\n";
  }
  // The shortest runs first: they read most easily.
  std::vector<std::pair<std::vector<std::uint32_t>, std::pair<std::uint32_t, std::string>>> ends;
  for (const auto& [key, path] : search.dead_ends()) ends.emplace_back(path, key);
  std::stable_sort(ends.begin(), ends.end(),
                   [](const auto& a, const auto& b) { return a.first.size() < b.first.size(); });
  std::string out = "Why no order works: every order real time allows runs into one of these dead ends:\n";
  constexpr std::size_t kMaxDeadEnds = 6;
  for (std::size_t k = 0; k < ends.size() && k < kMaxDeadEnds; ++k) {
    const auto& [path, key] = ends[k];
    out += "  - ";
    if (path.empty()) {
      out += "at the start,";
    } else {
      out += "after ";
      for (std::size_t p = 0; p < path.size(); ++p) {
        out += (p ? ", " : "") + model.describe_operation(*core[path[p]]) + " (op " + std::to_string(core[path[p]]->id) + ")";
      }
      out += ":";
    }
    out += " the state is " + key.second + ", in which " + name_op(model, *core[key.first]) + " cannot take effect.\n";
  }
  if (ends.size() > kMaxDeadEnds) out += "  - and " + std::to_string(ends.size() - kMaxDeadEnds) + " more.\n";
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
  std::string out = (summary.minimal ? "Minimal core: " : "Core (not shrunk to minimal in time): ") +
                    std::to_string(core.size()) + " of the " + std::to_string(summary.partition_ops.size()) +
                    " operations" + summary.partition + " cannot be linearized together, whatever the others did "
                    "(each other op may have taken effect anywhere, or never):\n";
  for (const Operation* op : core) out += "  - " + name_op(model, *op) + ", " + event_span(*op) + "\n";
  if (!summary.facts.empty()) {
    out += "Real-time facts:\n";
    std::map<std::uint32_t, const Operation*> by_id;
    for (const Operation* op : core) by_id[op->id] = op;
    for (const RealTimeFact& fact : summary.facts) {
      out += "  - " + name_op(model, *by_id.at(fact.before)) + " completed before " +
             name_op(model, *by_id.at(fact.after)) + " began.\n";
    }
  } else if (core.size() > 1) {
    out += "Real-time facts: none; these ops all overlap in time.\n";
  }
  if (core.size() <= kMaxExplainedOps) out += why_no_order(model, core);
  if (const std::string starved = explain_starved_reads(model, core, summary.partition_ops); !starved.empty()) {
    out += "In reads-from terms:\n" + starved;
  }
  return out;
}

}  // namespace ariadne::explain
