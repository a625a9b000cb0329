// Program-order facts and the sequential explanation (see the header).
#include "explain/program_order_facts.hpp"

#include "explain/explanation.hpp"

#include <algorithm>
#include <map>

namespace ariadne::explain {

std::vector<RealTimeFact> program_order_facts(std::span<const Operation* const> ops) {
  std::map<std::int64_t, std::vector<const Operation*>> by_process;
  for (const Operation* op : ops) by_process[op->process].push_back(op);
  std::vector<std::pair<std::uint64_t, RealTimeFact>> facts;
  for (auto& [process, own] : by_process) {
    std::ranges::sort(own, {}, &Operation::call);
    for (std::size_t i = 0; i < own.size(); ++i) {
      if (!own[i]->must_take_effect()) continue;
      // Up to and including the next completed op: what lies beyond it follows by
      // transitivity, while a crashed op in between carries nothing on.
      for (std::size_t j = i + 1; j < own.size(); ++j) {
        facts.push_back({own[i]->call, RealTimeFact{own[i]->id, own[j]->id}});
        if (own[j]->must_take_effect()) break;
      }
    }
  }
  std::ranges::sort(facts, {}, [](const auto& f) { return f.first; });
  std::vector<RealTimeFact> out;
  out.reserve(facts.size());
  for (const auto& [call, fact] : facts) out.push_back(fact);
  return out;
}

std::string explain_program_order_core(const Model& model, std::span<const Operation* const> core,
                                       std::span<const RealTimeFact> facts, bool minimal, std::string_view condition) {
  std::string text = "Not " + std::string(condition) + ": no order of these " + std::to_string(core.size()) +
                     " operations keeps each process's own order and gives every one its recorded result" +
                     (minimal ? " (a minimal core: relax any one of them and an order exists)" : "") + ".\n";
  std::map<std::int64_t, std::vector<const Operation*>> by_process;
  for (const Operation* op : core) by_process[op->process].push_back(op);
  if (core.size() <= kMaxListedOps) {
    text += "By process, in each process's order:\n";
    for (auto& [process, own] : by_process) {
      std::ranges::sort(own, {}, &Operation::call);
      text += "  process " + std::to_string(process) + ": ";
      for (std::size_t i = 0; i < own.size(); ++i) text += (i ? ", then " : "") + name_op(model, *own[i]);
      text += "\n";
    }
    if (!facts.empty()) {
      text += "Program order binds " + std::to_string(facts.size()) + " pair" + (facts.size() == 1 ? "" : "s") +
              " of them (each process's own order); real time between processes does not bind.\n";
    } else {
      text +=
          "No two of them are bound by program order: each is its process's only op here, and real time "
          "between processes does not bind.\n";
    }
  } else {
    text += "The core is too large to list here (" + std::to_string(core.size()) + " operations).\n";
  }
  return text;
}

}  // namespace ariadne::explain
