// The answers of `ariadne explore`: the human report (the search's numbers, then any
// counterexample as the Knossos Redis report laid it out: the system's final state,
// the longest linearizable prefix of its history, the first operation that cannot be
// linearized; then check()'s minimal core and explanation), the --json object, and
// the counterexample's history as an EDN file for corpus/.
#pragma once

#include "explore/explorer.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ariadne::answer {
class Style;
}  // namespace ariadne::answer

namespace ariadne::cli {

struct ExploreRun {
  std::string design;
  std::string command;  // the command line that reproduces the run
  std::optional<explore::RandomOptions> random_options;
  std::optional<explore::RandomReport> random;
  std::optional<explore::ExhaustiveReport> exhaustive;
  std::optional<explore::ShrinkReport> shrink;  // absent with --no-shrink
  bool replayed = false;                        // --replay: the trace is the user's trajectory
  std::optional<explore::Trace> trace;          // the counterexample (or --replay's), replayed
  const History* history = nullptr;             // the trace's history, paired
  const CheckResult* result = nullptr;          // check() of it
  std::string model_spec;
};

std::string format_design_list(const std::vector<explore::DesignInfo>& designs);
std::string format_explore_text(const ExploreRun& run, const answer::Style& style);
std::string format_explore_json(const ExploreRun& run);
// The trace's events, one per line, after a header naming the command, the steps, the
// model and the expected verdict: a corpus file.
std::string format_counterexample_edn(const ExploreRun& run);

}  // namespace ariadne::cli
