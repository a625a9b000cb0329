// `ariadne explore DESIGN`: look for a counterexample in a system design (systems/):
// random trajectories or an exhaustive bounded search, each trajectory's history
// checked online as it grows; a counterexample is shrunk to the shortest trajectory
// that still fails, certified by check() and explained.
#pragma once

#include "cli/byte_size.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ariadne::cli {

struct ExploreCommandOptions {
  std::string design;
  bool list = false;  // --list: print the designs and exit
  int depth = 15;
  std::uint64_t trajectories = 40000;
  std::uint64_t seed = 0;
  unsigned jobs = 0;
  bool exhaustive = false;
  double timeout_seconds = 0;
  std::string memory_limit = default_memory_limit_text();
  double shrink_seconds = 60;
  bool no_shrink = false;
  std::vector<std::string> params;    // NAME=VALUE
  std::optional<std::string> replay;  // "step; step; ..." or @FILE with a step per line
  bool json = false;
  std::optional<std::string> html;    // the counterexample's timeline
  std::optional<std::string> output;  // the counterexample's history as EDN
};

// Adds DESIGN and the search, shrinking and output options to `explore`, bound to
// `options`.
void add_explore_options(CLI::App& explore, ExploreCommandOptions& options);

// Exit status: 0 no counterexample (within the budget given), 1 one was found,
// 2 an exhaustive search stopped at a limit without finding one. With --replay, the
// replayed history's verdict: 0 linearizable, 1 not.
int run_explore_command(const ExploreCommandOptions& options);

}  // namespace ariadne::cli
