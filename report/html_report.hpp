// `ariadne check --html FILE`: one self-contained HTML page that draws the history.
//
// One lane per process, operations as bars over a compressed time axis (event
// positions, so idle stretches take no room), crashed ops open to the end. For a
// linearizable history, the linearization points in order; for a violation, the core
// highlighted with its real-time facts as arrows, the rest dimmed, and the
// explanation on top. Hovering an op shows its details and the model state before
// and after it. The page needs no network: data, script and style are inlined, and it
// draws on a canvas, so it stays small and responsive at 100,000 operations.
//
// Layout of the work: report_data.cpp decides every fact the page shows and writes it
// as compact columnar JSON (about 40 bytes per op); state_replay.cpp replays the
// order shown for the model states; report/page/ holds the fixed markup, style and
// script (report.html, report.css, report.js). For tests, the page sets
// document.body.dataset.ready to "1" once first drawn and exposes window.ariadneReport:
// coreIds, highlighted (the op ids drawn as core or failing), orderIds, facts, frame
// (what the last frame drew: summarised and bar lanes, bars, points, arrows), readyMs,
// and focus(id) / locate(id), which bring an op into view and return the viewport
// point on its bar.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>
#include <ariadne/result.hpp>

#include <ostream>
#include <string>

namespace ariadne::report {

struct ReportContext {
  std::string file;        // the history file, shown as the title
  std::string model_spec;  // e.g. "cas-register(0)"
  // The command's limits, polled while the page is built (report/limit_poll.hpp);
  // none when null.
  const Limits* limits = nullptr;
};

// Writes the page for `result`, which check() returned for `history` under `model`.
// Throws LimitReached when context.limits stops it, before a byte of the page is
// written: the page is assembled in memory first, so a stopped report leaves `out`
// untouched rather than half a page.
void write_html_report(std::ostream& out, const History& history, const Model& model, const CheckResult& result,
                       const ReportContext& context);

}  // namespace ariadne::report
