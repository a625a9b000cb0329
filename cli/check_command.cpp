// `ariadne check`: read, pair, check, report. Everything that can go wrong before the
// search (options, the file, the model's view of each op) is reported as a typed
// error and mapped to an exit status by run_guarded(); the search itself never throws
// for bad input, it answers unknown with a reason.
//
// One Limits object (include/ariadne/limits.hpp) is made as the command starts and
// spans every phase: reading, the verdict, the core and explanation, the proof and the
// HTML report. --timeout is the whole command's, --memory-limit bounds what the whole
// command takes (its resident size, watched by a LimitsWatch, plus a solver's child
// process), and Ctrl-C or SIGTERM stops whatever phase is running: the report printed
// then says which limit stopped which phase, and the exit status is 130 or 143.
#include "cli/check_command.hpp"

#include "answer/check_report.hpp"
#include "answer/core_proof.hpp"
#include "answer/edn_answer.hpp"
#include "answer/exit_status.hpp"
#include "answer/paragraph.hpp"
#include "answer/report_numbers.hpp"
#include "answer/terminal.hpp"
#include "answer/text_files.hpp"
#include "batch/key_shards.hpp"
#include "cli/header_model.hpp"
#include "cli/help_text.hpp"
#include "cli/html_output.hpp"
#include "cli/interrupt.hpp"
#include "cli/option_values.hpp"
#include "cli/output_path.hpp"
#include "cli/shared_options.hpp"
#include "follow/follow_check.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>

namespace ariadne::cli {

using batch::count_keys;
using batch::failing_key_first_op;
using batch::history_bytes;
using batch::key_shard_filter;
using batch::key_shard_options;
using batch::KeyMerge;
using batch::merge_key_shards;

using answer::CheckReport;
using answer::exit_status_for;
using answer::format_check_edn;
using answer::format_check_json;
using answer::format_check_text;
using answer::grouped;
using answer::is_terminal;
using answer::KeyShard;
using answer::ms_since;
using answer::parse_shard_spec;
using answer::print;
using answer::ShardSpec;
using answer::SideOutput;
using answer::Style;
using answer::warning_text;
using answer::write_core_proof;

namespace {

// --consistency, checked against --engine: an engine that knows only real time cannot
// decide the sequential conditions, and the program-order search decides only those.
Consistency choose_consistency_for(const std::string& name, Engine engine) {
  const Consistency consistency = choose_consistency(name);
  if (!engine_decides(engine, consistency)) {
    throw UsageError("--engine " + std::string(engine_name(engine)) + " does not decide --consistency " + name +
                     (keeps_real_time(consistency) ? " (it checks sequential consistency only)"
                                                   : " (choose auto, program-order, sat, smt or brute)"));
  }
  return consistency;
}

// A missing or unreadable file is bad input naming that file, whatever the reader
// would have said about it. A directory must be a Jepsen store folder, whose history
// file the reader then takes (history/store_folder.hpp).
void require_readable_file(const std::string& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error == std::errc::too_many_symbolic_link_levels) throw InputError(path, {}, "a symbolic link loop");
  if (error || !std::filesystem::exists(status)) throw InputError(path, {}, "no such file");
  if (std::filesystem::is_directory(status)) history_file_in(path);
}

// Progress of a long check on stderr: what phase, how long so far, which engines are
// running. On a terminal, one line rewritten in place from 2 s on and erased before
// the report; with --progress, plain lines from the start, one when the phase
// changes and one a second otherwise, for logs and for scripts that watch a check.
class ProgressLine {
 public:
  ProgressLine(const Limits& limits, bool on_terminal, bool plain)
      : limits_(limits), terminal_(on_terminal && !plain), plain_(plain) {}
  Limits::Clock::duration starts_after() const {
    return plain_ ? Limits::Clock::duration::zero() : std::chrono::seconds(2);
  }
  bool shown() const { return terminal_ || plain_; }

  // What --follow says instead of the phase: lines read, ops, the prefix's verdict.
  void set_status(std::string status) {
    std::lock_guard lock(mutex_);
    status_ = std::move(status);
  }

  void update() {
    const auto now = Limits::Clock::now();
    {
      std::unique_lock lock(mutex_);
      if (!status_.empty() && limits_.phase() == Phase::reading) {
        if (plain_ && now - last_line_ < std::chrono::seconds(1)) return;
        std::fprintf(stderr, "%sariadne: %s%s", terminal_ ? "\r\033[K" : "", status_.c_str(), plain_ ? "\n" : "");
        std::fflush(stderr);
        drawn_ = terminal_;
        last_line_ = now;
        return;
      }
    }
    const Phase phase = limits_.phase();
    if (plain_ && phase == last_phase_ && now - last_line_ < std::chrono::seconds(1)) return;
    const double seconds = std::chrono::duration<double>(now - limits_.started()).count();
    std::string engines;
    for (const Engine engine : limits_.running_engines()) {
      engines += (engines.empty() ? "" : ", ") + std::string(engine_name(engine));
    }
    char line[256];
    std::snprintf(line, sizeof line, "%sariadne: %.1f s, %s%s%s%s", terminal_ ? "\r\033[K" : "", seconds,
                  std::string(phase_name(phase)).c_str(), engines.empty() ? "" : " (running: ", engines.c_str(),
                  engines.empty() ? "" : ")");
    std::lock_guard lock(mutex_);
    std::fputs(line, stderr);
    if (plain_) std::fputc('\n', stderr);
    std::fflush(stderr);
    drawn_ = terminal_;
    last_phase_ = phase;
    last_line_ = now;
  }
  void erase() {
    std::lock_guard lock(mutex_);
    if (!drawn_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
  }

 private:
  const Limits& limits_;
  const bool terminal_;
  const bool plain_;
  std::mutex mutex_;
  bool drawn_ = false;
  Phase last_phase_ = Phase::done;
  Limits::Clock::time_point last_line_{};
  std::string status_;
};

// check --follow: reads FILE as it grows; the progress line shows what was read and
// what the prefix so far is, and a violation is said on stderr the moment it is found.
follow::FollowAnswer run_follow(const CheckCommandOptions& options, Format format, const Model& model,
                                const CheckOptions& check_options, ProgressLine& progress) {
  follow::FollowRequest request;
  request.path = options.file;
  request.format = format;
  request.settings.idle_seconds = options.idle;
  request.settings.pid = options.pid;
  request.fail_fast = options.fail_fast;
  request.on_progress = [&](const follow::FollowProgress& p) {
    progress.set_status("following " + options.file + ": " + grouped(p.lines) + " lines, " + grouped(p.ops) + " ops (" +
                        grouped(p.pending) + " pending, " + grouped(p.settled) + " settled, " + grouped(p.held) +
                        " held): " + std::string(follow::prefix_verdict_name(p.verdict)));
  };
  request.on_violation = [&](const CheckResult& result, const History& partition, std::uint64_t lines) {
    std::string which = "its " + grouped(partition.ops.size()) + " ops so far";
    if (!result.failing_key.empty())
      which = "key " + result.failing_key + "'s " + grouped(partition.ops.size()) + " ops so far";
    std::string where;
    if (result.failing_op) where = "; failing op " + std::to_string(*result.failing_op);
    std::string core;
    for (const std::uint32_t id : result.core) core += (core.empty() ? "" : ", ") + std::to_string(id);
    progress.erase();
    std::fprintf(stderr,
                 "ariadne: NOT LINEARIZABLE after %s lines of %s: %s cannot be linearized, whatever the pending "
                 "ones return%s; core: ops %s.%s\n",
                 grouped(lines).c_str(), options.file.c_str(), which.c_str(), where.c_str(), core.c_str(),
                 options.fail_fast ? "" : " Following on to the end (--fail-fast stops here).");
    // Then why, in one sentence, as the report at the end will open with it.
    if (!result.why.empty()) std::fputs(answer::fill_words(result.why, 100, "  ").c_str(), stderr);
    std::fflush(stderr);
  };
  follow::FollowAnswer answer;
  try {
    answer = follow::follow_check(request, model, check_options);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--pid: ") + error.what());
  } catch (const std::system_error& error) {
    throw InputError(options.file, {}, error.what());
  }
  progress.erase();
  std::fprintf(stderr, "ariadne: followed %s: %s\n", options.file.c_str(), answer.end_sentence.c_str());
  return answer;
}

}  // namespace

void add_check_options(CLI::App& check, CheckCommandOptions& options) {
  check.footer(check_help_footer);
  check
      .add_option("FILE", options.file,
                  "History file (Jepsen EDN or log, Porcupine kv log, JSON, Violin or LiMo log, fastlin history), "
                  "or a Jepsen store folder (its history.edn, else history.txt)")
      ->required();
  check.add_option("-m,--model", options.model,
                   "Model name or spec, e.g. cas-register or 'cas-register(0)' (default: the model the file's "
                   "header names, as Violin and LiMo logs and fastlin histories do)");
  check.add_option("--init", options.init, "Initial state as EDN (overrides the spec's), e.g. 0 or '{:x 0}'");
  check.add_flag("--independent", options.independent,
                 "Values are [key value] tuples (Jepsen's jepsen.independent): check each key as its own history "
                 "of the model, keys in parallel; the same as --model 'independent(MODEL)'");
  check
      .add_option("--consistency", options.consistency,
                  "The condition to check: linearizable (the default: one legal order that keeps real time), "
                  "sequential (Lamport's sequential consistency: one legal order that keeps each process's own "
                  "order, real time between processes ignored; a keyed history is checked whole, since it is not "
                  "local), or sequential-per-key (each key on its own: cheaper, weaker)")
      ->type_name("CONDITION");
  add_format_option(check, options.format);
  add_limit_options(check, options.limits, "");
  check
      .add_option("--jobs", options.jobs,
                  "Threads at once, for reading, deciding and the core; 1: no helper thread (default: the CPUs the "
                  "process may run on)")
      ->type_name("N");
  CLI::Option* check_json = check.add_flag("--json", options.json, "Print one JSON object instead of the human report");
  check
      .add_flag("--edn", options.edn,
                "Print one EDN map in the shape a Jepsen checker returns (:valid?, :core, :failing-op, ...)")
      ->excludes(check_json);
  check.add_flag("--progress", options.progress,
                 "Print progress lines (phase, elapsed time, engines running) on stderr from the start, "
                 "also when it is not a terminal (on a terminal, a progress line shows after 2 s anyway)");
  check.add_flag("--full", options.full, "Print every table row (by default the first 40)");
  check.add_flag("--explain", options.explain,
                 "Not linearizable: say in words which ops conflict, the real-time facts binding them, and why "
                 "no order works");
  check.add_flag("--no-core", options.no_core,
                 "Not linearizable: report the failing partition instead of shrinking it to a minimal core (a keyed "
                 "history's check then returns with its first refuted key, not waiting for the keys before it)");
  check
      .add_option("--core-budget", options.core_budget,
                  "Not linearizable: how long shrinking the core may take before a core not yet minimal is "
                  "reported (default: 2 s plus ten times the verdict's time; --timeout still bounds it)")
      ->type_name("SECONDS")
      ->check(at_least(0, "zero or more"));
  check.add_flag("--prefix", options.prefix,
                 "Not linearizable: print the longest linearizable prefix and its order (Knossos, Porcupine)");
  check.add_option("--html", options.html, "Write a self-contained HTML report of the history to FILE")
      ->type_name("FILE");
  check
      .add_option("--shard", options.shard,
                  "Check only the keys (kv, --independent) whose hash is I mod N, ops as recorded; with --json "
                  "the report 'check FILE --merge' joins (docs/batch-systems.md)")
      ->type_name("I/N");
  check
      .add_option("--merge", options.merge,
                  "Join the --json reports of all N key shards of FILE into one answer, as one unsharded check "
                  "would give, its witness certified on the whole history")
      ->type_name("REPORT.json...")
      ->expected(1, -1);
  check
      .add_option("--proof", options.proof,
                  "Not linearizable: write the core's CNF and a DRAT proof into DIR (check with verify-proof)")
      ->type_name("DIR");
  CLI::Option* follow =
      check.add_flag("--follow", options.follow,
                     "Check FILE while a test still writes it (one event a line: EDN op maps, jepsen.log, "
                     "Porcupine kv, JSON lines; '-' reads standard input): the prefix so far is checked as it "
                     "grows, a violation is reported as soon as its lines are written, and when the writer is "
                     "done (--idle, --pid, a Jepsen 'Run complete' line, the end of a pipe, Ctrl-C) the whole "
                     "history gets the answer 'check' would give");
  check
      .add_option("--idle", options.idle,
                  "With --follow: the writer is done when FILE has not grown for this long (default: never for "
                  "a file, so give --idle or --pid; a pipe ends when it is closed)")
      ->type_name("SECONDS")
      ->check(at_least(0, "zero or more"))
      ->needs(follow);
  check.add_option("--pid", options.pid, "With --follow: the writer is done when process PID has exited")
      ->type_name("PID")
      ->needs(follow);
  check
      .add_flag("--fail-fast", options.fail_fast,
                "With --follow: stop at the first violation and answer with it at once (exit 1), not at the end")
      ->needs(follow);
}

int run_check_command(const CheckCommandOptions& options) {
  // Options first, so a typo fails fast before a large file is read.
  CheckOptions check_options = make_check_options(options.limits, options.jobs);
  // The report shows the model state along the linearizable prefix of a violation,
  // so --html asks for the prefix even when the answer does not print it (the
  // result's copy is dropped once the report is written).
  check_options.prefix = options.prefix || options.html.has_value();
  check_options.minimal_core = !options.no_core;
  check_options.core_seconds = options.core_budget;
  check_options.consistency = choose_consistency_for(options.consistency, check_options.engine);
  const Format format = choose_format(options.format);
  // The model the file's header names: the model to check without --model, else a
  // warning when it differs. A header that cannot be read is the reading's to report.
  std::optional<std::string> file_model;
  if (options.follow && options.model.empty()) {
    throw UsageError("--follow needs --model: a file still being written is not looked at before it is read");
  }
  if (!options.follow) {
    if (options.model.empty()) {
      require_readable_file(options.file);
      file_model = header_model(options.file, format);
    } else {
      try {
        file_model = header_model(options.file, format);
      } catch (const InputError&) {
        file_model.reset();
      }
    }
  }
  std::unique_ptr<Model> model = choose_model(model_spec_for(options.model, file_model, options.file), options.init);
  const std::optional<ReadWarning> model_warning = header_model_warning(options.model, model->spec(), file_model);
  if (options.independent) {
    if (independent_inner_model(*model)) {
      throw UsageError("--independent: the model " + model->spec() + " is independent already");
    }
    model = make_independent_model(std::move(model));
  }

  const std::optional<ShardSpec> shard =
      options.shard ? std::optional<ShardSpec>(parse_shard_spec(*options.shard)) : std::nullopt;
  if (shard && !options.merge.empty()) throw UsageError("--shard and --merge: a run either checks a shard or merges");
  if ((shard || !options.merge.empty()) && !model->is_partitioned()) {
    throw UsageError(std::string(shard ? "--shard" : "--merge") + ": the model " + model->spec() +
                     " has no keys to split by (kv and --independent have)");
  }
  if ((shard || !options.merge.empty()) && check_options.consistency == Consistency::sequential) {
    throw UsageError(std::string(shard ? "--shard" : "--merge") +
                     ": sequential consistency is not local, so a history cannot be checked key by key; use "
                     "--consistency sequential-per-key, or check it whole");
  }
  if (!options.merge.empty() && (options.proof || options.html || options.prefix)) {
    throw UsageError(
        "--merge: --proof, --html and --prefix need the check itself; run them on the failing key's shard");
  }
  if (options.follow && (shard || !options.merge.empty())) {
    throw UsageError("--follow checks one history as it is written: --shard and --merge work on finished files");
  }
  // An output that cannot be written is a usage error before any work, not a
  // surprise after the check (when it could no longer change the verdict's status).
  if (options.html) require_writable_file("--html", *options.html);
  if (options.proof) require_writable_folder("--proof", *options.proof);

  const InterruptScope interrupt;
  const Limits limits({.timeout_seconds = check_options.timeout_seconds,
                       .memory_limit = check_options.memory_limit,
                       .cancel = &interrupt.flag(),
                       .jobs = options.jobs});
  check_options.limits = &limits;
  ProgressLine progress(limits, is_terminal(stderr), options.progress);
  std::optional<LimitsWatch> watch;
  std::function<void()> show_progress;
  if (progress.shown()) show_progress = [&progress] { progress.update(); };
  watch.emplace(limits, show_progress, progress.starts_after());

  const auto start = limits.started();
  limits.enter(Phase::reading);
  if (!(options.follow && options.file == "-")) require_readable_file(options.file);
  History history;
  CheckResult result;
  double read_ms = 0;
  std::optional<KeyShard> key_shard;
  std::vector<std::string> report_merged;
  double merged_longest_ms = 0;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> passed_ops;
  try {
    // A key shard holds only its own keys' operations (ids and times stay the file's).
    if (options.follow) {
      follow::FollowAnswer followed = run_follow(options, format, *model, check_options, progress);
      history = std::move(followed.history);
      result = std::move(followed.result);
      if (followed.passed_ops) passed_ops = std::pair{followed.passed_ops->ops, followed.passed_ops->crashed};
    } else if (shard) {
      const ShardSpec spec = shard.value_or(ShardSpec{});
      history = read_history(options.file, *model, format, limits, key_shard_filter(*model, spec));
    } else {
      history = read_history(options.file, *model, format, limits);
    }
    read_ms = ms_since(start);
    if (model_warning) history.warnings.insert(history.warnings.begin(), *model_warning);
    for (const ReadWarning& warning : history.warnings) {
      progress.erase();
      std::fprintf(stderr, "ariadne: warning: %s\n", warning_text(history.source, warning).c_str());
    }
    if (!options.merge.empty()) {
      KeyMerge merged =
          merge_key_shards(options.merge, history, *model, key_shard_options(*model, check_options), limits);
      result = std::move(merged.result);
      report_merged = std::move(merged.reports);
      merged_longest_ms = merged.longest_ms;
    } else if (options.follow) {
      // Checked as it was read.
    } else if (shard) {
      KeyShard facts;
      facts.spec = *shard;
      facts.history_events = history.event_count;
      facts.history_bytes = history_bytes(history);
      facts.keys = count_keys(history, *model);
      facts.options = key_shard_options(*model, check_options);
      result = check(history, *model, check_options);
      facts.failing_key_first_op = failing_key_first_op(history, *model, result);
      key_shard = std::move(facts);
    } else {
      result = check(history, *model, check_options);
    }
  } catch (const LimitReached& stopped) {
    // Reading was cut short: nothing to check, and the answer is unknown.
    read_ms = ms_since(start);
    result.verdict = Verdict::unknown;
    result.reason = stopped.what();
    result.limit = stopped.limit();
    result.limit_phase = Phase::reading;
  }
  CheckReport report;
  report.file = options.file;
  report.model_spec = model->spec();
  report.history = &history;
  report.result = &result;
  report.limits = &limits;
  report.read_ms = read_ms;
  report.explain = options.explain;
  report.prefix = options.prefix;
  report.core_shrunk = !options.no_core;
  report.model_is_keyed = model->is_partitioned();
  report.key_shard = std::move(key_shard);
  report.merged_reports = std::move(report_merged);
  report.merged_longest_ms = merged_longest_ms;
  report.passed_ops = passed_ops;
  // The side outputs, inside the same limits (the watch still runs). Neither throws:
  // one cut short or refused is a warning and its own field of the answer, and the
  // verdict's exit status stands.
  if (options.proof) report.proof = write_core_proof(*options.proof, history, *model, result, limits);
  if (options.html) report.html = write_html_output(*options.html, history, *model, result, options.file, limits);
  if (!options.prefix) result.prefix_linearization.clear();
  report.total_ms = ms_since(start);
  watch.reset();
  progress.erase();
  for (const std::optional<SideOutput>* output : {&report.proof, &report.html}) {
    if (*output && (*output)->failed()) std::fprintf(stderr, "ariadne: warning: %s\n", (*output)->summary.c_str());
  }
  if (report.html) {
    if (const std::string note = report_written_note(*report.html); !note.empty()) {
      std::fprintf(stderr, "ariadne: %s\n", note.c_str());
    }
  }
  const std::string text = options.json  ? format_check_json(report)
                           : options.edn ? format_check_edn(report)
                                         : format_check_text(report, Style::for_stream(stdout), options.full);
  print(text);

  if (interrupt.interrupted()) return interrupt.exit_status();
  return exit_status_for(result.verdict);
}

}  // namespace ariadne::cli
