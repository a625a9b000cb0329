// ariadne's command line: builds the subcommands from the command table, parses the
// arguments with CLI11 and runs the one given. run_guarded (answer/exit_status.hpp)
// maps every exception to a documented exit status, so none leaves main(): users'
// scripts must always get one of those statuses, and an uncaught exception would
// abort with a signal instead.
#include "answer/exit_status.hpp"
#include "answer/version.hpp"
#include "cli/command_table.hpp"
#include "cli/help_text.hpp"
#include "cli/process_heap.hpp"

#include <ariadne/errors.hpp>

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace ariadne::cli {

using answer::kExitUsage;
using answer::version_text;

namespace {

int run(int argc, char** argv) {
  CLI::App app(program_description(), "ariadne");
  app.set_version_flag("--version", version_text());
  std::vector<std::string> names;
  for (const Command& command : command_table()) names.emplace_back(command.name);
  app.footer([names] { return main_help_footer(names); });
  std::vector<std::pair<CLI::App*, CommandHandler>> commands;
  for (const Command& command : command_table()) {
    CLI::App* subcommand = app.add_subcommand(std::string(command.name), std::string(command.summary));
    commands.emplace_back(subcommand, command.attach(*subcommand));
  }
  app.require_subcommand(1);

  if (argc <= 1) {
    std::cerr << app.help() << std::flush;
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version arrive as "errors" with status 0; CLI11 prints them.
    if (error.get_exit_code() == 0) return app.exit(error);
    throw;
  }
  for (const auto& [subcommand, handler] : commands) {
    if (app.got_subcommand(subcommand)) return handler();
  }
  throw InternalError("the command line parsed without a command");
}

}  // namespace

}  // namespace ariadne::cli

int main(int argc, char** argv) {
  ariadne::cli::prepare_process_heap();
  return ariadne::answer::run_guarded([argc, argv] { return ariadne::cli::run(argc, argv); });
}
