// Key shards of one history (see the header).
#include "batch/key_shards.hpp"

#include "answer/text_files.hpp"
#include "answer/version.hpp"
#include "base/hash.hpp"
#include "batch/corpus_rows.hpp"
#include "batch/report_reader.hpp"
#include "models/independent.hpp"
#include "portfolio/imported_refutation.hpp"
#include "portfolio/key_composition.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace ariadne::batch {

using answer::KeyShard;
using answer::read_text_file;
using answer::shard_name;
using answer::ShardSpec;
using answer::version_text;

namespace {

// The re-check's memory bound when the merge has no --memory-limit.
constexpr std::uint64_t kNoMemoryLimit = std::uint64_t{1} << 62;

// The key a history's op belongs to, as the unsharded check's keys table names it:
// an independent model's tuple key, else the model's partition key.
Value key_of(const Model& model, const Operation& op) {
  return independent_inner_model(model) ? independent_key(op) : model.partition_key(op);
}

std::uint32_t op_id(const ReportReader& r, const Value& e, const std::string& name) {
  if (!e.is_integer() || e.as_integer() < 0 || e.as_integer() > UINT32_MAX) {
    r.fail("", "\"" + name + "\" must hold op ids, got " + e.to_json());
  }
  return static_cast<std::uint32_t>(e.as_integer());
}

// An array of op ids, or none when absent.
std::vector<std::uint32_t> ids(const ReportReader& r, const Value& object, const std::string& name) {
  std::vector<std::uint32_t> out;
  const Value* v = r.find(object, name);
  if (!v) return out;
  if (!v->is_sequential()) r.fail("", "\"" + name + "\" must be an array of op ids");
  for (const Value& e : v->elements()) out.push_back(op_id(r, e, name));
  return out;
}

Verdict verdict(const ReportReader& r, const Value& object, const std::string& where) {
  const auto v = r.verdict_or_null(object, where, "verdict");
  if (!v) r.fail(where, "no verdict");
  return *v;
}

struct KeyShardReport {
  std::string path;
  Value root;
  KeyShard shard;
  Value options;
  std::string version;
  CheckResult result;
};

// One report's answer, as check() returned it on the shard.
CheckResult read_result(const ReportReader& r, const Value& root, const std::string& path, Consistency consistency) {
  CheckResult result;
  result.consistency = consistency;
  result.verdict = verdict(r, root, "");
  result.engine = r.text(root, "", "engine");
  result.elapsed_ms = r.number(root, "", "elapsed_ms");
  result.partitions = r.count(root, "", "partitions");
  result.steps = r.count(root, "", "steps");
  result.peak_search_bytes = r.count(root, "", "peak_search_bytes");
  result.linearization = ids(r, root, "linearization");
  result.core = ids(r, root, "core");
  result.prefix_linearization = ids(r, root, "prefix_linearization");
  if (result.verdict == Verdict::not_linearizable) {
    result.explanation = r.text(root, "", "explanation");
    if (r.find(root, "why")) result.why = r.text(root, "", "why");
    if (const Value* named = r.find(root, "why_ops"); named && named->is_sequential()) {
      for (const Value& entry : named->elements()) {
        WhyOp op;
        op.op = static_cast<std::uint32_t>(r.count(entry, "why_ops", "op"));
        const std::string role = r.text(entry, "why_ops", "role");
        for (const WhyRole candidate :
             {WhyRole::refused, WhyRole::source, WhyRole::cause, WhyRole::late, WhyRole::context}) {
          if (why_role_name(candidate) == role) op.role = candidate;
        }
        result.why_ops.push_back(op);
      }
    }
    result.core_minimal = r.boolean(root, "", "core_minimal");
    result.core_ms = r.number(root, "", "core_ms");
    result.verdict_ms = r.number(root, "", "verdict_ms");
    const std::string facts_name = keeps_real_time(consistency) ? "core_real_time" : "core_program_order";
    if (const Value* facts = r.find(root, facts_name); facts && facts->is_sequential()) {
      for (const Value& f : facts->elements()) {
        if (!f.is_sequential() || f.elements().size() != 2) r.fail("", facts_name + " must hold pairs of op ids");
        result.core_real_time.push_back(
            RealTimeFact{op_id(r, f.elements()[0], facts_name), op_id(r, f.elements()[1], facts_name)});
      }
    }
    if (r.find(root, "failing_partition")) result.failing_partition = r.text(root, "", "failing_partition");
    if (r.find(root, "failing_key")) result.failing_key = r.text(root, "", "failing_key");
    if (r.find(root, "failing_op")) result.failing_op = static_cast<std::uint32_t>(r.count(root, "", "failing_op"));
  }
  if (result.verdict == Verdict::unknown) result.reason = r.text(root, "", "reason");
  if (const Value* keys = r.find(root, "keys"); keys && keys->is_sequential()) {
    for (std::size_t i = 0; i < keys->elements().size(); ++i) {
      const Value& k = keys->elements()[i];
      const std::string where = "keys[" + std::to_string(i) + "]";
      KeyResult key;
      key.key = parse_edn_value(r.text(k, where, "key"), path);
      key.verdict = verdict(r, k, where);
      key.operations = r.count(k, where, "operations");
      key.elapsed_ms = r.number(k, where, "elapsed_ms");
      key.engine = r.text(k, where, "engine");
      if (r.find(k, "reason")) key.reason = r.text(k, where, "reason");
      result.keys.push_back(std::move(key));
    }
  }
  return result;
}

KeyShardReport read_report(const std::string& path, Consistency consistency) {
  KeyShardReport report;
  report.path = path;
  report.root = parse_json_value(read_text_file(path, "no such file"), path);
  const ReportReader r(report.path);
  if (!report.root.is_map()) r.fail("", "a key shard report is one JSON object (check --shard I/N --json)");
  const Value* found = r.find(report.root, "shard");
  if (!found || !found->is_map()) {
    r.fail("", "not a key shard's report: no \"shard\" (made by check --shard I/N --json?)");
  }
  const Value& shard = *found;
  report.shard.spec.index = r.count(shard, "shard", "index");
  report.shard.spec.count = r.count(shard, "shard", "count");
  if (report.shard.spec.count == 0 || report.shard.spec.index >= report.shard.spec.count) {
    r.fail("shard",
           "index " + std::to_string(report.shard.spec.index) + " of " + std::to_string(report.shard.spec.count));
  }
  report.shard.keys = r.count(shard, "shard", "keys");
  report.shard.history_events = r.count(shard, "shard", "history_events");
  report.shard.history_bytes = r.count(shard, "shard", "history_bytes");
  if (r.find(shard, "failing_key_first_op")) {
    report.shard.failing_key_first_op = static_cast<std::uint32_t>(r.count(shard, "shard", "failing_key_first_op"));
  }
  report.options = r.object(shard, "shard", "options");
  report.version = r.text(shard, "shard", "version");
  report.result = read_result(r, report.root, path, consistency);
  return report;
}

}  // namespace

std::size_t key_shard_of(const Value& key, std::size_t count) {
  base::Fnv1a64 hash;
  hash.add(key.to_edn());
  return static_cast<std::size_t>(hash.value() % count);
}

std::function<bool(const Operation&)> key_shard_filter(const Model& model, ShardSpec spec) {
  return [&model, spec](const Operation& op) { return key_shard_of(key_of(model, op), spec.count) == spec.index; };
}

std::size_t count_keys(const History& history, const Model& model) {
  std::unordered_set<Value, ValueHash> keys;
  for (const Operation& op : history.ops) keys.insert(key_of(model, op));
  return keys.size();
}

std::uint64_t history_bytes(const History& history) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(history.source, error);
  return error ? 0 : static_cast<std::uint64_t>(size);
}

std::optional<std::uint32_t> failing_key_first_op(const History& shard, const Model& model, const CheckResult& result) {
  if (result.verdict != Verdict::not_linearizable || result.core.empty()) return std::nullopt;
  const auto in_core = std::ranges::find(shard.ops, result.core.front(), &Operation::id);
  if (in_core == shard.ops.end()) return std::nullopt;
  const Value key = key_of(model, *in_core);
  for (const Operation& op : shard.ops) {
    if (key_of(model, op) == key) return op.id;
  }
  return std::nullopt;
}

Value key_shard_options(const Model& model, const CheckOptions& options) {
  return Value::map({
      {Value::string("model"), Value::string(model.spec())},
      {Value::string("consistency"), Value::string(std::string(consistency_name(options.consistency)))},
      {Value::string("engine"), Value::string(std::string(engine_name(options.engine)))},
      {Value::string("timeout_ms"), Value::integer(static_cast<std::int64_t>(options.timeout_seconds * 1000))},
      {Value::string("memory_limit"), Value::integer(static_cast<std::int64_t>(options.memory_limit))},
  });
}

KeyMerge merge_key_shards(const std::vector<std::string>& paths, const History& history, const Model& model,
                          const Value& options, const Limits& limits) {
  const Value* consistency_value = options.find(Value::string("consistency"));
  const Consistency consistency = parse_consistency(consistency_value ? consistency_value->text() : "linearizable")
                                      .value_or(Consistency::linearizable);
  std::vector<KeyShardReport> reports;
  for (const std::string& path : paths) reports.push_back(read_report(path, consistency));
  const KeyShardReport& first = reports.front();
  const std::size_t count = first.shard.spec.count;
  std::map<std::size_t, const KeyShardReport*> by_index;
  for (const KeyShardReport& report : reports) {
    const auto refuse = [&](const std::string& what) {
      throw InputError(report.path, {}, "shard " + shard_name(report.shard.spec) + " " + what + "; cannot merge");
    };
    if (report.shard.spec.count != count)
      refuse("is one of " + std::to_string(report.shard.spec.count) + " shards, not " + std::to_string(count));
    if (report.shard.history_events != history.event_count || report.shard.history_bytes != history_bytes(history)) {
      refuse("checked another history (" + std::to_string(report.shard.history_events) + " events in " +
             std::to_string(report.shard.history_bytes) + " bytes, against this file's " +
             std::to_string(history.event_count) + " in " + std::to_string(history_bytes(history)) + ")");
    }
    // The shards agree among themselves on every option a verdict depends on; with the
    // merge itself on the model and the condition (its own limits are its own).
    if (report.options != first.options) {
      refuse("was checked with other options than " + first.path + " (" + report.options.to_json() + ", against " +
             first.options.to_json() + ")");
    }
    for (const char* name : {"model", "consistency"}) {
      const Value* mine = report.options.find(Value::string(name));
      const Value* merge_s = options.find(Value::string(name));
      if (!mine || !merge_s || *mine != *merge_s) {
        refuse("was checked with another " + std::string(name) + " (" + (mine ? mine->to_json() : "none") +
               ", against this merge's " + (merge_s ? merge_s->to_json() : "none") + ")");
      }
    }
    if (report.version != version_text()) refuse("was checked by another ariadne (" + report.version + ")");
    if (!by_index.emplace(report.shard.spec.index, &report).second) refuse("is given twice");
  }
  if (by_index.size() != count) {
    std::string missing;
    for (std::size_t i = 0; i < count; ++i) {
      if (!by_index.contains(i)) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
    }
    throw InputError(paths.front(), {},
                     "no report for shard " + missing + " (of shards 0 to " + std::to_string(count - 1) +
                         "); a merge needs every shard's report");
  }

  KeyMerge merge;
  CheckResult& result = merge.result;
  result.consistency = consistency;
  result.operations = history.ops.size();
  for (const auto& [index, report] : by_index) {
    merge.reports.push_back(report->path);
    merge.longest_ms = std::max(merge.longest_ms, report->result.elapsed_ms);
    result.partitions += report->result.partitions;
    result.steps += report->result.steps;
    result.peak_search_bytes = std::max(result.peak_search_bytes, report->result.peak_search_bytes);
    result.keys.insert(result.keys.end(), report->result.keys.begin(), report->result.keys.end());
  }
  result.elapsed_ms = merge.longest_ms;
  // Keys in order of first appearance in the whole history, as check() lists them.
  std::unordered_map<Value, std::size_t, ValueHash> first_seen;
  for (const Operation& op : history.ops) first_seen.try_emplace(key_of(model, op), first_seen.size());
  std::ranges::stable_sort(result.keys, {}, [&](const KeyResult& k) {
    const auto it = first_seen.find(k.key);
    return it == first_seen.end() ? SIZE_MAX : it->second;
  });

  // The shards composed as the keys they hold: the first refuted key, in order of
  // appearance, is the failing key of the shard whose failing_key_first_op is least;
  // the first undecided key is the earliest of the shards' undecided keys.
  std::vector<const KeyShardReport*> shards;
  std::vector<portfolio::PartAnswer> parts;
  for (const auto& [index, report] : by_index) {
    portfolio::PartAnswer part{report->result.verdict};
    if (part.verdict == Verdict::not_linearizable && report->shard.failing_key_first_op) {
      part.first_appearance = *report->shard.failing_key_first_op;
    }
    if (part.verdict == Verdict::unknown) {
      for (const KeyResult& k : report->result.keys) {
        const auto it = first_seen.find(k.key);
        if (k.verdict == Verdict::unknown && it != first_seen.end()) {
          part.first_appearance = std::min<std::uint64_t>(part.first_appearance, it->second);
        }
      }
    }
    shards.push_back(report);
    parts.push_back(part);
  }
  const portfolio::Composition composition = portfolio::compose(parts);
  const KeyShardReport* refuted = composition.refuted.empty() ? nullptr : shards[composition.refuted.front()];
  const KeyShardReport* undecided = composition.undecided.empty() ? nullptr : shards[composition.undecided.front()];
  if (refuted) {
    const CheckResult& r = refuted->result;
    // Re-checked against the history before it is printed, as every refutation is.
    search::StopSignal stop;
    stop.deadline = limits.deadline();
    stop.limits = &limits;
    const portfolio::ImportedRefutationCheck holds = portfolio::check_imported_refutation(
        history, model, consistency, r.core, stop, limits.memory_limit() > 0 ? limits.memory_limit() : kNoMemoryLimit);
    if (holds.answer == portfolio::ImportedRefutationCheck::Answer::fails) {
      throw InputError(refuted->path, {},
                       "shard " + shard_name(refuted->shard.spec) +
                           " reports a refutation that does not hold against " + history.source + ": " + holds.why +
                           "; cannot merge");
    }
    if (holds.answer == portfolio::ImportedRefutationCheck::Answer::undecided) {
      result.verdict = Verdict::unknown;
      result.reason = "shard " + shard_name(refuted->shard.spec) + "'s refutation could not be re-checked: " +
                      limits.describe(limits.first_reached() != Limit::none ? limits.first_reached() : Limit::timeout);
      return merge;
    }
    result.verdict = Verdict::not_linearizable;
    result.engine = r.engine;
    result.core = r.core;
    result.core_minimal = r.core_minimal;
    result.core_ms = r.core_ms;
    result.core_real_time = r.core_real_time;
    result.prefix_linearization = r.prefix_linearization;
    result.failing_partition = r.failing_partition;
    result.failing_key = r.failing_key;
    result.failing_op = r.failing_op;
    result.verdict_ms = r.verdict_ms;
    result.explanation = r.explanation;
    result.why = r.why;
    result.why_ops = r.why_ops;
    if (!r.failing_key.empty()) {
      // The shard's first line counted its own keys and operations: say it of the whole.
      std::vector<std::string> others;
      std::size_t key_ops = 0;
      for (const KeyResult& k : result.keys) {
        const std::string text = k.key.to_edn();
        if (text == r.failing_key) key_ops = k.operations;
        if (k.verdict == Verdict::not_linearizable && text != r.failing_key) others.push_back(text);
      }
      const std::optional<std::string> explained = portfolio::with_refuted_key_header(
          result.explanation, portfolio::refuted_key_header(r.failing_key, key_ops, history.ops.size(), others,
                                                            result.keys.size(), consistency));
      if (!explained) {
        throw InputError(refuted->path, {},
                         "shard " + shard_name(refuted->shard.spec) +
                             "'s explanation does not start with its failing key's line; cannot merge");
      }
      result.explanation = *explained;
    }
    return merge;
  }
  if (undecided) {
    result.verdict = Verdict::unknown;
    result.reason = undecided->result.reason + " (shard " + shard_name(undecided->shard.spec) + ")";
    return merge;
  }
  // Every key linearizable: the keys' orders merged into one, certified on the whole.
  std::unordered_map<std::uint32_t, const Operation*> by_id;
  for (const Operation& op : history.ops) by_id.emplace(op.id, &op);
  std::vector<std::vector<const Operation*>> chains;
  for (const auto& [index, report] : by_index) {
    chains.emplace_back();
    for (const std::uint32_t id : report->result.linearization) {
      const auto it = by_id.find(id);
      if (it == by_id.end())
        throw InputError(report->path, {},
                         "its linearization names op " + std::to_string(id) + ", which the history does not have");
      chains.back().push_back(it->second);
    }
  }
  // The shards' orders come from files: a forged or stale one fails the replay, which
  // is the reports' fault, not ariadne's (exit 65, naming them).
  try {
    result.linearization = portfolio::merge_certified(history, model, chains, consistency,
                                                      portfolio::PartOrders::read_back, "the key shards");
  } catch (const InternalError& failed) {
    std::string names;
    for (const auto& [index, report] : by_index) names += (names.empty() ? "" : ", ") + report->path;
    throw InputError(paths.front(), {},
                     std::string(failed.what()) + " (" + history.source + "); the reports (" + names +
                         ") do not hold against this history; cannot merge");
  }
  result.verdict = Verdict::linearizable;
  result.engine = by_index.begin()->second->result.engine;
  return merge;
}

}  // namespace ariadne::batch
