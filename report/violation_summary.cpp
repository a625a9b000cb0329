// See violation_summary.hpp.
#include "report/violation_summary.hpp"

#include <algorithm>
#include <map>

namespace ariadne::report {

namespace {

constexpr std::size_t kSentenceOpText = 60;  // an op's description within the sentence

const Operation* op_with_id(const History& history, std::uint32_t id) {
  const auto it = std::lower_bound(history.ops.begin(), history.ops.end(), id,
                                   [](const Operation& op, std::uint32_t v) { return op.id < v; });
  return it != history.ops.end() && it->id == id ? &*it : nullptr;
}

// The sentence when none was said: what the failing op is and what proves it, or else
// the explanation's opening line (the core's size and that it cannot be linearized).
std::string fallback_sentence(const History& history, const Model& model, const CheckResult& result) {
  const Operation* failing = result.failing_op ? op_with_id(history, *result.failing_op) : nullptr;
  if (!failing) {
    std::string line = result.explanation.substr(0, result.explanation.find('\n'));
    if (!line.empty() && line.back() == ':') line.back() = '.';
    return line;
  }
  const std::string key = !result.failing_key.empty() ? result.failing_key : result.failing_partition;
  std::string out = result.partitions > 1 && !key.empty() ? "On key " + shorten(key, kSentenceOpText) + ", op " : "Op ";
  out += std::to_string(failing->id) + " (process " + std::to_string(failing->process) + ", " +
         shorten(model.describe_operation(*failing), kSentenceOpText) + ")";
  out += failing->ret == kNever ? " never completed" : " completed at event " + std::to_string(failing->ret);
  out += " with a result that no order of the operations before it explains";
  if (result.core.empty()) return out + ".";
  return out + "; the " + std::to_string(result.core.size()) + " ops of the " +
         (result.core_minimal ? "minimal " : "") + "core below prove it.";
}

}  // namespace

ViolationSummary summarise_violation(const History& history, const Model& model, const CheckResult& result) {
  ViolationSummary summary;
  if (result.verdict != Verdict::not_linearizable) return summary;
  summary.sentence_given = !result.why.empty();
  summary.sentence = summary.sentence_given ? result.why : fallback_sentence(history, model, result);

  std::map<std::uint32_t, WhyRole> roles;
  summary.roles_given = !result.why_ops.empty();
  for (const WhyOp& named : result.why_ops) roles.emplace(named.op, named.role);
  const Operation* failing = result.failing_op ? op_with_id(history, *result.failing_op) : nullptr;
  if (failing) roles.emplace(failing->id, WhyRole::refused);
  for (const std::uint32_t id : result.core) {
    const Operation* op = op_with_id(history, id);
    const bool late = failing && op && failing->ret != kNever && op->call > failing->ret;
    roles.emplace(id, late ? WhyRole::late : WhyRole::context);
  }
  for (const auto& [id, role] : roles) summary.roles.push_back({id, role});
  return summary;
}

}  // namespace ariadne::report
