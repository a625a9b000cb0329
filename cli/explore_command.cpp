#include "cli/explore_command.hpp"

#include "cli/byte_size.hpp"
#include "cli/check_report.hpp"
#include "cli/exit_status.hpp"
#include "cli/explore_report.hpp"
#include "cli/terminal.hpp"
#include "explore/explorer.hpp"
#include "report/html_report.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>

#include <cstdio>
#include <fstream>

namespace ariadne::cli {

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

void write_file(const std::string& option, const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.flush();
  if (!out) throw UsageError(option + ": cannot write " + path);
}

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
CheckResult certify(const History& history, const Model& model) {
  CheckOptions options;
  options.prefix = true;
  options.jobs = 1;
  CheckResult result = check(history, model, options);
  if (result.verdict != Verdict::not_linearizable)
    throw InternalError("explore: the online checker refuted a trajectory that check() calls " +
                        std::string(verdict_name(result.verdict)));
  return result;
}

}  // namespace

int run_explore_command(const ExploreCommandOptions& options) {
  if (options.list) {
    const std::string text = format_design_list(explore::design_catalogue());
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  if (options.design.empty()) throw UsageError("explore: name a design (ariadne explore --list shows them)");
  if (options.depth < 1 || options.depth > 250) throw UsageError("--depth: must be 1 to 250");
  const auto explorer = explore::make_explorer(options.design, parse_params(options.params));
  explore::ExploreLimits limits;
  limits.timeout_seconds = options.timeout_seconds;
  limits.memory_limit = parse_byte_size(options.memory_limit);

  ExploreRun run;
  run.design = options.design;
  run.command = command_line(options);
  std::optional<std::vector<explore::Action>> found;
  if (options.exhaustive) {
    run.exhaustive = explorer->exhaustive(options.depth, true, limits, {});
    found = run.exhaustive->counterexample;
  } else {
    explore::RandomOptions random;
    random.depth = options.depth;
    random.trajectories = options.trajectories;
    random.seed = options.seed;
    random.jobs = options.jobs;
    run.random = explorer->random(random, limits, {});
    run.random_options = random;
    if (run.random->first_failing_trajectory) found = run.random->first_counterexample;
  }

  std::unique_ptr<Model> model;
  History history;
  CheckResult result;
  if (found) {
    std::vector<explore::Action> shortest = *found;
    if (!options.no_shrink) {
      explore::ExploreLimits shrink_limits = limits;
      shrink_limits.timeout_seconds = options.shrink_seconds;
      run.shrink = explorer->shrink(*found, shrink_limits);
      shortest = run.shrink->actions;
    }
    run.trace = explorer->replay(shortest);
    model = make_model_from_spec("register(nil)");
    history = build_history(run.trace->history, *model);
    result = certify(history, *model);
    run.history = &history;
    run.result = &result;
    run.model_spec = model->spec();
  }

  const std::string text = options.json ? format_explore_json(run) : format_explore_text(run, Style::for_stream(stdout));
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  if (found && options.output) write_file("--output", *options.output, format_counterexample_edn(run));
  if (found && options.html) {
    std::ofstream out(*options.html, std::ios::binary);
    report::write_html_report(out, history, *model, result,
                              report::ReportContext{options.design + " counterexample", model->spec()});
    out.flush();
    if (!out) throw UsageError("--html: cannot write " + *options.html);
  }
  if (found) return kExitNotLinearizable;
  if (run.exhaustive && !run.exhaustive->complete) return kExitUnknown;
  if (run.random && !run.random->stopped.empty()) return kExitUnknown;
  return kExitLinearizable;
}

}  // namespace ariadne::cli
