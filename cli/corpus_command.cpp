// `ariadne corpus`: rows are independent, so N worker threads (portfolio/parallel.hpp)
// take the next unchecked row until none is left, and each check runs single-threaded (CheckOptions.jobs = 1)
// so N files at a time use N cores rather than N times all of them. Each row's
// outcome goes to its own slot, so the report is in corpus order whatever order the
// workers finish in. Every failure of a row, whatever its type, is caught in the
// worker and recorded as an error row: one bad file never stops the run.
#include "cli/corpus_command.hpp"

#include "cli/corpus_report.hpp"
#include "cli/corpus_rows.hpp"
#include "cli/exit_status.hpp"
#include "cli/option_values.hpp"
#include "cli/progress_bar.hpp"
#include "cli/report_numbers.hpp"
#include "cli/row_certificate.hpp"
#include "cli/terminal.hpp"
#include "portfolio/parallel.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

namespace ariadne::cli {

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
    const EventLog log = read_events(row.path.string(), Format::auto_detect);
    const History history = build_history(log, *model);
    const CheckResult result = check(history, *model, options);
    outcome.verdict = result.verdict;
    outcome.engine = result.engine;
    outcome.elapsed_ms = result.elapsed_ms;
    if (result.verdict == Verdict::unknown) outcome.reason = result.reason;
    outcome.ok = row.expected && result.verdict == *row.expected;
    return outcome;
  } catch (const InputError& error) {
    outcome.error = error.what();
  } catch (const UsageError& error) {
    outcome.error = error.what();
  } catch (const InternalError& error) {
    outcome.error = std::string("internal error: ") + error.what();
  } catch (const std::exception& error) {
    outcome.error = std::string("internal error: ") + error.what();
  } catch (...) {
    outcome.error = "internal error: unknown exception";
  }
  outcome.elapsed_ms = ms_since(start);
  return outcome;
}

// The certificate's files are named after the row, under the output folder, so
// that DIR mirrors the corpus: `jepsen/etcd_000.log` certifies into
// DIR/jepsen/etcd_000.log.json and DIR/jepsen/etcd_000.log.proof/.
CorpusOutcome certify_corpus_row(const CorpusRow& row, const CheckOptions& options, const fs::path& dir) {
  const RowCertificate certificate = certify_row(row, options, path_below(dir, row.name));
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
    out << rows[i].name << '\t' << rows[i].model << '\t'
        << (rows[i].expected ? verdict_name(*rows[i].expected) : "-") << '\t'
        << (outcome.verdict ? verdict_name(*outcome.verdict) : "error") << '\t'
        << (outcome.certificate.certified ? "yes" : "no") << '\t'
        << (outcome.certificate.answer.empty() ? "-" : outcome.certificate.answer) << '\t'
        << (outcome.certificate.proof.empty() ? "-" : outcome.certificate.proof) << '\n';
  }
  if (!out) throw UsageError("--certify: cannot write " + (dir / "certificates.tsv").string());
}

}  // namespace

int run_corpus_command(const CorpusCommandOptions& options) {
  // Parse the limits before reading the corpus, so a typo fails fast.
  make_check_options(options.limits, 0);
  const auto start = Clock::now();
  const std::vector<CorpusRow> rows = read_corpus_rows(options.corpus);

  unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, rows.size()));
  CheckOptions check_options = make_check_options(options.limits, jobs > 1 ? 1 : 0);
  // A corpus run compares verdicts; shrinking every refuted row to a minimal core
  // would only cost time (`check` on a row gives it).
  check_options.minimal_core = false;

  std::optional<fs::path> certify_dir;
  if (options.certify_dir) {
    certify_dir = fs::path(*options.certify_dir);
    std::error_code error;
    fs::create_directories(*certify_dir, error);
    if (error) throw UsageError("--certify: cannot create " + certify_dir->string() + ": " + error.message());
    // A certificate is the minimal core, not the whole failing partition.
    check_options.minimal_core = true;
  }

  std::vector<CorpusOutcome> outcomes(rows.size());
  ProgressBar progress(stderr, rows.size(), is_terminal(stderr));
  portfolio::for_each_index(rows.size(), jobs, [&](std::size_t i) {
    progress.started(rows[i].name);
    outcomes[i] = certify_dir ? certify_corpus_row(rows[i], check_options, *certify_dir)
                              : check_row(rows[i], check_options);
    progress.finished(rows[i].name, outcomes[i].ok);
  });
  progress.erase();
  if (certify_dir) write_certificate_index(*certify_dir, rows, outcomes);

  const CorpusTotals totals = total(outcomes, ms_since(start));
  const std::string text = options.json ? format_corpus_json(options.corpus, rows, outcomes, totals)
                                        : format_corpus_text(rows, outcomes, totals, Style::for_stream(stdout));
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  return totals.mismatches == 0 ? kExitCorpusMatches : kExitCorpusMismatches;
}

}  // namespace ariadne::cli
