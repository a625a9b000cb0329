// Turning option text into the library's values: --model (and --init) into a Model,
// format and engine names into enums, and the search limits into CheckOptions.
// Shared by `check` and `corpus`, so both read every option the same way.
#pragma once

#include "cli/byte_size.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ariadne::cli {

// `model` is a name ("cas-register") or a spec ("cas-register(0)"), as --model takes
// it. A given `init` (--init, EDN text) replaces the spec's initial state, of each
// key's model for independent(MODEL). Throws UsageError.
std::unique_ptr<Model> choose_model(std::string_view model, const std::optional<std::string>& init);

// "auto" or a format name. Throws UsageError.
Format choose_format(std::string_view name);

// --consistency: linearizable, sequential or sequential-per-key. Throws UsageError.
Consistency choose_consistency(std::string_view name);

// The options every check takes, as the command line spells them.
struct SearchLimits {
  std::string engine = "auto";
  double timeout_seconds = 0;                              // 0: no limit
  std::string memory_limit = default_memory_limit_text();  // see byte_size.hpp
};

// CheckOptions for `limits` and `jobs` worker threads. Throws UsageError.
CheckOptions make_check_options(const SearchLimits& limits, unsigned jobs);

}  // namespace ariadne::cli
