// `check --html FILE`: the HTML report (report/html_report.hpp) written inside the
// command's limits, and said not written when they stop it.
#pragma once

#include "answer/side_output.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <string>

namespace ariadne::cli {

// Writes the report of `result` for the history read from `source` to `path`, in
// Phase::report. Never throws: a limit reached (before or during it), a write the
// file system refused or a bug leaves it unwritten, saying why. FILE never holds half
// a page: a regular file is written beside it and renamed over it once whole.
answer::SideOutput write_html_output(const std::string& path, const History& history, const Model& model,
                                     const CheckResult& result, const std::string& source, const Limits& limits);

// What stderr says of a report written: "wrote the report to FILE (N KB)", so that the
// reader of a long check knows where to look. Empty when nothing was written, or when
// FILE is no regular file (/dev/stdout, a pipe), where the page itself is the output.
std::string report_written_note(const answer::SideOutput& html);

}  // namespace ariadne::cli
