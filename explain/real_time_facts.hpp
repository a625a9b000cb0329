// The real-time facts that bind a core's ops: which completed before which began.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/result.hpp>

#include <span>
#include <vector>

namespace ariadne::explain {

// Pairs (a, b) of `ops` with a completed before b was invoked, transitively reduced
// among `ops` (a fact implied by two others is left out), ordered by a's completion.
// Quadratic in the number of ops plus the facts' cost; cores are small.
std::vector<RealTimeFact> real_time_facts(std::span<const Operation* const> ops);

}  // namespace ariadne::explain
