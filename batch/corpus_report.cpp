// The corpus report lists every row, not just mismatches: a corpus run is also a
// benchmark, and the per-row times are what a reader compares between runs. The
// totals count error rows among the mismatches (an error never counts as a pass) and
// also on their own, so matches + mismatches = rows; after Ctrl-C or SIGTERM, rows
// the signal cut short are a third kind, so matches + mismatches + interrupted = rows.
#include "batch/corpus_report.hpp"

#include "answer/json_writer.hpp"
#include "answer/report_numbers.hpp"
#include "answer/terminal.hpp"
#include "answer/text_table.hpp"

#include <cmath>
#include <cstdio>

namespace ariadne::batch {

using answer::format_number;
using answer::JsonWriter;
using answer::round_ms;
using answer::Style;
using answer::TextTable;

namespace {

// What the table says of a row's certificate: the kind that replayed, or that none did.
std::string certificate_cell(const OutcomeCertificate& certificate) {
  if (!certificate.certified) return "none";
  return certificate.proof.empty() ? "witness \u2713" : "core+proof \u2713";
}

std::string expected_name(const CorpusRow& row, Consistency consistency) {
  return row.expected ? std::string(verdict_name(*row.expected, consistency)) : "-";
}

// The lines under the summary that say what part of the corpus the table covers.
std::string scope_lines(const ReportScope& scope, const Style& style) {
  std::string out;
  if (scope.shard) {
    const ShardIdentity& shard = *scope.shard;
    const std::size_t shard_rows = shard_row_count(shard.corpus_rows, shard.spec);
    std::string listed;
    for (std::size_t i = 0; i < shard_rows && i < 3; ++i) {
      listed += (i ? ", " : "") + std::to_string(shard.spec.index + i * shard.spec.count);
    }
    if (shard_rows > 3) listed += ", ...";
    out += "shard " + std::to_string(shard.spec.index) + "/" + std::to_string(shard.spec.count) + ": " +
           std::to_string(shard_rows) + " of the corpus's " + std::to_string(shard.corpus_rows) + " rows" +
           (listed.empty() ? "" : " (positions " + listed + ")") +
           "; join the shards' --json reports with 'ariadne corpus --merge'\n";
  }
  if (scope.merged) {
    out += "merged " + std::to_string(scope.merged->reports.size()) + " shard reports; times are their sums, " +
           "the slowest shard took " + format_number(scope.merged->longest_wall_ms, 1) + " ms wall\n";
  }
  if (scope.interruption) {
    out += style.red("interrupted by " + scope.interruption->signal + ": " +
                     std::to_string(scope.interruption->unchecked) + " of " +
                     std::to_string(scope.interruption->run_rows) + " rows not checked") +
           "\n";
  }
  return out;
}

void write_scope_json(JsonWriter& json, const ReportScope& scope) {
  if (scope.shard) {
    const ShardIdentity& shard = *scope.shard;
    json.key("shard").begin_object();
    json.field("index", static_cast<std::uint64_t>(shard.spec.index));
    json.field("count", static_cast<std::uint64_t>(shard.spec.count));
    json.field("rows", static_cast<std::uint64_t>(shard_row_count(shard.corpus_rows, shard.spec)));
    json.field("corpus_rows", static_cast<std::uint64_t>(shard.corpus_rows));
    json.field("selection", "round-robin");
    json.field("corpus_digest", shard.corpus_digest);
    json.key("options").begin_object();
    json.field("engine", shard.engine);
    json.field("timeout_seconds", shard.timeout_seconds);
    json.field("memory_limit", shard.memory_limit);
    json.field("certify", shard.certify);
    // Only when not linearizable, so that reports of linearizability stay as they were.
    if (shard.consistency != Consistency::linearizable) json.field("consistency", consistency_name(shard.consistency));
    json.end_object();
    json.field("version", shard.version);
    json.end_object();
  }
  if (scope.merged) {
    json.key("merged").begin_object();
    json.key("reports").begin_array();
    for (const std::string& report : scope.merged->reports) json.value(report);
    json.end_array();
    json.field("shards", static_cast<std::uint64_t>(scope.merged->reports.size()));
    json.field("longest_wall_ms", round_ms(scope.merged->longest_wall_ms));
    json.end_object();
  }
  if (scope.interruption) {
    json.key("interrupted").begin_object();
    json.field("signal", scope.interruption->signal);
    json.field("unchecked", static_cast<std::uint64_t>(scope.interruption->unchecked));
    json.field("rows", static_cast<std::uint64_t>(scope.interruption->run_rows));
    json.end_object();
  }
}

}  // namespace

CorpusTotals total(const std::vector<CorpusOutcome>& outcomes, double wall_ms) {
  CorpusTotals totals;
  totals.rows = outcomes.size();
  totals.wall_ms = wall_ms;
  for (const auto& outcome : outcomes) {
    totals.matches += outcome.ok ? 1 : 0;
    totals.interrupted += !outcome.ok && outcome.interrupted ? 1 : 0;
    totals.mismatches += outcome.ok || outcome.interrupted ? 0 : 1;
    totals.errors += outcome.error.empty() ? 0 : 1;
    totals.checking_ms += outcome.elapsed_ms;
    totals.certified += outcome.certificate.certified ? 1 : 0;
    totals.certifying = totals.certifying || outcome.certificate.requested;
  }
  return totals;
}

std::string format_corpus_text(const std::vector<CorpusRow>& rows, const std::vector<CorpusOutcome>& outcomes,
                               const CorpusTotals& totals, const Style& style, const ReportScope& scope) {
  using Align = TextTable::Align;
  TextTable table;
  table.add_column("file");
  table.add_column("model");
  table.add_column("verdict");
  table.add_column("expected");
  table.add_column("ms", Align::right);
  if (totals.certifying) table.add_column("certificate");
  table.add_column("");
  std::string details;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CorpusRow& row = rows[i];
    const CorpusOutcome& outcome = outcomes[i];
    std::string mark;
    if (outcome.interrupted && !outcome.ok) {
      mark = style.yellow("- interrupted");
    } else if (!outcome.error.empty()) {
      mark = style.red("\u2717 error");
      details += "  " + row.name + ": " + outcome.error + "\n";
    } else if (!(outcome.verdict && row.expected && *outcome.verdict == *row.expected)) {
      mark = style.red("\u2717 mismatch");
      if (!outcome.reason.empty()) details += "  " + row.name + ": unknown: " + outcome.reason + "\n";
    } else if (!outcome.ok) {
      mark = style.red("\u2717 not certified");
    }
    if (outcome.certificate.requested && !outcome.certificate.problem.empty() && outcome.error.empty()) {
      details += "  " + row.name + ": " + outcome.certificate.problem + "\n";
    }
    std::vector<std::string> cells{
        row.name, row.model.empty() ? "-" : row.model,
        outcome.verdict ? std::string(verdict_name(*outcome.verdict, scope.consistency)) : "error",
        expected_name(row, scope.consistency), format_number(outcome.elapsed_ms, 1)};
    if (totals.certifying) cells.push_back(certificate_cell(outcome.certificate));
    cells.push_back(mark);
    table.add_row(cells);
  }

  std::string out = table.render();
  if (!details.empty()) out += "\n" + details;
  std::string summary = "rows " + std::to_string(totals.rows) + "  matches " + std::to_string(totals.matches) +
                        "  mismatches " + std::to_string(totals.mismatches) + "  errors " +
                        std::to_string(totals.errors);
  if (totals.interrupted > 0) summary += "  interrupted " + std::to_string(totals.interrupted);
  if (totals.certifying) summary += "  certified " + std::to_string(totals.certified);
  summary = totals.mismatches == 0 ? style.green(summary) : style.red(summary);
  out += "\n" + summary + "  checking " + format_number(totals.checking_ms, 1) + " ms  wall " +
         format_number(totals.wall_ms, 1) + " ms\n";
  return out + scope_lines(scope, style);
}

std::string format_corpus_json(const std::string& corpus, const std::vector<CorpusRow>& rows,
                               const std::vector<CorpusOutcome>& outcomes, const CorpusTotals& totals,
                               const ReportScope& scope) {
  JsonWriter json;
  json.begin_object();
  json.field("corpus", corpus);
  if (scope.consistency != Consistency::linearizable) json.field("consistency", consistency_name(scope.consistency));
  write_scope_json(json, scope);
  json.key("rows").begin_array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CorpusRow& row = rows[i];
    const CorpusOutcome& outcome = outcomes[i];
    json.begin_object();
    json.field("file", row.name);
    json.field("model", row.model);
    if (row.expected) {
      json.field("expected", verdict_name(*row.expected, scope.consistency));
    } else {
      json.key("expected").null();
    }
    if (outcome.verdict) {
      json.field("verdict", verdict_name(*outcome.verdict, scope.consistency));
      json.field("engine", outcome.engine);
    } else {
      json.key("verdict").null();
      json.key("engine").null();
    }
    json.field("elapsed_ms", round_ms(outcome.elapsed_ms));
    json.field("ok", outcome.ok);
    if (!outcome.error.empty()) json.field("error", outcome.error);
    if (!outcome.reason.empty()) json.field("reason", outcome.reason);
    if (outcome.interrupted) json.field("interrupted", true);
    if (outcome.certificate.requested) {
      json.key("certificate").begin_object();
      json.field("certified", outcome.certificate.certified);
      json.field("answer", outcome.certificate.answer);
      if (!outcome.certificate.proof.empty()) json.field("proof", outcome.certificate.proof);
      if (!outcome.certificate.problem.empty()) json.field("problem", outcome.certificate.problem);
      json.end_object();
    }
    if (scope.shard) json.field("position", static_cast<std::uint64_t>(scope.positions.at(i)));
    json.end_object();
  }
  json.end_array();
  json.key("totals").begin_object();
  json.field("rows", static_cast<std::uint64_t>(totals.rows));
  json.field("matches", static_cast<std::uint64_t>(totals.matches));
  json.field("mismatches", static_cast<std::uint64_t>(totals.mismatches));
  json.field("errors", static_cast<std::uint64_t>(totals.errors));
  if (scope.interruption || totals.interrupted > 0) {
    json.field("interrupted", static_cast<std::uint64_t>(totals.interrupted));
  }
  json.field("checking_ms", round_ms(totals.checking_ms));
  json.field("wall_ms", round_ms(totals.wall_ms));
  if (totals.certifying) json.field("certified", static_cast<std::uint64_t>(totals.certified));
  json.end_object();
  json.end_object();
  return json.text() + "\n";
}

}  // namespace ariadne::batch
