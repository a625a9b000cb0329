#include "cli/explore_command.hpp"

#include "answer/check_report.hpp"
#include "answer/exit_status.hpp"
#include "answer/terminal.hpp"
#include "answer/text_files.hpp"
#include "cli/byte_size.hpp"
#include "cli/explore_report.hpp"
#include "cli/help_text.hpp"
#include "cli/interrupt.hpp"
#include "cli/shared_options.hpp"
#include "explore/explorer.hpp"
#include "report/html_report.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>

namespace ariadne::cli {

using answer::exit_status_for;
using answer::is_terminal;
using answer::kExitLinearizable;
using answer::kExitNotLinearizable;
using answer::kExitUnknown;
using answer::print;
using answer::Style;
using answer::write_text_file;

namespace {

std::vector<systems::DesignParameter> parse_params(const std::vector<std::string>& texts) {
  std::vector<systems::DesignParameter> params;
  for (const std::string& text : texts) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
      throw UsageError("--param: expected NAME=VALUE, got '" + text + "'");
    params.push_back({text.substr(0, equals), text.substr(equals + 1)});
  }
  return params;
}

// --replay's steps: "a; b; c", or @FILE with one step per line (blank lines and
// lines starting with # are skipped).
std::vector<std::string> replay_steps(const std::string& text) {
  std::vector<std::string> steps;
  const auto keep = [&steps](std::string step) {
    const auto first = step.find_first_not_of(" \t\r");
    const auto last = step.find_last_not_of(" \t\r");
    if (first == std::string::npos || step[first] == '#') return;
    steps.push_back(step.substr(first, last - first + 1));
  };
  if (text.starts_with("@")) {
    std::ifstream in(text.substr(1));
    if (!in) throw UsageError("--replay: cannot read " + text.substr(1));
    for (std::string line; std::getline(in, line);) keep(line);
  } else {
    std::size_t start = 0;
    for (std::size_t semicolon; (semicolon = text.find(';', start)) != std::string::npos; start = semicolon + 1)
      keep(text.substr(start, semicolon - start));
    keep(text.substr(start));
  }
  if (steps.empty()) throw UsageError("--replay: no steps given");
  return steps;
}

// A one-line progress display on stderr while a long search runs, when stderr is a
// terminal: redrawn at most five times a second, erased before the report.
class ExploreProgressLine {
 public:
  explicit ExploreProgressLine(std::uint64_t trajectories) : total_(trajectories), enabled_(is_terminal(stderr)) {}
  ~ExploreProgressLine() { erase(); }
  explore::ProgressCallback callback() {
    if (!enabled_) return {};
    return [this](const explore::ExploreProgress& progress) { draw(progress); };
  }
  void erase() {
    const std::lock_guard lock(mutex_);
    if (drawn_) std::fputs("\r\033[K", stderr);
    drawn_ = false;
  }

 private:
  void draw(const explore::ExploreProgress& progress) {
    const std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    drawn_ = true;
    if (progress.states > 0)
      std::fprintf(stderr, "\r\033[K  exhaustive search: %llu distinct states so far",
                   static_cast<unsigned long long>(progress.states));
    else
      std::fprintf(stderr, "\r\033[K  %llu of %llu trajectories, %llu failing",
                   static_cast<unsigned long long>(progress.trajectories), static_cast<unsigned long long>(total_),
                   static_cast<unsigned long long>(progress.counterexamples));
    std::fflush(stderr);
  }
  std::uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_{};
};

// The command that reproduces this run, for the EDN file's header.
std::string command_line(const ExploreCommandOptions& options) {
  std::string line = "ariadne explore " + options.design;
  for (const std::string& param : options.params) line += " --param " + param;
  if (options.exhaustive)
    line += " --exhaustive --depth " + std::to_string(options.depth);
  else
    line += " --depth " + std::to_string(options.depth) + " --trajectories " + std::to_string(options.trajectories) +
            " --seed " + std::to_string(options.seed);
  return line;
}

// Re-checks a counterexample's history with the full checker, which also finds the
// minimal core, the explanation and the longest linearizable prefix. The online
// checker and check() must agree; if they do not, that is a bug, not a verdict.
CheckResult certify(const History& history, const Model& model, bool refuted_online) {
  CheckOptions options;
  options.prefix = true;
  options.jobs = 1;
  CheckResult result = check(history, model, options);
  const Verdict online = refuted_online ? Verdict::not_linearizable : Verdict::linearizable;
  if (result.verdict != online)
    throw InternalError("explore: the online checker says " + std::string(verdict_name(online)) +
                        " of a trajectory that check() calls " + std::string(verdict_name(result.verdict)));
  return result;
}

}  // namespace

void add_explore_options(CLI::App& explore, ExploreCommandOptions& options) {
  explore.footer(explore_help_footer);
  explore.add_option("DESIGN", options.design, "The design to explore (--list shows them), e.g. redis-wait");
  explore.add_flag("--list", options.list, "List the designs and their parameters");
  explore.add_option("--depth", options.depth, "Steps per trajectory, or the exhaustive search's bound")
      ->type_name("N")
      ->capture_default_str()
      ->check(at_least(1, "at least 1"));
  explore.add_option("--trajectories", options.trajectories, "Random trajectories to walk in all")
      ->type_name("K")
      ->capture_default_str()
      ->check(whole_number());
  explore.add_option("--seed", options.seed, "Random seed; trajectory i is the same whatever --jobs is")
      ->type_name("S")
      ->capture_default_str()
      ->check(whole_number());
  explore
      .add_option("-j,--jobs", options.jobs, "Threads walking trajectories (default: the CPUs the process may run on)")
      ->type_name("J")
      ->check(at_least(1, "at least 1"));
  explore.add_flag("--exhaustive", options.exhaustive,
                   "Search every trajectory of up to --depth steps (depth-first, states visited once)");
  explore.add_option("--timeout", options.timeout_seconds, "Stop searching after this many seconds")
      ->type_name("SECONDS")
      ->check(at_least(0, "zero or more"));
  explore.add_option("--memory-limit", options.memory_limit, "Memory for the exhaustive search's visited set")
      ->type_name("BYTES")
      ->capture_default_str();
  explore.add_option("--shrink-seconds", options.shrink_seconds, "Time to spend looking for a shorter counterexample")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(at_least(0, "zero or more"));
  explore.add_flag("--no-shrink", options.no_shrink, "Report the counterexample as found");
  explore
      .add_option("--replay", options.replay,
                  "Replay one trajectory given as step names, 'c1 write; n2 replicate-from-primary; ...' or "
                  "@FILE (a step per line), and check its history")
      ->type_name("STEPS");
  explore.add_option("--param", options.params, "A design parameter (see --list); repeatable")->type_name("NAME=VALUE");
  explore.add_flag("--json", options.json, "Print one JSON object instead of the human report");
  explore.add_option("--html", options.html, "Write the counterexample's timeline as an HTML page")->type_name("FILE");
  explore.add_option("-o,--output", options.output, "Write the counterexample's history as EDN (for corpus/)")
      ->type_name("FILE");
}

int run_explore_command(const ExploreCommandOptions& options) {
  if (options.list) {
    const std::string text = format_design_list(explore::design_catalogue());
    print(text);
    return 0;
  }
  if (options.design.empty()) throw UsageError("explore: name a design (ariadne explore --list shows them)");
  if (options.depth < 1 || options.depth > 250) throw UsageError("--depth: must be 1 to 250");
  const auto explorer = explore::make_explorer(options.design, parse_params(options.params));
  explore::ExploreLimits limits;
  limits.memory_limit = parse_byte_size(options.memory_limit);
  // One deadline for the whole command (search, shrinking, certification) and Ctrl-C,
  // which ends the search and prints what it found so far, exit 130.
  const InterruptScope interrupt;
  const Limits command_limits(
      {.timeout_seconds = options.timeout_seconds, .cancel = &interrupt.flag(), .jobs = options.jobs});
  limits.limits = &command_limits;

  ExploreRun run;
  run.design = options.design;
  run.command = command_line(options);
  std::optional<std::vector<explore::Action>> found;
  if (options.replay) {
    // A trajectory the user wrote: replayed as given, checked whatever its verdict.
    run.trace = explorer->replay(explorer->actions_named(replay_steps(*options.replay)));
    run.replayed = true;
  } else if (options.exhaustive) {
    ExploreProgressLine progress(0);
    run.exhaustive = explorer->exhaustive(options.depth, true, limits, progress.callback());
    found = run.exhaustive->counterexample;
  } else {
    explore::RandomOptions random;
    random.depth = options.depth;
    random.trajectories = options.trajectories;
    random.seed = options.seed;
    random.jobs = command_limits.jobs();
    ExploreProgressLine progress(random.trajectories);
    run.random = explorer->random(random, limits, progress.callback());
    run.random_options = random;
    if (run.random->first_failing_trajectory) found = run.random->first_counterexample;
  }

  std::unique_ptr<Model> model;
  History history;
  CheckResult result;
  if (found) {
    std::vector<explore::Action> shortest = *found;
    if (!options.no_shrink) {
      // Shrinking takes at most --shrink-seconds of what the command has left.
      explore::ExploreLimits shrink_limits = limits;
      shrink_limits.timeout_seconds = options.shrink_seconds;
      run.shrink = explorer->shrink(*found, shrink_limits);
      shortest = run.shrink->actions;
    }
    run.trace = explorer->replay(shortest);
  }
  if (run.trace) {
    model = make_model_from_spec("register(nil)");
    history = build_history(run.trace->history, *model);
    result = certify(history, *model, run.trace->failing_step.has_value());
    run.history = &history;
    run.result = &result;
    run.model_spec = model->spec();
  }

  const std::string text =
      options.json ? format_explore_json(run) : format_explore_text(run, Style::for_stream(stdout));
  print(text);
  if (run.trace && options.output && !write_text_file(*options.output, format_counterexample_edn(run))) {
    throw UsageError("--output: cannot write " + *options.output);
  }
  if (run.trace && options.html) {
    std::ofstream out(*options.html, std::ios::binary);
    report::write_html_report(
        out, history, *model, result,
        report::ReportContext{options.design + (found ? " counterexample" : " trajectory"), model->spec()});
    out.flush();
    if (!out) throw UsageError("--html: cannot write " + *options.html);
  }
  if (interrupt.interrupted()) return interrupt.exit_status();
  if (run.replayed) return exit_status_for(result.verdict);
  if (found) return kExitNotLinearizable;
  if (run.exhaustive && !run.exhaustive->complete) return kExitUnknown;
  if (run.random && !run.random->stopped.empty()) return kExitUnknown;
  return kExitLinearizable;
}

}  // namespace ariadne::cli
