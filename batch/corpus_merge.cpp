// Merging shard reports; see corpus_merge.hpp. Each report is read with the library's
// strict JSON reader (history/json_reader.hpp, the one `verify-witness` uses), so a
// malformed report fails with its line:column. The reader keeps no positions inside
// the document, so a well-formed report with a wrong field is named by its file and
// the field's path instead ("rows[3].verdict").
//
// Every check here guards the promise that the merged report is the unsharded one:
// the shards' rows are put back at their positions in the corpus, and a position is
// trusted only if it is the one round-robin selection gives that shard.
#include "batch/corpus_merge.hpp"

#include "answer/text_files.hpp"
#include "batch/corpus_shard.hpp"
#include "batch/report_reader.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/value.hpp>

#include <algorithm>
#include <map>
#include <optional>

namespace ariadne::batch {

using answer::read_text_file;
using answer::shard_name;
using answer::ShardSpec;

namespace {

// One shard's report, as read.
struct CorpusShardReport {
  std::string path;
  std::string corpus;
  ShardSpec spec;
  std::size_t corpus_rows = 0;
  std::string corpus_digest;
  Value options;  // compared whole: any option that differs refuses the merge
  std::string version;
  std::vector<std::size_t> positions;
  std::vector<CorpusRow> rows;
  std::vector<CorpusOutcome> outcomes;
  double wall_ms = 0;
};

std::string count_rows(std::size_t count) { return std::to_string(count) + (count == 1 ? " row" : " rows"); }

void read_row(const ReportReader& reader, const Value& item, const std::string& where, CorpusShardReport& report) {
  if (!item.is_map()) reader.fail(where, "a row must be an object, got " + item.to_json());
  CorpusRow row;
  row.name = reader.text(item, where, "file");
  row.model = reader.text(item, where, "model");
  row.expected = reader.verdict_or_null(item, where, "expected");
  CorpusOutcome outcome;
  outcome.verdict = reader.verdict_or_null(item, where, "verdict");
  outcome.engine = reader.text_or_null(item, where, "engine").value_or("");
  outcome.elapsed_ms = reader.number(item, where, "elapsed_ms");
  outcome.ok = reader.boolean(item, where, "ok");
  outcome.error = reader.text_or_null(item, where, "error").value_or("");
  outcome.reason = reader.text_or_null(item, where, "reason").value_or("");
  if (!outcome.verdict && outcome.error.empty()) reader.fail(where, "a row without a verdict must say its \"error\"");
  if (reader.find(item, "certificate") != nullptr) {
    const Value& certificate = reader.object(item, where, "certificate");
    const std::string inner = where + ".certificate";
    outcome.certificate.requested = true;
    outcome.certificate.certified = reader.boolean(certificate, inner, "certified");
    outcome.certificate.answer = reader.text(certificate, inner, "answer");
    outcome.certificate.proof = reader.text_or_null(certificate, inner, "proof").value_or("");
    outcome.certificate.problem = reader.text_or_null(certificate, inner, "problem").value_or("");
  }
  report.positions.push_back(reader.count(item, where, "position"));
  report.rows.push_back(std::move(row));
  report.outcomes.push_back(std::move(outcome));
}

CorpusShardReport read_shard_report(const std::string& path) {
  const Value document = parse_json_value(read_text_file(path, "cannot open the shard report"), path);
  const ReportReader reader(path);
  if (!document.is_map()) reader.fail("", "not a corpus report: expected a JSON object, got " + document.to_json());
  CorpusShardReport report;
  report.path = path;
  if (reader.find(document, "shard") == nullptr) {
    reader.fail("",
                "not a shard report (no \"shard\" field): write each shard's report with "
                "'ariadne corpus CORPUS --shard I/N --json'");
  }
  report.corpus = reader.text(document, "", "corpus");
  const Value& shard = reader.object(document, "", "shard");
  report.spec.index = reader.count(shard, "shard", "index");
  report.spec.count = reader.count(shard, "shard", "count");
  if (report.spec.count == 0 || report.spec.index >= report.spec.count) {
    reader.fail("shard", "index " + std::to_string(report.spec.index) + " is not below count " +
                             std::to_string(report.spec.count));
  }
  report.corpus_rows = reader.count(shard, "shard", "corpus_rows");
  const std::string selection = reader.text(shard, "shard", "selection");
  if (selection != "round-robin") reader.fail("shard", "unknown \"selection\" \"" + selection + "\"");
  report.corpus_digest = reader.text(shard, "shard", "corpus_digest");
  report.options = reader.object(shard, "shard", "options");
  report.version = reader.text(shard, "shard", "version");

  if (const Value* interrupted = reader.find(document, "interrupted")) {
    std::string how = "interrupted";
    if (interrupted->is_map()) {
      how += " by " + reader.text(*interrupted, "interrupted", "signal") + " with " +
             std::to_string(reader.count(*interrupted, "interrupted", "unchecked")) + " of its rows not checked";
    }
    reader.fail("", "shard " + shard_name(report.spec) + " was " + how + "; run that shard again");
  }

  const Value& rows = reader.member(document, "", "rows");
  if (!rows.is_sequential()) reader.fail("", "\"rows\" must be an array, got " + rows.to_json());
  for (std::size_t i = 0; i < rows.elements().size(); ++i) {
    read_row(reader, rows.elements()[i], "rows[" + std::to_string(i) + "]", report);
  }
  report.wall_ms = reader.number(reader.object(document, "", "totals"), "totals", "wall_ms");

  // The rows must be exactly the shard's: a report that lost or gained a row, or
  // whose rows moved, would merge into a corpus run that never happened.
  // Counted, not listed: a damaged corpus_rows must not make the merge allocate it.
  const std::size_t expected_rows = shard_row_count(report.corpus_rows, report.spec);
  if (report.positions.size() != expected_rows) {
    reader.fail("", "shard " + shard_name(report.spec) + " of a " + std::to_string(report.corpus_rows) +
                        "-row corpus holds " + count_rows(expected_rows) + ", but the report lists " +
                        count_rows(report.positions.size()));
  }
  for (std::size_t i = 0; i < expected_rows; ++i) {
    const std::size_t expected = report.spec.index + i * report.spec.count;
    if (report.positions[i] != expected) {
      reader.fail("rows[" + std::to_string(i) + "]",
                  "\"position\" is " + std::to_string(report.positions[i]) + ", but row " + std::to_string(i) +
                      " of shard " + shard_name(report.spec) + " is at position " + std::to_string(expected));
    }
  }
  return report;
}

// The options that differ, e.g. "timeout_seconds 5 against 0".
std::string describe_difference(const Value& options, const Value& reference) {
  std::string out;
  const auto describe = [](const Value* value) { return value ? value->to_json() : std::string("absent"); };
  std::vector<Value> keys;
  for (const auto& entry : options.entries()) keys.push_back(entry.first);
  for (const auto& entry : reference.entries()) {
    if (!options.find(entry.first)) keys.push_back(entry.first);
  }
  for (const Value& key : keys) {
    const Value* mine = options.find(key);
    const Value* theirs = reference.find(key);
    if (mine && theirs && *mine == *theirs) continue;
    out += (out.empty() ? "" : ", ") + (key.is_string() ? key.text() : key.to_json()) + " " + describe(mine) +
           " against " + describe(theirs);
  }
  return out;
}

// Refuses `report` unless it belongs to the same run as `first`: same N, same corpus,
// same options, same ariadne.
void check_same_run(const CorpusShardReport& first, const CorpusShardReport& report) {
  const auto refuse = [&](const std::string& what) {
    throw InputError(report.path, {},
                     "shard " + shard_name(report.spec) + " " + what + " than shard " + shard_name(first.spec) +
                         " in " + first.path + "; cannot merge them");
  };
  if (report.spec.count != first.spec.count) {
    refuse("is one of " + std::to_string(report.spec.count) + " shards, a different count N");
  }
  // Options first: a different --consistency also changes what the rows expect, and
  // so the corpus's digest, and the option is the reason to name.
  if (report.options != first.options) {
    refuse("was checked with other options (" + describe_difference(report.options, first.options) + ")");
  }
  if (report.corpus_digest != first.corpus_digest || report.corpus_rows != first.corpus_rows) {
    refuse("read a different corpus (" + count_rows(report.corpus_rows) + ", digest " + report.corpus_digest +
           ", against " + count_rows(first.corpus_rows) + ", digest " + first.corpus_digest + ")");
  }
  if (report.version != first.version) {
    refuse("was checked by another ariadne (" + report.version + ", against " + first.version + ")");
  }
}

}  // namespace

MergedCorpus merge_shard_reports(const std::vector<std::string>& report_paths) {
  std::vector<CorpusShardReport> reports;
  for (const std::string& path : report_paths) reports.push_back(read_shard_report(path));

  std::map<std::size_t, const CorpusShardReport*> by_index;
  for (const CorpusShardReport& report : reports) {
    check_same_run(reports.front(), report);
    const auto [place, fresh] = by_index.emplace(report.spec.index, &report);
    if (!fresh) {
      throw InputError(report.path, {},
                       "shard " + shard_name(report.spec) + " again: " + place->second->path +
                           " is that shard already; give each shard's report once");
    }
  }
  const std::size_t count = reports.front().spec.count;
  if (by_index.size() != count) {
    // The first ten missing shards are named; a count N edited to a huge number must
    // not make this loop run N times.
    const std::size_t missing = count - by_index.size();
    std::string listed;
    std::size_t named = 0;
    for (std::size_t index = 0; index < count && named < 10; ++index) {
      if (by_index.count(index) == 0) listed += (named++ ? ", " : "") + std::to_string(index);
    }
    if (missing > named) listed += ", ... (" + std::to_string(missing) + " in all)";
    std::string given;
    for (const auto& [index, report] : by_index) {
      given += (given.empty() ? "" : ", ") + std::to_string(index) + " (" + report->path + ")";
    }
    throw InputError("--merge", {},
                     std::string(missing == 1 ? "no report for shard " : "no report for shards ") + listed +
                         " (of shards 0 to " + std::to_string(count - 1) + "); given: " + given +
                         ". A merge needs every shard's report");
  }

  MergedCorpus merged;
  const CorpusShardReport& first_shard = *by_index.begin()->second;
  merged.corpus = first_shard.corpus;
  if (const Value* c = first_shard.options.find(Value::string("consistency")); c && c->is_string()) {
    const std::optional<Consistency> consistency = parse_consistency(c->text());
    if (!consistency) throw InputError(first_shard.path, {}, "unknown consistency '" + c->text() + "' in its options");
    merged.consistency = *consistency;
  }
  merged.rows.resize(first_shard.corpus_rows);
  merged.outcomes.resize(first_shard.corpus_rows);
  for (const auto& [index, report] : by_index) {
    for (std::size_t i = 0; i < report->positions.size(); ++i) {
      merged.rows[report->positions[i]] = report->rows[i];
      merged.outcomes[report->positions[i]] = report->outcomes[i];
    }
    merged.wall_ms += report->wall_ms;
    merged.summary.reports.push_back(report->path);
    merged.summary.longest_wall_ms = std::max(merged.summary.longest_wall_ms, report->wall_ms);
  }
  return merged;
}

}  // namespace ariadne::batch
