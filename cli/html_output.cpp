// See html_output.hpp. The page is assembled before a byte is written (a limit stops
// the assembly, which is where the time and memory go), then streamed into a file
// beside FILE that is renamed over it: an earlier report at FILE survives a run whose
// report was cut short, and no reader ever opens half a page.
#include "cli/html_output.hpp"

#include "answer/exit_status.hpp"
#include "report/html_report.hpp"

#include <ariadne/errors.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>

namespace ariadne::cli {

using answer::current_failure;
using answer::Failure;
using answer::kExitInternal;
using answer::SideOutput;

namespace {

namespace fs = std::filesystem;

// Where the page is written before it is whole: beside `path`, so the rename stays on
// one file system, unless `path` is no regular file (/dev/stdout, a pipe), which is
// written in place since it cannot be replaced.
fs::path staging_path(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::exists(status) && !fs::is_regular_file(status)) return path;
  return fs::path(path + ".ariadne-" + std::to_string(::getpid()) + ".partial");
}

}  // namespace

SideOutput write_html_output(const std::string& path, const History& history, const Model& model,
                             const CheckResult& result, const std::string& source, const Limits& limits) {
  SideOutput html;
  html.path = path;
  const fs::path staging = staging_path(path);
  const bool staged = staging != fs::path(path);
  try {
    limits.enter(Phase::report);
    if (const Limit limit = limits.reached(); limit != Limit::none) {
      throw LimitReached(limit, "no report: " + limits.describe(limit));
    }
    std::ofstream out(staging, std::ios::binary | std::ios::trunc);
    if (!out) throw UsageError("--html: cannot write " + path + ": " + std::strerror(errno));
    report::write_html_report(out, history, model, result, report::ReportContext{source, model.spec(), &limits});
    out.flush();
    if (!out) throw UsageError("--html: failed writing " + path + ": " + std::strerror(errno));
    out.close();
    if (staged) {
      std::error_code error;
      fs::rename(staging, path, error);
      if (error) throw UsageError("--html: cannot write " + path + ": " + error.message());
    }
    html.written = true;
    html.summary = "HTML report written to " + path;
    return html;
  } catch (const LimitReached& stopped) {
    html.reason = std::string(limit_name(stopped.limit()));
    html.summary = std::string(stopped.what()) + "; " + path + " not written";
  } catch (const std::bad_alloc&) {
    // The allocator refused before the memory watch saw the limit passed.
    limits.note_memory_exceeded();
    html.reason = std::string(limit_name(Limit::memory));
    html.summary = "no report: out of memory during the report; " + path + " not written";
  } catch (...) {
    const Failure failure = current_failure();
    html.reason = failure.exit_status == kExitInternal ? "error" : "write-failed";
    html.summary = failure.message;
  }
  if (staged) {
    std::error_code ignored;
    fs::remove(staging, ignored);
  }
  return html;
}

}  // namespace ariadne::cli
