// `ariadne corpus`: rows are independent, so N worker threads (batch/row_pool.hpp)
// take the next unchecked row until none is left, and each check runs single-threaded (CheckOptions.jobs = 1)
// so N files at a time use N cores rather than N times all of them. Each row's
// outcome goes to its own slot, so the report is in corpus order whatever order the
// workers finish in. Every failure of a row, whatever its type, is caught in the
// worker and recorded as an error row: one bad file never stops the run.
//
// With --shard I/N the run checks only its shard's rows (corpus_shard.hpp) and its
// report says which; --merge joins such reports (corpus_merge.hpp). Ctrl-C or SIGTERM
// (common/interrupt.hpp) cancels the running checks through CheckOptions::cancel, the
// workers skip the rows not yet started, and the rows that got an answer are
// reported with a line saying how many were not checked.
#include "cli/corpus_command.hpp"

#include "answer/exit_status.hpp"
#include "answer/report_numbers.hpp"
#include "answer/terminal.hpp"
#include "answer/text_files.hpp"
#include "batch/corpus_merge.hpp"
#include "batch/corpus_report.hpp"
#include "batch/corpus_rows.hpp"
#include "batch/corpus_shard.hpp"
#include "batch/row_certificate.hpp"
#include "batch/row_check.hpp"
#include "batch/row_pool.hpp"
#include "cli/help_text.hpp"
#include "cli/interrupt.hpp"
#include "cli/option_values.hpp"
#include "cli/progress_bar.hpp"
#include "cli/shared_options.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

namespace ariadne::cli {

using batch::certify_row;
using batch::CorpusOutcome;
using batch::CorpusRow;
using batch::CorpusTotals;
using batch::expected_under;
using batch::format_corpus_json;
using batch::format_corpus_text;
using batch::Interruption;
using batch::make_shard_identity;
using batch::merge_shard_reports;
using batch::MergedCorpus;
using batch::read_corpus_rows;
using batch::ReportScope;
using batch::RowCertificate;
using batch::RowCheck;
using batch::shard_positions;
using batch::shard_row_count;
using batch::unique_paths_below;

using answer::current_failure;
using answer::is_terminal;
using answer::kExitCorpusMatches;
using answer::kExitCorpusMismatches;
using answer::ms_since;
using answer::parse_shard_spec;
using answer::print;
using answer::ReportClock;
using answer::ShardSpec;
using answer::Style;

namespace {

namespace fs = std::filesystem;
using Clock = ReportClock;

CorpusOutcome check_row(const CorpusRow& row, const CheckOptions& options) {
  CorpusOutcome outcome;
  if (!row.error.empty()) {
    outcome.error = row.error;
    return outcome;
  }
  const auto start = Clock::now();
  try {
    const auto model = make_model_from_spec(row.model);
    const RowCheck row_check(options);
    const History history = read_history(row.path.string(), *model);
    const CheckResult result = check(history, *model, row_check.options);
    outcome.verdict = result.verdict;
    outcome.engine = result.engine;
    outcome.elapsed_ms = result.elapsed_ms;
    if (result.verdict == Verdict::unknown) outcome.reason = result.reason;
    outcome.ok = row.expected && result.verdict == *row.expected;
    return outcome;
  } catch (...) {
    outcome.error = current_failure().message;
  }
  outcome.elapsed_ms = ms_since(start);
  return outcome;
}

// The certificate's files are named after the row's path, under the output folder,
// so that DIR mirrors the corpus: `jepsen/etcd_000.log` certifies into
// DIR/jepsen/etcd_000.log.json and DIR/jepsen/etcd_000.log.proof/ (`stem`, from
// unique_paths_below, which keeps rows from other folders apart).
CorpusOutcome certify_corpus_row(const CorpusRow& row, const CheckOptions& options, const fs::path& dir,
                                 const fs::path& stem) {
  const RowCertificate certificate = certify_row(row, options, stem);
  CorpusOutcome outcome;
  outcome.verdict = certificate.verdict;
  outcome.engine = certificate.engine;
  outcome.elapsed_ms = certificate.check_ms;
  outcome.certificate.requested = true;
  outcome.certificate.certified = certificate.certified;
  if (!certificate.answer_json.empty()) {
    outcome.certificate.answer = certificate.answer_json.lexically_relative(dir).generic_string();
  }
  if (!certificate.proof_dir.empty()) {
    outcome.certificate.proof = certificate.proof_dir.lexically_relative(dir).generic_string();
  }
  if (!certificate.verdict) {
    outcome.error = certificate.problem;
  } else {
    outcome.certificate.problem = certificate.problem;
  }
  const bool matched = certificate.verdict && row.expected && *certificate.verdict == *row.expected;
  outcome.ok = matched && certificate.certified;
  // A signal that stopped the certificate says nothing about the answer.
  outcome.interrupted = certificate.stopped_by == Limit::cancelled;
  return outcome;
}

// DIR/certificates.tsv: one line per row, so that another checker's author can pair
// each file with its certified answer without parsing our JSON report.
void write_certificate_index(const fs::path& dir, const std::vector<CorpusRow>& rows,
                             const std::vector<CorpusOutcome>& outcomes) {
  std::ofstream out(dir / "certificates.tsv", std::ios::binary | std::ios::trunc);
  out << "# file\tmodel\texpected\tverdict\tcertified\tanswer\tproof\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CorpusOutcome& outcome = outcomes[i];
    out << rows[i].name << '\t' << rows[i].model << '\t' << (rows[i].expected ? verdict_name(*rows[i].expected) : "-")
        << '\t' << (outcome.verdict ? verdict_name(*outcome.verdict) : "error") << '\t'
        << (outcome.certificate.certified ? "yes" : "no") << '\t'
        << (outcome.certificate.answer.empty() ? "-" : outcome.certificate.answer) << '\t'
        << (outcome.certificate.proof.empty() ? "-" : outcome.certificate.proof) << '\n';
  }
  if (!out) throw UsageError("--certify: cannot write " + (dir / "certificates.tsv").string());
}

// The rows one run checks: all of them, or its shard's, with their positions and,
// with --certify, where each one's certificate goes.
struct RunRows {
  std::vector<CorpusRow> rows;
  std::vector<std::size_t> positions;
  std::vector<fs::path> certificate_stems;
};

// The certificates' names are made unique over the whole corpus, before it is
// sharded, so that shards writing into one DIR name every row as a whole run would.
RunRows select_rows(std::vector<CorpusRow> all_rows, const std::optional<ShardSpec>& shard,
                    const std::optional<fs::path>& certify_dir) {
  RunRows selected;
  std::vector<fs::path> stems;
  if (certify_dir) {
    std::vector<std::string> names;
    names.reserve(all_rows.size());
    for (const CorpusRow& row : all_rows) names.push_back(row.name);
    stems = unique_paths_below(*certify_dir, names);
  }
  if (!shard) {
    selected.rows = std::move(all_rows);
    selected.certificate_stems = std::move(stems);
    return selected;
  }
  selected.positions = shard_positions(all_rows.size(), *shard);
  for (const std::size_t position : selected.positions) {
    selected.rows.push_back(std::move(all_rows[position]));
    if (certify_dir) selected.certificate_stems.push_back(stems[position]);
  }
  return selected;
}

// A row counts as checked when it got an answer of its own: not when it was never
// started, nor when its check answered unknown because the interrupt cancelled it
// (an unknown that lands just as the signal does is counted as not checked too; that
// only errs towards rechecking). Nor when the signal stopped it before its verdict
// (while reading, say); one it stopped after is listed, as interrupted.
bool answered(const CorpusOutcome& outcome, bool ran, bool interrupted) {
  if (!ran) return false;
  if (outcome.interrupted && (!outcome.verdict || *outcome.verdict == Verdict::unknown)) return false;
  return !(interrupted && outcome.error.empty() && outcome.verdict == Verdict::unknown);
}

// The rows of `run` that got an answer, with their outcomes (and positions, for a shard).
struct AnsweredRows {
  std::vector<CorpusRow> rows;
  std::vector<CorpusOutcome> outcomes;
  std::vector<std::size_t> positions;
};

AnsweredRows answered_rows(const RunRows& run, const std::vector<CorpusOutcome>& outcomes, const std::vector<char>& ran,
                           bool interrupted) {
  AnsweredRows done;
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    if (!answered(outcomes[i], ran[i] != 0, interrupted)) continue;
    done.rows.push_back(run.rows[i]);
    done.outcomes.push_back(outcomes[i]);
    if (!run.positions.empty()) done.positions.push_back(run.positions[i]);
  }
  return done;
}

int run_merge(const CorpusCommandOptions& options) {
  // A merge checks nothing: an option that would change how rows are checked means the
  // user expects something --merge does not do.
  const SearchLimits defaults;
  const bool check_options_given = options.limits.engine != defaults.engine ||
                                   options.limits.timeout_seconds != defaults.timeout_seconds ||
                                   options.limits.memory_limit != defaults.memory_limit || options.jobs != 0 ||
                                   options.consistency != "linearizable";
  if (!options.corpus.empty() || options.shard || options.certify_dir || check_options_given) {
    throw UsageError(
        "corpus --merge: give only the shard reports (and --json), not a CORPUS, --shard, --certify, "
        "--jobs, --consistency or a check limit: the shards' reports already hold the checks");
  }
  MergedCorpus merged = merge_shard_reports(options.merge_reports);
  const CorpusTotals totals = total(merged.outcomes, merged.wall_ms);
  ReportScope scope;
  scope.merged = std::move(merged.summary);
  scope.consistency = merged.consistency;
  print(options.json ? format_corpus_json(merged.corpus, merged.rows, merged.outcomes, totals, scope)
                     : format_corpus_text(merged.rows, merged.outcomes, totals, Style::for_stream(stdout), scope));
  return totals.mismatches == 0 ? kExitCorpusMatches : kExitCorpusMismatches;
}

}  // namespace

void add_corpus_options(CLI::App& corpus, CorpusCommandOptions& options) {
  corpus.footer(corpus_help_footer);
  // Not required: --merge reads shard reports instead; run_corpus_command asks for one or the other.
  corpus.add_option("CORPUS", options.corpus, "An expected.tsv, or a directory of .edn files with headers");
  corpus.add_option("-j,--jobs", options.jobs, "Files checked at once (default: the CPUs the process may run on)")
      ->type_name("N")
      ->check(at_least(1, "at least 1"));
  add_limit_options(corpus, options.limits, " (per file)");
  corpus
      .add_option("--consistency", options.consistency,
                  "Check every row under this condition (linearizable, sequential, sequential-per-key; see check "
                  "--help). Rows expect their '; expected-sequential:' headers, or what follows from their verdict "
                  "(linearizable implies sequentially consistent); rows whose verdict is not known are left out")
      ->type_name("CONDITION");
  corpus.add_flag("--json", options.json, "Print one JSON object with every row and the totals");
  corpus
      .add_option("--certify", options.certify_dir,
                  "Write each row's certificate into DIR (witness, or minimal core, explanation and proof), "
                  "replay it, and index them in DIR/certificates.tsv")
      ->type_name("DIR");
  corpus
      .add_option("--shard", options.shard,
                  "Check only shard I of N (0-based, as SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX): "
                  "every Nth row from row I; --json writes a report for --merge")
      ->type_name("I/N");
  corpus
      .add_option("--merge", options.merge_reports,
                  "Join the --json reports of all N shards into the report of one whole run")
      ->type_name("REPORT.json");
}

int run_corpus_command(const CorpusCommandOptions& options) {
  if (!options.merge_reports.empty()) return run_merge(options);
  if (options.corpus.empty()) {
    throw UsageError("corpus: give a CORPUS (an expected.tsv or a directory), or --merge REPORT.json...");
  }
  // Parse the options before reading the corpus, so a typo fails fast.
  const std::optional<ShardSpec> shard =
      options.shard ? std::optional<ShardSpec>(parse_shard_spec(*options.shard)) : std::nullopt;
  make_check_options(options.limits, 0);
  const Consistency consistency = choose_consistency(options.consistency);
  const auto start = Clock::now();
  std::vector<CorpusRow> all_rows = read_corpus_rows(options.corpus);
  std::size_t left_out = 0;
  if (consistency != Consistency::linearizable) {
    std::vector<CorpusRow> known;
    for (CorpusRow& row : all_rows) {
      if (row.error.empty() && !(row.expected = expected_under(row, consistency))) {
        ++left_out;
        continue;
      }
      known.push_back(std::move(row));
    }
    all_rows = std::move(known);
    if (left_out > 0) {
      std::fprintf(stderr,
                   "ariadne: corpus: %zu row%s left out: %s verdict under --consistency %s is not known (a history "
                   "that is not linearizable may or may not be sequentially consistent; an "
                   "'; expected-sequential:' header says which)\n",
                   left_out, left_out == 1 ? "" : "s", left_out == 1 ? "its" : "their", options.consistency.c_str());
    }
    if (all_rows.empty())
      throw UsageError("corpus: no row has a known verdict under --consistency " + options.consistency);
  }

  unsigned jobs = options.jobs != 0 ? options.jobs : available_cpus();
  const std::size_t run_size = shard ? shard_row_count(all_rows.size(), *shard) : all_rows.size();
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(run_size, 1)));
  CheckOptions check_options = make_check_options(options.limits, jobs > 1 ? 1 : 0);
  // A corpus run compares verdicts; describing every refuted row (its failing op, a
  // minimal core, the explanation) would only cost time (`check` on a row gives it).
  check_options.minimal_core = false;
  check_options.verdict_only = true;
  check_options.consistency = consistency;

  ReportScope scope;
  scope.consistency = consistency;
  if (shard) scope.shard = make_shard_identity(*shard, all_rows, check_options, options.certify_dir.has_value());
  std::optional<fs::path> certify_dir;
  if (options.certify_dir) certify_dir = fs::path(*options.certify_dir);
  const RunRows run = select_rows(std::move(all_rows), shard, certify_dir);
  const std::vector<CorpusRow>& rows = run.rows;

  if (certify_dir) {
    std::error_code error;
    fs::create_directories(*certify_dir, error);
    if (error) throw UsageError("--certify: cannot create " + certify_dir->string() + ": " + error.message());
    // A certificate is the minimal core, not the whole failing partition.
    check_options.minimal_core = true;
    check_options.verdict_only = false;
  }

  const InterruptScope interrupt;
  check_options.cancel = &interrupt.flag();
  // --memory-limit bounds the whole process, however many rows run at once: one
  // watch measures it, and every row's limits answer to it (each row keeps its own
  // --timeout).
  const Limits command_limits(
      {.memory_limit = check_options.memory_limit, .cancel = &interrupt.flag(), .jobs = options.jobs});
  const LimitsWatch watch(command_limits);
  check_options.limits = &command_limits;
  std::vector<CorpusOutcome> outcomes(rows.size());
  std::vector<char> ran(rows.size(), 0);  // char, not bool: each worker writes its own byte
  ProgressBar progress(stderr, rows.size(), is_terminal(stderr));
  batch::for_each_row(rows.size(), jobs, [&](std::size_t i) {
    if (interrupt.interrupted()) return;
    progress.started(rows[i].name);
    outcomes[i] = certify_dir ? certify_corpus_row(rows[i], check_options, *certify_dir, run.certificate_stems[i])
                              : check_row(rows[i], check_options);
    ran[i] = 1;
    // A check the interrupt cut short is no mismatch; the bar is about to be erased anyway.
    if (!interrupt.interrupted()) progress.finished(rows[i].name, outcomes[i].ok);
  });
  progress.erase();
  const bool interrupted = interrupt.interrupted();

  // Report the rows that got an answer; after an interrupt, that is fewer than all.
  AnsweredRows done = answered_rows(run, outcomes, ran, interrupted);
  if (certify_dir) write_certificate_index(*certify_dir, done.rows, done.outcomes);
  scope.positions = std::move(done.positions);
  if (interrupted) {
    scope.interruption = Interruption{interrupt.signal_name(), rows.size() - done.rows.size(), rows.size()};
  }

  const CorpusTotals totals = total(done.outcomes, ms_since(start));
  print(options.json ? format_corpus_json(options.corpus, done.rows, done.outcomes, totals, scope)
                     : format_corpus_text(done.rows, done.outcomes, totals, Style::for_stream(stdout), scope));
  if (interrupted) return interrupt.exit_status();
  return totals.mismatches == 0 ? kExitCorpusMatches : kExitCorpusMismatches;
}

}  // namespace ariadne::cli
