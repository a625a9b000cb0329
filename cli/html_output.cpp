// See html_output.hpp. The page is assembled before a byte is written (a limit stops
// the assembly, which is where the time and memory go), then streamed into a file
// beside FILE that is renamed over it: an earlier report at FILE survives a run whose
// report was cut short, and no reader ever opens half a page. FILE the command's own
// standard output (/dev/stdout, whatever it points to) gets the page through stdout,
// before the answer.
#include "cli/html_output.hpp"

#include "answer/exit_status.hpp"
#include "answer/report_numbers.hpp"
#include "report/html_report.hpp"

#include <ariadne/errors.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>

namespace ariadne::cli {

using answer::current_failure;
using answer::Failure;
using answer::kExitInternal;
using answer::SideOutput;

namespace {

namespace fs = std::filesystem;

// Whether `path` is the file this process's standard output goes to. /dev/stdout
// redirected to a file is a symbolic link to a regular one, which a rename would
// replace (as root, the link itself), and which another writer would overwrite from
// its start while stdout writes on at its own offset.
bool is_standard_output(const std::string& path) {
  struct stat out {};
  struct stat at {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &at) == 0 && out.st_dev == at.st_dev &&
         out.st_ino == at.st_ino;
}

// Where the page is written before it is whole: beside `path`, so the rename stays on
// one file system, unless `path` is no regular file (a pipe, a device) or a symbolic
// link, which are written in place since renaming would replace them.
fs::path staging_path(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::symlink_status(path, error);
  if (fs::exists(status) && !fs::is_regular_file(status)) return path;
  return fs::path(path + ".ariadne-" + std::to_string(::getpid()) + ".partial");
}

}  // namespace

SideOutput write_html_output(const std::string& path, const History& history, const Model& model,
                             const CheckResult& result, const std::string& source, const Limits& limits) {
  SideOutput html;
  html.path = path;
  const bool to_stdout = is_standard_output(path);
  const fs::path staging = to_stdout ? fs::path(path) : staging_path(path);
  const bool staged = staging != fs::path(path);
  try {
    limits.enter(Phase::report);
    if (const Limit limit = limits.reached(); limit != Limit::none) {
      throw LimitReached(limit, "no report: " + limits.describe(limit));
    }
    if (to_stdout) {
      report::write_html_report(std::cout, history, model, result,
                                report::ReportContext{source, model.spec(), &limits});
      std::cout.flush();
      if (!std::cout) throw UsageError("--html: failed writing " + path + ": " + std::strerror(errno));
    } else {
      std::ofstream out(staging, std::ios::binary | std::ios::trunc);
      if (!out) throw UsageError("--html: cannot write " + path + ": " + std::strerror(errno));
      report::write_html_report(out, history, model, result, report::ReportContext{source, model.spec(), &limits});
      out.flush();
      if (!out) throw UsageError("--html: failed writing " + path + ": " + std::strerror(errno));
      out.close();
    }
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

std::string report_written_note(const SideOutput& html) {
  if (!html.written || is_standard_output(html.path)) return {};
  std::error_code error;
  if (!fs::is_regular_file(html.path, error)) return {};
  const std::uintmax_t bytes = fs::file_size(html.path, error);
  if (error) return {};
  return "wrote the report to " + html.path + " (" + answer::grouped((bytes + 1023) / 1024) + " KB)";
}

}  // namespace ariadne::cli
