#include "cli/explore_report.hpp"

#include "answer/check_report.hpp"
#include "answer/json_writer.hpp"
#include "answer/report_numbers.hpp"
#include "answer/terminal.hpp"

#include <ariadne/history.hpp>

namespace ariadne::cli {

using answer::CheckReport;
using answer::format_check_text;
using answer::format_number;
using answer::grouped;
using answer::JsonWriter;
using answer::Style;

namespace {

std::string event_edn(const Event& event) {
  std::string text = format_events(EventLog{"", {event}}, Format::edn);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.size() >= 2 && text.front() == '[') text = text.substr(1);  // a one-event vector
  if (!text.empty() && text.back() == ']') text.pop_back();
  return text;
}

// Counters "X" and "X lost" get a percentage.
std::string format_tally(const systems::Tally& tally) {
  std::string out;
  for (const auto& [name, amount] : tally.counters()) {
    out += "  " + name + ": " + grouped(amount);
    const std::string suffix = " lost";
    if (name.size() > suffix.size() && name.ends_with(suffix)) {
      const std::string whole = name.substr(0, name.size() - suffix.size());
      for (const auto& [other, total] : tally.counters())
        if (other == whole && total > 0)
          out += " (" + format_number(100.0 * static_cast<double>(amount) / static_cast<double>(total), 1) + "% of " +
                 whole + ")";
    }
    out += "\n";
  }
  return out;
}

std::string search_summary(const ExploreRun& run) {
  std::string out;
  if (run.random) {
    const auto& r = *run.random;
    const auto& o = *run.random_options;
    const double rate = r.seconds > 0 ? static_cast<double>(r.trajectories) / r.seconds : 0;
    out += "ariadne explore " + run.design + ": random trajectories of up to " + std::to_string(o.depth) +
           " steps, seed " + std::to_string(o.seed) + ", " + std::to_string(r.jobs) + " threads\n";
    out += "  checked     " + grouped(r.trajectories) + " trajectories (" + grouped(r.steps) +
           " steps, i.e. states visited, repeats included; " + grouped(r.dead_ends) + " dead ends) in " +
           format_number(r.seconds, 3) + " s: " + grouped(static_cast<std::uint64_t>(rate)) +
           " trajectories/s with online checking\n";
    out += "  failing     " + grouped(r.counterexamples) + " trajectories";
    if (r.first_failing_trajectory) out += "; the first is trajectory " + grouped(*r.first_failing_trajectory);
    out += "\n";
    if (!r.stopped.empty()) out += "  stopped     " + r.stopped + " before the budget was spent\n";
    if (!r.tally.counters().empty()) out += "\nThe design's counters over all final states:\n" + format_tally(r.tally);
  }
  if (run.exhaustive) {
    const auto& e = *run.exhaustive;
    out += "ariadne explore " + run.design + ": exhaustive search to depth " + std::to_string(e.depth) + "\n";
    out += "  states      " + grouped(e.states) + " distinct (values renamed), " + grouped(e.transitions) +
           " transitions, in " + format_number(e.seconds, 3) + " s; visited set " +
           format_number(static_cast<double>(e.table_bytes) / (1 << 20), 1) + " MiB\n";
    if (e.complete)
      out += "  covered     every trajectory of up to " + std::to_string(e.depth) + " steps\n";
    else if (e.counterexample)
      out += "  stopped     at the first counterexample\n";
    else
      out += "  stopped     " + e.stopped + ": not every trajectory was covered\n";
  }
  return out;
}

}  // namespace

std::string format_design_list(const std::vector<explore::DesignInfo>& designs) {
  std::string out = "Designs ariadne explore knows:\n";
  for (const auto& info : designs) {
    out += "  " + info.name + std::string(info.name.size() < 20 ? 20 - info.name.size() : 1, ' ') + info.summary + "\n";
    if (!info.parameters.empty()) out += info.parameters;
  }
  return out;
}

std::string format_explore_text(const ExploreRun& run, const Style& style) {
  std::string out = search_summary(run);
  if (!run.trace) {
    out += "\n" + style.green("NO COUNTEREXAMPLE") + " found" +
           (run.exhaustive && run.exhaustive->complete ? " at any depth up to " + std::to_string(run.exhaustive->depth)
                                                       : " in this budget") +
           "\n";
    return out;
  }
  const explore::Trace& trace = *run.trace;
  if (run.replayed) {
    out += "ariadne explore " + run.design + ": the " + std::to_string(trace.steps.size()) + " steps given, replayed\n";
    out += trace.failing_step ? "\n" + style.red("COUNTEREXAMPLE") + ": the history is not linearizable from step " +
                                    std::to_string(*trace.failing_step + 1) + "\n"
                              : "\n" + style.green("LINEARIZABLE") + ": the history has a linearization\n";
  } else {
    out += "\n" + style.red("COUNTEREXAMPLE") + ": " + std::to_string(trace.steps.size()) + " steps";
    if (run.shrink) {
      const auto& s = *run.shrink;
      out += ", shrunk from " + std::to_string(s.original_steps) + " (" + std::to_string(s.after_removal) +
             " after removing steps); ";
      out += s.proven_shortest ? "no trajectory with fewer steps fails (" + grouped(s.states) + " states searched)"
                               : "shorter ones not ruled out (" + s.stopped + ")";
    }
    out += "\n";
  }
  out += "\nSystem state at the end:\n" + trace.final_state;
  if (!trace.tally.counters().empty()) out += "\nThe design's counters at the end:\n" + format_tally(trace.tally);
  out += trace.failing_step ? "\nHistory, step by step; linearizable up to the marked line:\n"
                            : "\nHistory, step by step:\n";
  std::size_t failing_event = trace.history.events.size();
  if (trace.failing_step)
    for (std::size_t e = 0; e < trace.event_step.size(); ++e)
      if (trace.event_step[e] == *trace.failing_step) failing_event = e;  // the step's last event
  for (std::size_t e = 0; e < trace.history.events.size(); ++e) {
    if (e == failing_event) out += "  " + style.red("---- unable to linearize past this point ----") + "\n";
    const std::string step = std::to_string(trace.event_step[e] + 1);
    out += "  " + std::string(step.size() < 4 ? 4 - step.size() : 1, ' ') + step + "  " +
           event_edn(trace.history.events[e]) + "\n";
  }
  if (run.result != nullptr) {
    CheckReport report;
    report.file = "the trajectory's history";
    report.model_spec = run.model_spec;
    report.history = run.history;
    report.result = run.result;
    report.total_ms = run.result->elapsed_ms;
    report.explain = true;
    report.prefix = true;
    out += "\nCertified by ariadne check (event numbers are positions in the history above, from 0):\n";
    out += format_check_text(report, style, true);
    if (!out.ends_with("\n")) out += "\n";
  }
  return out;
}

std::string format_explore_json(const ExploreRun& run) {
  JsonWriter json;
  json.begin_object().field("design", run.design);
  if (run.random) {
    const auto& r = *run.random;
    json.field("mode", "random")
        .field("depth", run.random_options->depth)
        .field("seed", run.random_options->seed)
        .field("jobs", r.jobs)
        .field("trajectories", r.trajectories)
        .field("steps", r.steps)
        .field("dead_ends", r.dead_ends)
        .field("seconds", r.seconds)
        .field("trajectories_per_second", r.seconds > 0 ? static_cast<double>(r.trajectories) / r.seconds : 0.0)
        .field("counterexamples", r.counterexamples)
        .field("stopped", r.stopped);
    json.key("tally").begin_object();
    for (const auto& [name, amount] : r.tally.counters()) json.field(name, amount);
    json.end_object();
  }
  if (run.exhaustive) {
    const auto& e = *run.exhaustive;
    json.field("mode", "exhaustive")
        .field("depth", e.depth)
        .field("states", e.states)
        .field("transitions", e.transitions)
        .field("visited_set_bytes", e.table_bytes)
        .field("seconds", e.seconds)
        .field("complete", e.complete)
        .field("stopped", e.stopped);
  }
  if (run.replayed) json.field("mode", "replay");
  // A replayed trajectory is reported whatever its verdict, under its own key.
  json.key(run.replayed ? "trajectory" : "counterexample");
  if (!run.trace) {
    json.null();
  } else {
    const explore::Trace& trace = *run.trace;
    json.begin_object().field("steps", static_cast<std::uint64_t>(trace.steps.size()));
    if (run.replayed) json.field("replayed", true);
    if (run.random && run.random->first_failing_trajectory)
      json.field("trajectory", *run.random->first_failing_trajectory);
    if (run.shrink)
      json.field("original_steps", static_cast<std::uint64_t>(run.shrink->original_steps))
          .field("after_removal", static_cast<std::uint64_t>(run.shrink->after_removal))
          .field("proven_shortest", run.shrink->proven_shortest)
          .field("shrink_states", run.shrink->states)
          .field("shrink_seconds", run.shrink->seconds);
    json.key("actions").begin_array();
    for (const std::string& name : trace.step_names) json.value(name);
    json.end_array();
    if (trace.failing_step) json.field("failing_step", static_cast<std::uint64_t>(*trace.failing_step + 1));
    json.field("final_state", trace.final_state);
    json.key("final_tally").begin_object();
    for (const auto& [name, amount] : trace.tally.counters()) json.field(name, amount);
    json.end_object();
    json.field("history", format_events(trace.history, Format::edn));
    if (run.result != nullptr) {
      const CheckResult& result = *run.result;
      json.field("verdict", verdict_name(result.verdict)).field("engine", result.engine);
      json.key("core").begin_array();
      for (const std::uint32_t id : result.core) json.value(static_cast<std::uint64_t>(id));
      json.end_array();
      json.field("core_minimal", result.core_minimal).field("explanation", result.explanation);
      if (result.failing_op) json.field("failing_op", static_cast<std::uint64_t>(*result.failing_op));
    }
    json.end_object();
  }
  json.end_object();
  return json.text() + "\n";
}

std::string format_counterexample_edn(const ExploreRun& run) {
  const explore::Trace& trace = *run.trace;
  std::string out;
  if (run.replayed) {
    out = "; A trajectory of `ariadne explore " + run.design + " --replay`, " + std::to_string(trace.steps.size()) +
          " steps.\n";
  } else {
    out = "; A counterexample found by `" + run.command + "`,\n";
    out += "; shrunk to " + std::to_string(trace.steps.size()) + " steps";
    if (run.shrink && run.shrink->proven_shortest) out += " (no trajectory with fewer steps fails)";
    out += ".\n";
  }
  out += "; Clients are integer processes; internal steps are :info events of keyword processes,\n";
  out += "; which checkers ignore. Steps:\n";
  for (std::size_t s = 0; s < trace.step_names.size(); ++s)
    out += ";   " + std::to_string(s + 1) + ". " + trace.step_names[s] + "\n";
  out += "; model: " + run.model_spec + "\n; expected: " + std::string(verdict_name(run.result->verdict)) + "\n";
  out += format_events(trace.history, Format::edn);
  return out;
}

}  // namespace ariadne::cli
