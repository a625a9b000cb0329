// `ariadne generate FAMILY ...`: write synthetic histories whose verdict is known by
// construction, each with a header that `ariadne corpus DIR` reads and the command
// that reproduces it. The one family so far is crash-storm.
#pragma once

#include "generators/crash_storm.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace ariadne::cli {

struct GenerateCommandOptions {
  std::string family;  // the family subcommand given, e.g. "crash-storm"; empty if none
  generators::CrashStormShape crash_storm;
  std::optional<std::string> output;   // -o FILE; stdout when absent
  std::optional<std::string> out_dir;  // --out-dir DIR: files named after their shape
  std::size_t count = 1;               // --count N: seeds S..S+N-1
};

// Returns 0 once every file is written. Throws UsageError for a missing family, bad
// options, a shape that cannot be generated, or an output that cannot be written.
int run_generate_command(const GenerateCommandOptions& options);

// The command that prints exactly this history, every shape option spelled out,
// e.g. "ariadne generate crash-storm --ops 60 --crashed-writes 4 --clients 4 --seed 7".
std::string crash_storm_command(const generators::CrashStormShape& shape);

// "crash-storm-<ops>-<crashed writes>-<seed>[-stale].edn".
std::string crash_storm_file_name(const generators::CrashStormShape& shape);

}  // namespace ariadne::cli
