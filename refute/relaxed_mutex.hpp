// Deciding a relaxed mutex history (relaxed_history.hpp) in one sweep over its events,
// instead of a search.
//
// A mutex's ops carry no values: a linearization is an alternation acquire, release,
// acquire... from the free lock, each op that took effect placed at a point inside
// its interval. Ops of one kind differ only in their intervals, and a crashed op
// (a relaxed twin, or a kept op that never completed) may take effect at any point
// after its call, or never. The sweep places every op that must take effect as late
// as it may, just before its return, and only what that needs before it: when the
// lock is not in the state the op needs, one op of the other kind first, the pending
// one that must take effect and returns soonest, or else a crashed one. If there is
// none, no linearization exists. This answers both ways, in time linear in the ops
// (and a log for the queue of pending ops), where WGL takes milliseconds on a 264-op
// mutex history, for each of the hundreds of questions a minimal core asks.
//
// Why the sweep finds a linearization whenever one exists (the exchange arguments
// are in relaxed_mutex.cpp), and why an answer cannot differ from the search's: both
// decide the same relaxed history, and a linearization the sweep returns is replayed
// against alternation and real time before it is trusted.
#pragma once

#include "refute/relaxed_check.hpp"
#include "refute/relaxed_history.hpp"
#include "refute/relevant_relaxed.hpp"

namespace ariadne::refute {

// `relaxed`: a relaxed history of the partition `relevance` describes (relax() or
// RelaxedChecker::relaxed_of()). Undecided when the partition is not a mutex's
// (relevance has no semantics, or another theory).
RelaxedDecision decide_mutex_by_sweep(const RelaxedHistory& relaxed, const RelaxedRelevance& relevance);

}  // namespace ariadne::refute
