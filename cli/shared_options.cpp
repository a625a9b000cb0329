// See shared_options.hpp.
#include "cli/shared_options.hpp"

#include <cstdlib>

namespace ariadne::cli {

// CLI11's ranged validators print their bounds as 300-digit numbers; this says it
// in words and adds nothing to the option's type in --help.
CLI::Validator at_least(double minimum, std::string words) {
  return CLI::Validator(
      [minimum, words](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return "";  // the conversion reports it
        return value >= minimum ? "" : "must be " + words + ", got " + text;
      },
      "", "");
}

// Counts and seeds must be written as plain decimal digits.
CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        return digits ? "" : "must be a whole number (decimal digits), got " + text;
      },
      "", "");
}

void add_limit_options(CLI::App& command, SearchLimits& limits, const std::string& scope) {
  std::string engines = "auto";
  for (std::size_t e = 1; e < kEngineCount; ++e) engines += "|" + std::string(engine_name(static_cast<Engine>(e)));
  command
      .add_option("--engine", limits.engine,
                  "Which engine decides (default auto: the unique-value test, WGL, then a race; see Engines below)")
      ->type_name(engines);
  command.add_option("--timeout", limits.timeout_seconds, "Give up after this many seconds, answering unknown" + scope)
      ->type_name("SECONDS")
      ->check(at_least(0, "zero or more"));
  command
      .add_option("--memory-limit", limits.memory_limit,
                  "Memory the command may take beyond the program itself, reading included, before answering "
                  "unknown: bytes, or with K/M/G/KiB/MiB/GiB (default " +
                      default_memory_limit_text() + ")" + scope)
      ->type_name("BYTES");
}

void add_format_option(CLI::App& command, std::string& format) {
  command.add_option("--format", format, "Input format (default: detected from the content)")
      ->type_name("auto|edn|jepsen-log|porcupine-kv|json|violin-log|fastlin");
}

}  // namespace ariadne::cli
