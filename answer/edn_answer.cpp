#include "answer/edn_answer.hpp"

#include "answer/previous_ok.hpp"
#include "base/text_encoding.hpp"

#include <ariadne/check.hpp>
#include <ariadne/limits.hpp>

#include <utility>
#include <vector>

namespace ariadne::answer {

namespace {

Value kw(std::string name) { return Value::keyword(std::move(name)); }

// {:process :type :f :value [:key] :index}: the keys of a Jepsen op map.
Value op_map(const Operation& op, std::int64_t index) {
  std::vector<Value::Entry> entries;
  entries.emplace_back(kw("process"), Value::integer(op.process));
  const char* type = op.status == OpStatus::ok ? "ok" : op.status == OpStatus::failed ? "fail" : "info";
  entries.emplace_back(kw("type"), kw(type));
  entries.emplace_back(kw("f"), kw(op.f));
  entries.emplace_back(kw("value"), op.status == OpStatus::ok ? op.value : op.invoke_value);
  if (!op.key.is_nil()) entries.emplace_back(kw("key"), op.key);
  entries.emplace_back(kw("index"), Value::integer(index));
  return Value::map(std::move(entries));
}

// The op as Jepsen writes a completed op: its completion's type and value (an
// invocation's for a crashed op, which Jepsen records as :info), the op id as :index.
Value op_map(const Operation& op) { return op_map(op, op.id); }

// The op as Knossos names an op in its answer (:op, :previous-ok): its completion
// event, :index that event's position, which is Jepsen's :index of it in a history
// Jepsen wrote.
Value completion_map(const Operation& op) { return op_map(op, static_cast<std::int64_t>(op.ret)); }

Value ids(const std::vector<std::uint32_t>& ops) {
  std::vector<Value> out;
  out.reserve(ops.size());
  for (const std::uint32_t id : ops) out.push_back(Value::integer(id));
  return Value::vector(std::move(out));
}

// Jepsen's :valid?: true, false or :unknown.
Value valid(Verdict verdict) {
  switch (verdict) {
    case Verdict::linearizable: return Value::boolean(true);
    case Verdict::not_linearizable: return Value::boolean(false);
    case Verdict::unknown: break;
  }
  return kw("unknown");
}

}  // namespace

std::string format_check_edn(const CheckReport& report) {
  const CheckResult& result = *report.result;
  std::vector<Value::Entry> entries;
  entries.emplace_back(kw("valid?"), valid(result.verdict));
  entries.emplace_back(kw("model"), Value::string(report.model_spec));
  // Only under the sequential conditions, so that linearizability's map stays as it was.
  if (!keeps_real_time(result.consistency)) {
    entries.emplace_back(kw("consistency"), kw(std::string(consistency_name(result.consistency))));
  }
  if (!result.engine.empty()) entries.emplace_back(kw("engine"), Value::string(result.engine));
  // Knossos names its search here (:wgl or :linear), and the answer is its search's.
  // Ours comes from a race of engines and a failing-op search of our own, none of them
  // Knossos' code, so it names ariadne and leaves the engine to :engine.
  entries.emplace_back(kw("analyzer"), kw("ariadne"));
  entries.emplace_back(kw("operations"), Value::integer(static_cast<std::int64_t>(result.operations)));
  if (result.verdict == Verdict::linearizable) entries.emplace_back(kw("linearization"), ids(result.linearization));
  if (result.verdict == Verdict::not_linearizable) {
    std::vector<Value> core;
    for (const std::uint32_t id : result.core) {
      if (const Operation* op = report.history ? find_op(*report.history, id) : nullptr) core.push_back(op_map(*op));
    }
    entries.emplace_back(kw("core"), Value::vector(std::move(core)));
    entries.emplace_back(kw("core-minimal?"), Value::boolean(result.core_minimal));
    if (result.failing_op && report.history) {
      if (const Operation* op = find_op(*report.history, *result.failing_op)) {
        entries.emplace_back(kw("failing-op"), op_map(*op));
        if (op->ret != kNever) entries.emplace_back(kw("op"), completion_map(*op));
      }
      if (const PreviousOk previous = previous_ok(*report.history, result); previous.known) {
        entries.emplace_back(kw("previous-ok"), previous.op ? completion_map(*previous.op) : Value());
      }
    }
    if (!result.failing_partition.empty()) {
      entries.emplace_back(kw("failing-partition"), Value::string(result.failing_partition));
    }
    if (!result.why.empty()) entries.emplace_back(kw("why"), Value::string(result.why));
    entries.emplace_back(kw("explanation"), Value::string(result.explanation));
  }
  if (!result.reason.empty()) entries.emplace_back(kw("reason"), Value::string(result.reason));
  if (!result.hint.empty()) entries.emplace_back(kw("hint"), Value::string(result.hint));
  if (!result.dropped_answers.empty()) {
    std::vector<Value> dropped;
    for (const std::string& d : result.dropped_answers) dropped.push_back(Value::string(d));
    entries.emplace_back(kw("dropped-answers"), Value::vector(std::move(dropped)));
  }
  const auto [limit, limit_phase] = reported_limit(report);
  if (limit != Limit::none) {
    entries.emplace_back(kw("limit"), kw(std::string(limit_name(limit))));
    entries.emplace_back(kw("limit-phase"), kw(std::string(phase_id(limit_phase))));
  }
  if (report.history && !report.history->warnings.empty()) {
    std::vector<Value> warnings;
    for (const ReadWarning& w : report.history->warnings) {
      warnings.push_back(Value::string(warning_text(report.history->source, w)));
    }
    entries.emplace_back(kw("warnings"), Value::vector(std::move(warnings)));
  }
  if (!result.keys.empty()) {
    // As jepsen.independent's checker returns them: each key's own result under
    // :results, and the keys not linearizable under :failures.
    std::vector<Value::Entry> results;
    std::vector<Value> failures;
    for (const KeyResult& k : result.keys) {
      std::vector<Value::Entry> one;
      one.emplace_back(kw("valid?"), valid(k.verdict));
      one.emplace_back(kw("operations"), Value::integer(static_cast<std::int64_t>(k.operations)));
      one.emplace_back(kw("elapsed-ms"), Value::floating(k.elapsed_ms));
      if (!k.engine.empty()) one.emplace_back(kw("engine"), Value::string(k.engine));
      if (k.verdict == Verdict::unknown) one.emplace_back(kw("reason"), Value::string(k.reason));
      results.emplace_back(k.key, Value::map(std::move(one)));
      if (k.verdict == Verdict::not_linearizable) failures.push_back(k.key);
    }
    entries.emplace_back(kw("results"), Value::map(std::move(results)));
    entries.emplace_back(kw("failures"), Value::vector(std::move(failures)));
    if (!result.failing_key.empty()) {
      for (const KeyResult& k : result.keys) {
        if (k.key.to_edn() == result.failing_key) entries.emplace_back(kw("failing-key"), k.key);
      }
    }
  }
  entries.emplace_back(kw("file"), Value::string(report.file));
  entries.emplace_back(kw("elapsed-ms"), Value::floating(result.elapsed_ms));
  // EDN has no escape for a byte: one that is not UTF-8 (a history may hold any) is
  // written as U+FFFD, so the answer always reads back (docs/formats.md).
  return replace_invalid_utf8(Value::map(std::move(entries)).to_edn() + "\n");
}

}  // namespace ariadne::answer
