// `ariadne generate FAMILY ...`: write synthetic histories whose verdict is known by
// construction, each with a header that `ariadne corpus DIR` reads and the command
// that reproduces it. The families: crash-storm (a hard cas-register history) and
// atomic (a simulated atomic object of any built-in model).
#pragma once

#include "generators/atomic_history.hpp"
#include "generators/crash_storm.hpp"
#include "generators/lagging_follower.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace ariadne::cli {

struct GenerateCommandOptions {
  std::string family;  // the family subcommand given, e.g. "crash-storm"; empty if none
  generators::CrashStormShape crash_storm;
  generators::AtomicShape atomic;
  generators::LaggingFollowerShape lagging_follower;
  std::string atomic_values = "unique";  // --values as typed, read by parse_value_domain
  std::optional<std::string> output;     // -o FILE; stdout when absent
  std::optional<std::string> out_dir;    // --out-dir DIR: files named after their shape
  std::size_t count = 1;                 // --count N: seeds S..S+N-1
};

// Adds the families (crash-storm, atomic) to `generate` as its subcommands, each with
// its shape and output options, bound to `options`.
void add_generate_options(CLI::App& generate, GenerateCommandOptions& options);

// Returns 0 once every file is written. Throws UsageError for a missing family, bad
// options, a shape that cannot be generated, or an output that cannot be written.
int run_generate_command(const GenerateCommandOptions& options);

}  // namespace ariadne::cli
