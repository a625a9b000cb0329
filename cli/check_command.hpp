// `ariadne check FILE --model MODEL ...`: decide one history and report the verdict.
#pragma once

#include "cli/option_values.hpp"

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ariadne::cli {

struct CheckCommandOptions {
  std::string file;
  std::string model = "";                    // a name or a spec, e.g. "cas-register(0)"
  std::optional<std::string> init;           // EDN; overrides the spec's initial state
  bool independent = false;                  // values are [key value] tuples: the model is independent(model)
  std::string consistency = "linearizable";  // --consistency, as typed (consistency.hpp's names)
  std::string format = "auto";
  SearchLimits limits;
  unsigned jobs = 0;  // 0: all cores
  bool json = false;
  bool edn = false;                  // the answer as a Jepsen checker's EDN map (edn_answer.hpp)
  bool progress = false;             // progress lines on stderr even when it is no terminal
  bool full = false;                 // print every table row
  bool explain = false;              // print the explanation in full
  bool no_core = false;              // skip core minimisation
  double core_budget = 0;            // seconds for the core; 0: automatic (CheckOptions::core_seconds)
  bool prefix = false;               // print the longest linearizable prefix
  std::optional<std::string> html;   // write the HTML report here
  std::optional<std::string> proof;  // write the core's CNF and DRAT proof into this directory
  std::optional<std::string> shard;  // --shard I/N: only the keys hashed to shard I (key_shards.hpp)
  std::vector<std::string> merge;    // --merge REPORT.json...: join the N key shards' reports
  bool follow = false;               // --follow: check FILE while it is written (follow/follow_check.hpp)
  double idle = 0;                   // --idle SECONDS: a followed file that stops growing this long is done
  std::optional<int> pid;            // --pid PID: a followed file is done when this process exits
  bool fail_fast = false;            // --fail-fast: stop following at the first violation
};

// Adds FILE, --model and the other options to `check`, bound to `options`.
void add_check_options(CLI::App& check, CheckCommandOptions& options);

// Returns the exit status for the verdict. Throws UsageError for bad options and
// InputError for a bad history; run_guarded() turns those into 64 and 65.
int run_check_command(const CheckCommandOptions& options);

}  // namespace ariadne::cli
