// `ariadne check`: read, pair, check, report. Everything that can go wrong before the
// search (options, the file, the model's view of each op) is reported as a typed
// error and mapped to an exit status by main(); the search itself never throws for
// bad input, it answers unknown with a reason.
#include "cli/check_command.hpp"

#include "cli/check_report.hpp"
#include "cli/exit_status.hpp"
#include "cli/option_values.hpp"
#include "cli/proof_commands.hpp"
#include "cli/terminal.hpp"
#include "report/html_report.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace ariadne::cli {

namespace {

// A missing or unreadable file is bad input naming that file, whatever the reader
// would have said about it.
void require_readable_file(const std::string& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw InputError(path, {}, "no such file");
  if (std::filesystem::is_directory(status)) throw InputError(path, {}, "is a directory, expected a history file");
}

void write_html_file(const std::string& path, const History& history, const Model& model,
                     const CheckResult& result, const std::string& source) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw UsageError("--html: cannot write " + path);
  report::write_html_report(out, history, model, result, report::ReportContext{source, model.spec()});
  out.flush();
  if (!out) throw UsageError("--html: failed writing " + path);
}

}  // namespace

int run_check_command(const CheckCommandOptions& options) {
  // Options first, so a typo fails fast before a large file is read.
  CheckOptions check_options = make_check_options(options.limits, options.jobs);
  check_options.prefix = options.prefix;
  check_options.minimal_core = !options.no_core;
  const Format format = choose_format(options.format);
  const auto model = choose_model(options.model, options.init);

  const auto start = std::chrono::steady_clock::now();
  require_readable_file(options.file);
  const History history = read_history(options.file, *model, format);
  const double read_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const CheckResult result = check(history, *model, check_options);
  const double total_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  CheckReport report;
  report.file = options.file;
  report.model_spec = model->spec();
  report.history = &history;
  report.result = &result;
  report.total_ms = total_ms;
  report.read_ms = read_ms;
  report.explain = options.explain;
  report.prefix = options.prefix;
  report.core_shrunk = !options.no_core;
  if (options.proof) {
    report.proof_dir = *options.proof;
    report.proof_note = write_core_proof(*options.proof, history, *model, result);
  }
  const std::string text =
      options.json ? format_check_json(report) : format_check_text(report, Style::for_stream(stdout), options.full);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  if (options.html) write_html_file(*options.html, history, *model, result, options.file);

  return exit_status_for(result.verdict);
}

}  // namespace ariadne::cli
