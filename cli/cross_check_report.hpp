// Reporting a cross-check: per-engine and per-corpus tables, the certificates, the
// imported checker's agreement, and every row with a problem, in words; or all of it
// as one JSON object.
#pragma once

#include "cli/cross_check_command.hpp"

#include <string>

namespace ariadne::answer {
class Style;
}  // namespace ariadne::answer

namespace ariadne::cli {

std::string format_cross_check_text(const CrossCheckOptions& options, const CrossCheckResult& result,
                                    const answer::Style& style);

// {"corpora", "engines", "timeout_seconds", "rows": [{"corpus", "file", "model",
// "expected", "agreed", "runs": [{"engine", "verdict", "ms", "applicable", "reason"?,
// "error"?}], "refutation"?: {"certified", "core_size", "core_minimal", "ms",
// "problem"?}, "imported"?, "problems": [...]}], "totals": {...}}
std::string format_cross_check_json(const CrossCheckOptions& options, const CrossCheckResult& result);

}  // namespace ariadne::cli
