// `ariadne cross-check`: the rows of every corpus, N at a time (one engine run after
// another within a row, each run single-threaded, so N rows use N cores), then one
// judgement per row. A run that throws is recorded, never allowed to stop the others:
// an exception out of an engine is exactly what a referee must report.
#include "cli/cross_check_command.hpp"

#include "answer/exit_status.hpp"
#include "answer/report_numbers.hpp"
#include "answer/terminal.hpp"
#include "answer/text_files.hpp"
#include "batch/reading_difference.hpp"
#include "batch/row_certificate.hpp"
#include "batch/row_check.hpp"
#include "batch/row_pool.hpp"
#include "cli/cross_check_report.hpp"
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
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

namespace ariadne::cli {

using batch::certify_row;
using batch::combined_verdict;
using batch::CorpusRow;
using batch::find_reading_difference;
using batch::ImportedResult;
using batch::ImportedVerdicts;
using batch::read_corpus_rows;
using batch::read_imported_verdicts;
using batch::RowCertificate;
using batch::RowCheck;

using answer::current_failure;
using answer::is_terminal;
using answer::kExitCorpusMatches;
using answer::kExitCorpusMismatches;
using answer::ms_since;
using answer::print;
using answer::ReportClock;
using answer::Style;

namespace fs = std::filesystem;

namespace {

using Clock = ReportClock;

// The brute-force oracle enumerates orders, so it only takes partitions of at most
// kBruteForceMaxOps ops; on larger ones it has nothing to say, which is not "unknown".
bool brute_force_applies(const History& history, const Model& model) {
  std::map<Value, std::size_t> sizes;
  for (const Operation& op : history.ops) {
    const std::size_t size = ++sizes[model.is_partitioned() ? model.partition_key(op) : Value()];
    if (size > kBruteForceMaxOps) return false;
  }
  return true;
}

EngineRun run_engine(Engine engine, const History& history, const Model& model, const CheckOptions& base) {
  EngineRun run;
  run.engine = engine;
  if (engine == Engine::brute && !brute_force_applies(history, model)) {
    run.applicable = false;
    return run;
  }
  CheckOptions options = base;
  options.engine = engine;
  const auto start = Clock::now();
  try {
    const RowCheck run_check(options);
    const CheckResult result = check(history, model, run_check.options);
    run.verdict = result.verdict;
    run.reason = result.reason;
    if (result.verdict == Verdict::linearizable) {
      // check() replayed it already; the referee replays it again on its own account,
      // so a witness that does not hold is reported here whatever check() did.
      const auto problem = verify_linearization(history, model, result.linearization);
      run.witness_replayed = !problem;
      if (problem) run.error = "its witness does not replay: " + *problem;
    }
  } catch (const std::exception& error) {
    run.verdict.reset();
    run.error = error.what();
  } catch (...) {
    run.verdict.reset();
    run.error = "unknown exception";
  }
  run.ms = ms_since(start);
  return run;
}

// A refuted row's certificate goes to a scratch folder: written, verified from the
// files, then removed (`ariadne corpus --certify DIR` keeps them).
RefutationCheck certify_refutation(const CorpusRow& row, const CheckOptions& base, const fs::path& scratch,
                                   std::size_t index) {
  RefutationCheck refutation;
  refutation.attempted = true;
  CheckOptions options = base;
  options.engine = Engine::automatic;
  options.minimal_core = true;
  // Half the run's time for the core, so that the proof has the other half.
  options.core_seconds = std::min(5.0, options.timeout_seconds > 0 ? options.timeout_seconds / 2 : 5.0);
  // Some engine has already refuted this file within the per-run limit; the
  // certifying run (check, core, proof and its verification) gets that limit too, so
  // that no part of a cross-check outlives --timeout. A certificate the limit cut
  // short is reported as not certified in time, which is no disagreement.
  const fs::path stem = scratch / ("row-" + std::to_string(index));
  const auto start = Clock::now();
  const RowCertificate certificate = certify_row(row, options, stem);
  refutation.ms = ms_since(start);
  refutation.core_size = certificate.core_size;
  refutation.core_minimal = certificate.core_minimal;
  if (certificate.verdict != Verdict::not_linearizable) {
    refutation.problem = certificate.verdict
                             ? "the certifying check answered " + std::string(verdict_name(*certificate.verdict)) +
                                   (certificate.problem.empty() ? "" : ": " + certificate.problem)
                             : certificate.problem;
  } else if (!certificate.certified) {
    refutation.problem = certificate.problem;
  }
  refutation.stopped_by_limit = certificate.stopped_by != Limit::none;
  refutation.proof_beyond_encoder = certificate.proof_beyond_encoder;
  refutation.certified = refutation.problem.empty();
  std::error_code ignored;
  fs::remove_all(fs::path(stem.string() + ".proof"), ignored);
  fs::remove(fs::path(stem.string() + ".json"), ignored);
  return refutation;
}

void cross_check_row(CrossCheckRow& row, const std::vector<Engine>& engines, const CheckOptions& base, bool proofs,
                     const fs::path& scratch, std::size_t index) {
  if (!row.row.error.empty()) {
    row.error = row.row.error;
    return;
  }
  try {
    const auto model = make_model_from_spec(row.row.model);
    const History history = read_history(row.row.path.string(), *model);
    for (const Engine engine : engines) row.runs.push_back(run_engine(engine, history, *model, base));
    // The other checker contradicts an engine: look for the difference in reading now,
    // while the history is at hand (judge_row words the problem).
    for (const EngineRun& run : row.runs) {
      if (!run.verdict || *run.verdict == Verdict::unknown) continue;
      const bool contradicted = std::ranges::any_of(row.imported_results, [&](const ImportedResult& theirs) {
        return theirs.verdict != Verdict::unknown && theirs.verdict != *run.verdict;
      });
      if (!contradicted) continue;
      CheckOptions options = base;
      options.engine = Engine::automatic;
      row.reading_difference = find_reading_difference(history, *model, *run.verdict, options);
      break;
    }
  } catch (...) {
    row.error = current_failure().message;
    return;
  }
  const bool refuted = std::any_of(row.runs.begin(), row.runs.end(),
                                   [](const EngineRun& run) { return run.verdict == Verdict::not_linearizable; });
  if (proofs && refuted) row.refutation = certify_refutation(row.row, base, scratch, index);
}

fs::path make_scratch_folder() {
  std::ostringstream name;
  name << "ariadne-cross-check-" << std::hex << Clock::now().time_since_epoch().count();
  fs::path folder = fs::temp_directory_path() / name.str();
  fs::create_directories(folder);
  return folder;
}

// Parses "wgl,jit,..." into engines, in order and without repeats. Throws UsageError.
std::vector<Engine> parse_engine_list(const std::string& list) {
  std::vector<Engine> engines;
  std::istringstream words(list);
  std::string word;
  while (std::getline(words, word, ',')) {
    const auto engine = parse_engine(word);
    if (!engine) {
      throw UsageError("--engines: unknown engine '" + word + "'; expected a comma-separated list of " +
                       engine_names_listed());
    }
    if (std::find(engines.begin(), engines.end(), *engine) == engines.end()) engines.push_back(*engine);
  }
  if (engines.empty()) throw UsageError("--engines: name at least one engine");
  return engines;
}

// What ariadne's answer rests on, for a disagreement: the certificate that was replayed.
std::string evidence(const CrossCheckRow& row) {
  if (*row.agreed == Verdict::linearizable) return " (its witness replays)";
  if (row.refutation.certified) {
    return " (a " + std::string(row.refutation.core_minimal ? "minimal " : "") + "core of " +
           std::to_string(row.refutation.core_size) + (row.refutation.core_size == 1 ? " op" : " ops") +
           ", DRAT proof verified)";
  }
  return "";
}

// A problem for each result of the imported checker that contradicts ariadne's
// certified answer (else the expected verdict), or that is an exception it threw, each
// with what is known of why: the model it ran, its own cause, and ariadne's certificate.
void judge_imported(CrossCheckRow& row, const ImportedVerdicts* imported, const ImportedResult& theirs) {
  const std::string who = imported->label(theirs);
  std::string ran = theirs.model.empty() ? "" : "; it ran the model " + theirs.model;
  if (!row.reading_difference.empty()) ran += "; " + row.reading_difference;
  if (!theirs.error.empty()) {
    std::string ours;
    if (row.agreed) ours = ", where ariadne's engines (certified) say " + std::string(verdict_name(*row.agreed));
    row.problems.push_back(who + " threw " + theirs.error + ours + ran);
    return;
  }
  if (theirs.verdict == Verdict::unknown) return;
  const std::string says = who + " says " + std::string(verdict_name(theirs.verdict));
  if (row.agreed && *row.agreed != theirs.verdict) {
    row.problems.push_back(says + ", ariadne's engines (certified) say " + std::string(verdict_name(*row.agreed)) +
                           evidence(row) + ran);
  } else if (row.row.expected && *row.row.expected != Verdict::unknown && *row.row.expected != theirs.verdict) {
    row.problems.push_back(says + ", expected " + std::string(verdict_name(*row.row.expected)) + ran);
  }
}

// Fills in `problems` and `agreed` from the runs, the expected verdict, the
// refutation's certificate and the imported results.
void judge_row(CrossCheckRow& row, const ImportedVerdicts* imported) {
  row.problems.clear();
  row.agreed.reset();
  if (!row.error.empty()) {
    row.problems.push_back("cannot be checked: " + row.error);
    return;
  }
  std::vector<std::string> said[2];  // engines that said linearizable, not linearizable
  for (const EngineRun& run : row.runs) {
    const std::string name(engine_name(run.engine));
    if (!run.error.empty()) row.problems.push_back(name + " failed: " + run.error);
    if (!run.verdict || *run.verdict == Verdict::unknown) continue;
    said[*run.verdict == Verdict::linearizable ? 0 : 1].push_back(name);
    if (row.row.expected && *row.row.expected != Verdict::unknown && *run.verdict != *row.row.expected) {
      row.problems.push_back(name + " says " + std::string(verdict_name(*run.verdict)) + ", expected " +
                             std::string(verdict_name(*row.row.expected)));
    }
  }
  const auto join = [](const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
  };
  if (!said[0].empty() && !said[1].empty()) {
    row.problems.push_back("engines disagree: " + join(said[0]) + " say linearizable, " + join(said[1]) +
                           " say not-linearizable");
  } else if (!said[0].empty()) {
    row.agreed = Verdict::linearizable;
  } else if (!said[1].empty()) {
    row.agreed = Verdict::not_linearizable;
  }
  if (row.refutation.attempted && !row.refutation.certified && !row.refutation.stopped_by_limit &&
      !row.refutation.proof_beyond_encoder) {
    row.problems.push_back("the refutation's certificate does not replay: " + row.refutation.problem);
  }
  for (const ImportedResult& theirs : row.imported_results) judge_imported(row, imported, theirs);
}
}  // namespace

void add_cross_check_options(CLI::App& cross, CrossCheckOptions& options) {
  cross.footer(cross_check_help_footer);
  cross.add_option("CORPUS", options.corpora, "expected.tsv files or directories (folders of families are read whole)")
      ->required();
  cross.add_option("--engines", options.engines, "Comma-separated engines to run on every file")
      ->type_name("LIST")
      ->capture_default_str();
  cross.add_option("--timeout", options.timeout_seconds, "Seconds each engine may take on each file")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(at_least(0, "zero or more"));
  cross
      .add_option("--memory-limit", options.memory_limit,
                  "Search memory per engine and file (default " + default_memory_limit_text() + ")")
      ->type_name("BYTES");
  cross.add_option("-j,--jobs", options.jobs, "Files checked at once (default: the CPUs the process may run on)")
      ->type_name("N")
      ->check(at_least(1, "at least 1"));
  cross.add_flag("!--no-proofs", options.proofs,
                 "Skip certifying refutations (minimal core and DRAT proof); witnesses are still replayed");
  // --import takes two words, the checker and its results, which CLI11 hands over as one list.
  cross
      .add_option_function<std::vector<std::string>>(
          "--import",
          [&options](const std::vector<std::string>& words) {
            if (words.size() != 2) return;
            options.import_checker = words[0];
            options.import_results = words[1];
          },
          "Compare another checker's verdicts too: knossos (result maps) or porcupine "
          "(file<TAB>true|false|unknown)")
      ->expected(2)
      ->type_name("CHECKER RESULTS");
  cross.add_flag("--json", options.json, "Print one JSON object with every row, run and total");
}

int run_cross_check_command(const CrossCheckOptions& options) {
  // Options first, so a typo fails before any file is read.
  const std::vector<Engine> engines = parse_engine_list(options.engines);
  SearchLimits limits;
  limits.timeout_seconds = options.timeout_seconds;
  limits.memory_limit = options.memory_limit;
  if (options.corpora.empty())
    throw UsageError("cross-check needs at least one corpus (an expected.tsv or a directory)");

  const auto start = Clock::now();
  CrossCheckResult result;
  result.engines = engines;
  if (options.import_checker)
    result.imported = read_imported_verdicts(*options.import_checker, *options.import_results);
  for (std::size_t c = 0; c < options.corpora.size(); ++c) {
    for (CorpusRow& row : read_corpus_rows(options.corpora[c])) {
      CrossCheckRow cross;
      cross.corpus = c;
      cross.row = std::move(row);
      if (result.imported) {
        cross.imported_results = result.imported->find(cross.row);
        if (!cross.imported_results.empty()) cross.imported = combined_verdict(cross.imported_results);
        cross.imported_missing = !cross.imported;
      }
      result.rows.push_back(std::move(cross));
    }
  }

  unsigned jobs = options.jobs != 0 ? options.jobs : available_cpus();
  jobs = static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(jobs, result.rows.size())));
  CheckOptions base = make_check_options(limits, 1);
  // Engines are compared on verdicts; the refutation's certificate shrinks a core once
  // per refuted file instead of once per engine.
  base.minimal_core = false;
  const fs::path scratch = make_scratch_folder();

  // Ctrl-C or SIGTERM cancels the running checks (every phase of them polls the flag)
  // and skips the rows not started; the report of the rows done is printed, exit 130
  // or 143.
  const InterruptScope interrupt;
  base.cancel = &interrupt.flag();
  // --memory-limit bounds the whole process, however many rows run at once: one
  // watch measures it, and every row's limits answer to it (each row keeps its own
  // --timeout).
  const Limits command_limits({.memory_limit = base.memory_limit, .cancel = &interrupt.flag(), .jobs = options.jobs});
  const LimitsWatch watch(command_limits);
  base.limits = &command_limits;
  ProgressBar progress(stderr, result.rows.size(), is_terminal(stderr));
  batch::for_each_row(result.rows.size(), jobs, [&](std::size_t i) {
    CrossCheckRow& row = result.rows[i];
    if (interrupt.interrupted()) {
      row.error = std::string("not checked: interrupted by ") + interrupt.signal_name();
      return;
    }
    progress.started(row.row.name);
    cross_check_row(row, engines, base, options.proofs, scratch, i);
    judge_row(row, result.imported ? &*result.imported : nullptr);
    progress.finished(row.row.name, row.problems.empty());
  });
  progress.erase();
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  result.wall_ms = ms_since(start);

  const std::string text = options.json ? format_cross_check_json(options, result)
                                        : format_cross_check_text(options, result, Style::for_stream(stdout));
  print(text);
  const bool clean = std::all_of(result.rows.begin(), result.rows.end(),
                                 [](const CrossCheckRow& row) { return row.problems.empty(); });
  if (interrupt.interrupted()) return interrupt.exit_status();
  return clean ? kExitCorpusMatches : kExitCorpusMismatches;
}

}  // namespace ariadne::cli
