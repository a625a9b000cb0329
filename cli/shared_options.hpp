// The CLI11 pieces several commands declare alike: validators that say what is wrong
// in words, and the options `check` and `corpus` (or `check`, `convert` and
// `verify-witness`) share, so each is spelt once and reads the same in every --help.
#pragma once

#include "cli/option_values.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace ariadne::cli {

// A number of at least `minimum`; the message says `words`, e.g. "at least 1".
CLI::Validator at_least(double minimum, std::string words);

// Decimal digits only: CLI11 would read "-1" into an unsigned option as 2^64-1.
CLI::Validator whole_number();

// --engine, --timeout and --memory-limit. `scope` ends the limits' descriptions,
// e.g. " (per file)".
void add_limit_options(CLI::App& command, SearchLimits& limits, const std::string& scope);

// --format: how to read a history (auto, or a format name for choose_format).
void add_format_option(CLI::App& command, std::string& format);

}  // namespace ariadne::cli
