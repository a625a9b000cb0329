// Reporting a check. The human report leads with the verdict because that is what a
// reader looks for; the ops table lets them follow the witness (or the contradiction)
// back to the file: op ids and call/ret are event positions in the file, and Jepsen's
// :index is shown when the file had one, since that is what Jepsen users search for.
#include "answer/check_report.hpp"

#include "answer/version.hpp"
#include "base/text_encoding.hpp"

#include "answer/json_writer.hpp"
#include "answer/paragraph.hpp"
#include "answer/report_numbers.hpp"
#include "answer/terminal.hpp"
#include "answer/text_table.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace ariadne::answer {

std::pair<Limit, Phase> reported_limit(const CheckReport& report) {
  if (report.limits && report.limits->first_reached() != Limit::none) {
    return {report.limits->first_reached(), report.limits->phase_when_reached()};
  }
  return {report.result->limit, report.result->limit_phase};
}

std::string warning_text(const std::string& source, const ReadWarning& warning) {
  return InputError(source, warning.pos, warning.message).what();
}

const Operation* find_op(const History& history, std::uint32_t id) {
  // Ops are kept in invocation order, which is ascending id.
  const auto it = std::lower_bound(history.ops.begin(), history.ops.end(), id,
                                   [](const Operation& op, std::uint32_t key) { return op.id < key; });
  if (it == history.ops.end() || it->id != id) return nullptr;
  return &*it;
}

namespace {

std::string format_ms(double ms) {
  char buffer[64];
  if (ms < 1000) {
    std::snprintf(buffer, sizeof buffer, "%.1f ms", ms);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.2f s", ms / 1000);
  }
  return buffer;
}

std::string_view status_name(OpStatus status) {
  switch (status) {
    case OpStatus::ok: return "ok";
    case OpStatus::crashed: return "crashed";
    case OpStatus::failed: return "failed";
  }
  return "?";
}

// The ops table: one row per id, in the order given, at most kTableRowLimit rows
// unless `full`.
std::string format_ops_table(const History& history, const std::vector<std::uint32_t>& ids, bool full) {
  bool any_index = false;
  bool any_key = false;
  for (const auto id : ids) {
    if (const Operation* op = find_op(history, id)) {
      any_index = any_index || op->index.has_value();
      any_key = any_key || !op->key.is_nil();
    }
  }

  using Align = TextTable::Align;
  TextTable table;
  table.add_column("#", Align::right);
  table.add_column("op", Align::right);
  if (any_index) table.add_column(":index", Align::right);
  table.add_column("process", Align::right);
  table.add_column("f");
  if (any_key) table.add_column("key");
  table.add_column("value");
  table.add_column("call", Align::right);
  table.add_column("ret", Align::right);
  table.add_column("status");

  const std::size_t shown = full ? ids.size() : std::min(ids.size(), kTableRowLimit);
  for (std::size_t i = 0; i < shown; ++i) {
    std::vector<std::string> cells;
    cells.push_back(std::to_string(i + 1));
    cells.push_back(std::to_string(ids[i]));
    const Operation* op = find_op(history, ids[i]);
    if (op == nullptr) {
      // The engine named an op the history does not have; show it rather than hide it.
      table.add_row(std::move(cells));
      continue;
    }
    if (any_index) cells.push_back(op->index ? std::to_string(*op->index) : "-");
    cells.push_back(std::to_string(op->process));
    // Names and values are the user's and may run to megabytes: cells quote them briefly.
    cells.push_back(shorten(op->f));
    if (any_key) cells.push_back(op->key.is_nil() ? "-" : shorten(op->key.to_edn()));
    cells.push_back(shorten(op->value.to_edn()));
    cells.push_back(std::to_string(op->call));
    cells.push_back(op->ret == kNever ? "-" : std::to_string(op->ret));
    cells.push_back(std::string(status_name(op->status)));
    table.add_row(std::move(cells));
  }

  std::string out = table.render();
  if (shown < ids.size()) {
    out += "  \u2026 " + std::to_string(ids.size() - shown) + " more (use --json for all)\n";
  }
  return out;
}

std::string verdict_headline(Verdict verdict, Consistency consistency, const Style& style) {
  const bool sequential = !keeps_real_time(consistency);
  switch (verdict) {
    case Verdict::linearizable: return style.green(sequential ? "SEQUENTIALLY CONSISTENT" : "LINEARIZABLE");
    case Verdict::not_linearizable: return style.red(sequential ? "NOT SEQUENTIALLY CONSISTENT" : "NOT LINEARIZABLE");
    case Verdict::unknown: return style.yellow("UNKNOWN");
  }
  return "UNKNOWN";
}

// How the report names a limit: the option that set it, or what cancelled.
std::string limit_flag(Limit limit) {
  switch (limit) {
    case Limit::timeout: return "--timeout";
    case Limit::memory: return "--memory-limit";
    case Limit::cancelled: return "cancelled (Ctrl-C or SIGTERM)";
    case Limit::none: break;
  }
  return "none";
}

// The sentence's width: the report's lines are about this wide.
constexpr std::size_t kParagraphWidth = 100;

// An unknown answer's way on: what would most likely decide the history, from the
// limit that stopped it and what the race already tried.
std::string next_to_try(const CheckResult& result) {
  std::vector<std::string> tries;
  const auto raced = [&](std::string_view engine) {
    return result.engine == engine ||
           std::find(result.race.entrants.begin(), result.race.entrants.end(), engine) != result.race.entrants.end();
  };
  if (!result.hint.empty()) tries.push_back("--independent (the values look like [key value] tuples)");
  if (result.limit == Limit::timeout) tries.push_back("a longer --timeout");
  if (result.limit == Limit::memory) tries.push_back("a larger --memory-limit");
  if (result.limit != Limit::cancelled && !raced("sat")) {
    tries.push_back("--engine sat (a SAT encoding of the order, which does not backtrack)");
  }
  if (tries.empty()) return {};
  std::string out;
  for (std::size_t i = 0; i < tries.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == tries.size() ? ", or " : ", ") + tries[i];
  }
  return out + ".";
}

// Independent histories: how the keys fared, then a table of the keys a reader wants
// to see: every key not linearizable, every undecided key, and the slowest others.
constexpr std::size_t kSlowestKeys = 5;

std::string format_keys_summary(const CheckResult& result, bool full) {
  std::size_t counts[3] = {0, 0, 0};
  for (const KeyResult& k : result.keys) ++counts[static_cast<int>(k.verdict)];
  std::string out = "\nKeys: " + std::to_string(result.keys.size()) + " (" +
                    std::to_string(counts[static_cast<int>(Verdict::linearizable)]) + " linearizable, " +
                    std::to_string(counts[static_cast<int>(Verdict::not_linearizable)]) + " not linearizable, " +
                    std::to_string(counts[static_cast<int>(Verdict::unknown)]) + " unknown), each checked on its own\n";
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < result.keys.size(); ++i) {
    if (result.keys[i].verdict != Verdict::linearizable) shown.push_back(i);
  }
  std::vector<std::size_t> slowest;
  for (std::size_t i = 0; i < result.keys.size(); ++i) {
    if (result.keys[i].verdict == Verdict::linearizable) slowest.push_back(i);
  }
  // With every linearizable key listed, "among the slowest" would say nothing.
  const bool all_listed = slowest.size() <= kSlowestKeys;
  const std::size_t slow_count = std::min(kSlowestKeys, slowest.size());
  std::partial_sort(
      slowest.begin(), slowest.begin() + static_cast<std::ptrdiff_t>(slow_count), slowest.end(),
      [&](std::size_t a, std::size_t b) { return result.keys[a].elapsed_ms > result.keys[b].elapsed_ms; });
  slowest.resize(slow_count);

  using Align = TextTable::Align;
  TextTable table;
  table.add_column("key");
  table.add_column("verdict");
  table.add_column("ops", Align::right);
  table.add_column("time", Align::right);
  table.add_column("engine");
  table.add_column("note");
  const std::size_t limit = full ? shown.size() : std::min(shown.size(), kTableRowLimit);
  const auto add = [&](std::size_t i, std::string note) {
    const KeyResult& k = result.keys[i];
    if (k.verdict == Verdict::unknown) note = k.reason;
    if (k.key.to_edn() == result.failing_key) note = "the core below";
    table.add_row({shorten(k.key.to_edn()), std::string(verdict_name(k.verdict, result.consistency)),
                   std::to_string(k.operations), format_ms(k.elapsed_ms), k.engine.empty() ? "-" : k.engine,
                   shorten(note)});
  };
  for (std::size_t n = 0; n < limit; ++n) add(shown[n], "");
  for (const std::size_t i : slowest) add(i, all_listed ? "" : "among the slowest");
  out += table.render();
  if (limit < shown.size()) {
    out += "  \u2026 " + std::to_string(shown.size() - limit) + " more keys not linearizable or unknown (use --full)\n";
  }
  return out;
}

}  // namespace

std::string format_check_text(const CheckReport& report, const Style& style, bool full) {
  const History& history = *report.history;
  const CheckResult& result = *report.result;

  std::size_t crashed = 0;
  for (const auto& op : history.ops) crashed += op.status == OpStatus::crashed ? 1 : 0;
  std::size_t operations_count = history.ops.size();
  if (report.passed_ops) std::tie(operations_count, crashed) = *report.passed_ops;

  std::string out = verdict_headline(result.verdict, result.consistency, style) + "  " + report.file + "\n";
  // The violation in one sentence before anything else: what a person reads first.
  if (result.verdict == Verdict::not_linearizable && !result.why.empty()) {
    out += fill_words(result.why, kParagraphWidth, "  ") + "\n";
  }
  const auto line = [&](std::string label, std::string value) {
    out += "  " + style.dim(label) + std::string(12 - label.size(), ' ') + value + "\n";
  };
  line("model", report.model_spec);
  if (!keeps_real_time(result.consistency)) {
    std::string condition(consistency_name(result.consistency));
    if (result.consistency == Consistency::sequential && report.history && report.model_is_keyed) {
      condition +=
          " (keys checked together: sequential consistency is not local; --consistency "
          "sequential-per-key checks each key alone)";
    }
    line("condition", condition);
  }
  std::string engine = result.engine.empty() ? "-" : result.engine;
  if (result.verdict == Verdict::unknown) {
    // No engine decided: none won anything, and the report names them all alike.
    std::string raced;
    for (const std::string& e : result.race.entrants) raced += (raced.empty() ? "" : ", ") + e;
    engine = raced.empty() ? engine + " (undecided)" : "none decided (raced " + raced + ")";
  } else if (result.race.entrants.size() > 1) {
    std::string rivals;
    for (const std::string& e : result.race.entrants) {
      if (e == result.engine) continue;
      rivals += (rivals.empty() ? "" : ", ") + e;
    }
    if (!result.engine.empty()) {
      engine += " (won the race against " + rivals + "; the last, " + result.race.slowest_loser + ", stopped " +
                format_ms(result.race.losers_stopped_ms) + " later)";
    }
  }
  line("engine", engine);
  for (const std::string& w : result.race.withdrawals) line("gave up", w);
  std::string operations = std::to_string(operations_count);
  if (crashed > 0) operations += " (" + std::to_string(crashed) + " crashed)";
  if (!result.keys.empty()) {
    operations += " on " + std::to_string(result.keys.size()) + (result.keys.size() == 1 ? " key" : " keys");
  } else if (result.partitions > 1) {
    operations += " in " + std::to_string(result.partitions) + " partitions";
  }
  line("operations", operations);
  if (report.key_shard) {
    line("shard", std::to_string(report.key_shard->spec.index) + "/" + std::to_string(report.key_shard->spec.count) +
                      ": " + std::to_string(report.key_shard->keys) + " keys, " + std::to_string(history.ops.size()) +
                      " operations of the history's " + std::to_string(report.key_shard->history_events) + " events");
  }
  if (!report.merged_reports.empty()) {
    line("merged", std::to_string(report.merged_reports.size()) + " key shards, the slowest " +
                       format_ms(report.merged_longest_ms));
  }
  line("time", format_ms(report.read_ms) + " reading, " + format_ms(result.elapsed_ms) + " checking, " +
                   format_ms(report.total_ms) + " in all");
  // Before the verdict's details: read first, as it may be all a refutation says.
  if (!result.hint.empty()) line("hint", result.hint);
  if (!result.keys.empty()) out += format_keys_summary(result, full);

  switch (result.verdict) {
    case Verdict::linearizable:
      out += keeps_real_time(result.consistency)
                 ? "\nWitness: the operations in an order that explains every result\n"
                 : "\nWitness: the operations in an order that keeps each process's own order and explains every "
                   "result\n";
      if (report.passed_ops) out += "(checked as they passed and not held: op ids only)\n";
      out += format_ops_table(history, result.linearization, full);
      if (report.proof) out += "\n" + report.proof->summary + "\n";
      break;
    case Verdict::not_linearizable: {
      if (!result.failing_key.empty()) {
        out += "\n";
        line("failing key", shorten(result.failing_key));
        if (result.failing_partition != result.failing_key) line("partition", shorten(result.failing_partition));
      } else if (!result.failing_partition.empty()) {
        line("partition", shorten(result.failing_partition));
      }
      if (const Operation* op = result.failing_op ? find_op(history, *result.failing_op) : nullptr) {
        line("failing op", style.red(std::to_string(op->id)) + " (process " + std::to_string(op->process) + ", " +
                               shorten(op->f) + " " + shorten(op->value.to_edn()) + ", completed at event " +
                               std::to_string(op->ret) + "): the first result no order explains");
      }
      if (report.core_shrunk) {
        line("core", std::to_string(result.core.size()) + " ops, " +
                         (result.core_minimal ? "minimal" : "not shrunk to minimal in time") + ", found in " +
                         format_ms(result.core_ms));
      } else {
        line("core", std::to_string(result.core.size()) + " ops: the failing partition (--no-core)");
      }
      std::vector<std::uint32_t> core = result.core;
      std::sort(core.begin(), core.end());  // file order reads as a timeline
      const std::string size =
          std::to_string(core.size()) + (result.core_minimal ? " operations (a minimal core)" : " operations");
      out += "\nNo order of these " + size +
             (keeps_real_time(result.consistency) ? "" : " that keeps each process's own order") +
             " explains their results, whatever the other operations did:\n";
      out += format_ops_table(history, core, full);
      if (report.explain) {
        if (!result.explanation.empty()) out += "\n" + result.explanation;
      } else {
        out += keeps_real_time(result.consistency)
                   ? "\nRun with --explain for the real-time facts that bind them and why no order works.\n"
                   : "\nRun with --explain for the program-order facts that bind them.\n";
      }
      if (report.prefix) {
        if (result.prefix_linearization.empty()) {
          out += "\nLongest linearizable prefix: not found within its time budget.\n";
        } else {
          // The failing op bounds the prefix; a result without one (made by hand, or
          // read from a report) still shows its prefix, without the bound.
          const Operation* failing = result.failing_op ? find_op(history, *result.failing_op) : nullptr;
          out += failing ? "\nLongest linearizable prefix: every operation invoked before event " +
                               std::to_string(failing->ret) + ", in this order (the failing op " +
                               std::to_string(failing->id) + " is the first it cannot take):\n"
                         : std::string("\nLongest linearizable prefix, in this order:\n");
          out += format_ops_table(history, result.prefix_linearization, full);
        }
      }
      if (report.proof) out += "\n" + report.proof->summary + "\n";
      break;
    }
    case Verdict::unknown:
      if (report.proof) out += "\n" + report.proof->summary + "\n";
      // The reason states the limit and the phase once; then what to try next.
      out += "\nNo answer: " + (result.reason.empty() ? std::string("no reason given") : result.reason) + ".\n";
      if (const std::string next = next_to_try(result); !next.empty()) out += "Next, try " + next + "\n";
      break;
  }
  // A limit reached after the verdict leaves the verdict standing and what came after
  // it partial; say which limit and where, so a "not minimal" is not a mystery.
  if (result.verdict != Verdict::unknown && report.limits && report.limits->first_reached() != Limit::none) {
    out += "\nLimit reached: " + limit_flag(report.limits->first_reached()) + ", during " +
           std::string(phase_name(report.limits->phase_when_reached())) +
           "; the verdict stands, what follows it is partial.\n";
  }
  return replace_invalid_utf8(std::move(out));
}

std::string format_check_json(const CheckReport& report) {
  const CheckResult& result = *report.result;
  JsonWriter json;
  json.begin_object();
  json.field("verdict", verdict_name(result.verdict, result.consistency));
  json.field("consistency", consistency_name(result.consistency));
  json.field("model", report.model_spec);
  json.field("engine", result.engine);
  json.field("operations", static_cast<std::uint64_t>(result.operations));
  json.field("elapsed_ms", round_ms(result.elapsed_ms));
  switch (result.verdict) {
    case Verdict::linearizable:
      json.key("linearization").begin_array();
      for (const auto id : result.linearization) json.value(static_cast<std::uint64_t>(id));
      json.end_array();
      break;
    case Verdict::not_linearizable:
      json.key("core").begin_array();
      for (const auto id : result.core) json.value(static_cast<std::uint64_t>(id));
      json.end_array();
      json.field("explanation", result.explanation);
      if (!result.why.empty()) {
        json.field("why", result.why);
        json.key("why_ops").begin_array();
        for (const WhyOp& named : result.why_ops) {
          json.begin_object();
          json.field("op", static_cast<std::uint64_t>(named.op));
          json.field("role", why_role_name(named.role));
          json.end_object();
        }
        json.end_array();
      }
      json.field("core_minimal", result.core_minimal);
      json.field("core_ms", round_ms(result.core_ms));
      // Under the sequential conditions the facts are program order's, and named so.
      json.key(keeps_real_time(result.consistency) ? "core_real_time" : "core_program_order").begin_array();
      for (const RealTimeFact& fact : result.core_real_time) {
        json.begin_array();
        json.value(static_cast<std::uint64_t>(fact.before));
        json.value(static_cast<std::uint64_t>(fact.after));
        json.end_array();
      }
      json.end_array();
      if (!result.prefix_linearization.empty()) {
        json.key("prefix_linearization").begin_array();
        for (const auto id : result.prefix_linearization) json.value(static_cast<std::uint64_t>(id));
        json.end_array();
      }
      if (!result.failing_partition.empty()) json.field("failing_partition", result.failing_partition);
      if (!result.failing_key.empty()) json.field("failing_key", result.failing_key);
      if (result.failing_op) json.field("failing_op", static_cast<std::uint64_t>(*result.failing_op));
      json.field("verdict_ms", round_ms(result.verdict_ms));
      break;
    case Verdict::unknown: json.field("reason", result.reason); break;
  }
  if (!result.hint.empty()) json.field("hint", result.hint);
  if (!result.dropped_answers.empty()) {
    json.key("dropped_answers").begin_array();
    for (const std::string& d : result.dropped_answers) json.value(d);
    json.end_array();
  }
  // The limit that stopped some phase, and which: "timeout", "memory" or "cancelled",
  // and "reading", "verdict", "failing-op", "core", "explanation" or "proof".
  const auto [limit, limit_phase] = reported_limit(report);
  if (limit != Limit::none) {
    json.field("limit", limit_name(limit));
    json.field("limit_phase", phase_id(limit_phase));
  }
  json.field("file", report.file);
  json.field("partitions", static_cast<std::uint64_t>(result.partitions));
  json.field("steps", result.steps);
  json.field("peak_search_bytes", result.peak_search_bytes);
  json.field("total_ms", round_ms(report.total_ms));
  json.field("read_ms", round_ms(report.read_ms));
  if (report.key_shard) {
    const KeyShard& shard = *report.key_shard;
    json.key("shard").begin_object();
    json.field("index", static_cast<std::uint64_t>(shard.spec.index));
    json.field("count", static_cast<std::uint64_t>(shard.spec.count));
    json.field("selection", "key-hash");
    json.field("keys", static_cast<std::uint64_t>(shard.keys));
    json.field("history_events", static_cast<std::uint64_t>(shard.history_events));
    json.field("history_bytes", shard.history_bytes);
    if (shard.failing_key_first_op) {
      json.field("failing_key_first_op", static_cast<std::uint64_t>(*shard.failing_key_first_op));
    }
    json.key("options").begin_object();
    for (const auto& [name, value] : shard.options.entries()) {
      json.key(name.text());
      if (value.is_integer()) {
        json.value(value.as_integer());
      } else {
        json.value(value.text());
      }
    }
    json.end_object();
    json.field("version", version_text());
    json.end_object();
  }
  if (!report.merged_reports.empty()) {
    json.key("merged").begin_object();
    json.key("reports").begin_array();
    for (const std::string& r : report.merged_reports) json.value(r);
    json.end_array();
    json.field("shards", static_cast<std::uint64_t>(report.merged_reports.size()));
    json.field("longest_ms", round_ms(report.merged_longest_ms));
    json.end_object();
  }
  if (!result.keys.empty()) {
    // Independent histories: one entry per key, in order of first appearance.
    json.key("keys").begin_array();
    for (const KeyResult& k : result.keys) {
      json.begin_object();
      json.field("key", k.key.to_edn());
      json.field("verdict", verdict_name(k.verdict, result.consistency));
      json.field("operations", static_cast<std::uint64_t>(k.operations));
      json.field("elapsed_ms", round_ms(k.elapsed_ms));
      json.field("engine", k.engine);
      if (k.verdict == Verdict::unknown) json.field("reason", k.reason);
      json.end_object();
    }
    json.end_array();
  }
  if (report.history && !report.history->ignored.empty()) {
    json.key("ignored_events").begin_array();
    for (const IgnoredEvents& ignored : report.history->ignored) {
      json.begin_object();
      json.field("process", ignored.process.to_edn());
      json.field("events", static_cast<std::uint64_t>(ignored.events));
      json.field("first_line", static_cast<std::uint64_t>(ignored.first.line));
      json.end_object();
    }
    json.end_array();
  }
  if (report.history && !report.history->warnings.empty()) {
    json.key("warnings").begin_array();
    for (const ReadWarning& w : report.history->warnings) json.value(warning_text(report.history->source, w));
    json.end_array();
  }
  // "written" is what happened, not what was asked: a proof or report cut short by a
  // limit or refused by the file system is false, with the reason.
  const auto side_output = [&json](const char* name, const char* path_field, const SideOutput& output) {
    json.key(name).begin_object();
    json.field(path_field, output.path);
    json.field("written", output.written);
    json.field("summary", output.summary);
    if (!output.written) json.field("reason", output.reason);
    json.end_object();
  };
  if (report.proof) side_output("proof", "dir", *report.proof);
  if (report.html) side_output("html", "path", *report.html);
  if (!result.race.entrants.empty()) {
    json.key("race").begin_object();
    json.key("entrants").begin_array();
    for (const std::string& e : result.race.entrants) json.value(e);
    json.end_array();
    json.field("losers_stopped_ms", round_ms(result.race.losers_stopped_ms));
    json.field("slowest_loser", result.race.slowest_loser);
    json.key("withdrawals").begin_array();
    for (const std::string& w : result.race.withdrawals) json.value(w);
    json.end_array();
    json.end_object();
  }
  json.end_object();
  return json.text() + "\n";
}

}  // namespace ariadne::answer
