// The prose of --help: what ariadne does, real invocations to copy, the exit
// statuses scripts branch on, and the models to choose from.
#pragma once

#include <string>
#include <vector>

namespace ariadne::cli {

std::string program_description();
// `commands` are the subcommands' names, for the line that points at their --help.
std::string main_help_footer(const std::vector<std::string>& commands);
std::string check_help_footer();
std::string corpus_help_footer();
std::string convert_help_footer();
std::string cross_check_help_footer();
std::string generate_help_footer();
std::string crash_storm_help_footer();
std::string atomic_help_footer();
std::string lagging_follower_help_footer();
std::string explore_help_footer();

}  // namespace ariadne::cli
