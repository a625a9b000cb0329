// The subcommands of ariadne, one row each (as ninja's table of tools): its name, the
// line the top-level --help shows for it, and how it takes its options and runs.
// main() builds the command line from the rows in their order, and the top-level
// help names the commands from them, so the help and the dispatch cannot drift
// apart. A new command is a row here and its own file; a new flag, that file alone.
#pragma once

#include <functional>
#include <span>
#include <string_view>

namespace CLI {
class App;
}

namespace ariadne::cli {

// Runs a parsed command on the values its options were read into; returns the exit
// status.
using CommandHandler = std::function<int()>;

struct Command {
  std::string_view name;
  std::string_view summary;  // one line, for the top-level --help
  // Adds the command's arguments, options, footer and any subcommands to `command`,
  // bound to values of its own, and returns the handler that runs the command on
  // them once the command line is parsed.
  CommandHandler (*attach)(CLI::App& command);
};

std::span<const Command> command_table();

}  // namespace ariadne::cli
