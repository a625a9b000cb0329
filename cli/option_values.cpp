// See option_values.hpp. An --init value is a command-line argument, so a malformed
// one is a usage error (64) rather than bad input (65), which names a file.
#include "cli/option_values.hpp"

#include "cli/trimmed.hpp"

#include "cli/byte_size.hpp"

#include <ariadne/errors.hpp>

namespace ariadne::cli {

namespace {

// "auto" or an engine name. Throws UsageError.
Engine choose_engine(std::string_view name) {
  if (name == "auto") return Engine::automatic;
  if (const auto engine = parse_engine(name)) return *engine;
  throw UsageError("--engine: unknown engine '" + std::string(name) + "' (expected " + engine_names_listed() + ")");
}

}  // namespace

std::unique_ptr<Model> choose_model(std::string_view model, const std::optional<std::string>& init) {
  const std::string_view spec = trimmed(model);
  if (spec.empty()) throw UsageError("--model: expected a model name such as cas-register");
  if (!init) return make_model_from_spec(spec);
  Value initial;
  try {
    initial = parse_edn_value(*init, "--init");
  } catch (const InputError& error) {
    throw UsageError("--init: " + error.message());
  }
  try {
    return make_model_from_spec(spec, initial);
  } catch (const UsageError& error) {
    // A model name that is unknown is the --model's fault, and says so by itself.
    if (std::string_view(error.what()).starts_with("initial state"))
      throw UsageError("--init: " + std::string(error.what()));
    throw;
  }
}

Format choose_format(std::string_view name) {
  if (name == "auto") return Format::auto_detect;
  if (const auto format = parse_format(name)) return *format;
  throw UsageError("--format: unknown format '" + std::string(name) +
                   "' (expected auto, edn, jepsen-log, porcupine-kv, json, violin-log or fastlin)");
}

Consistency choose_consistency(std::string_view name) {
  if (const auto consistency = parse_consistency(name)) return *consistency;
  throw UsageError("--consistency: expected " + consistency_names_listed() + ", got '" + std::string(name) + "'");
}

CheckOptions make_check_options(const SearchLimits& limits, unsigned jobs) {
  CheckOptions options;
  options.engine = choose_engine(limits.engine);
  options.timeout_seconds = limits.timeout_seconds;
  options.memory_limit = parse_byte_size(limits.memory_limit);
  options.jobs = jobs;
  return options;
}

}  // namespace ariadne::cli
