// `check --edn`: the answer as one EDN map in the shape a Jepsen checker returns, so
// a Jepsen test can shell out to ariadne and merge the map into its results.
#pragma once

#include "answer/check_report.hpp"

#include <string>

namespace ariadne::answer {

// {:valid? true|false|:unknown, :model ..., :engine ..., :analyzer :ariadne,
// :operations n, ...}: with :linearization (op ids, in order) when linearizable; :core
// (the core's ops as Jepsen op maps, their :index the op id), :core-minimal?,
// :failing-op (an op map) and :explanation when not, and Knossos' :op and
// :previous-ok (completion op maps, :index the completion's position) when the
// failing op is known; :reason, :limit and :limit-phase when a limit stopped some
// phase; :warnings as `check` prints them on stderr. One line, ending in '\n'.
// docs/formats.md maps every key to Knossos' and Jepsen's.
std::string format_check_edn(const CheckReport& report);

}  // namespace ariadne::answer
