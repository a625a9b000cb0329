// Knossos' :previous-ok, from an answer ariadne already has: the :ok op whose
// completion came last before the failing op's. Knossos computes it that way
// (knossos.analysis/previous-ok: walk back from the failing op's completion to the
// nearest :ok event), and its WGL search numbers :ok ops by completion, so the same op
// is "the highest contiguously linearized OK operation". Both hold here without a
// search of our own: the failing op's completion is the first event after which no
// order exists, so every op that completed before it, the previous ok included, lies
// in a linearizable prefix (CheckResult::failing_op).
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/result.hpp>

#include <optional>

namespace ariadne::answer {

// What :previous-ok says. `known` is false when it cannot be said: no failing op, or
// one the history lacks or that never completed, or a partitioned answer that does
// not name its failing partition's ops (a merge of key shards). When known, `op` is
// nullptr if no :ok op completed before the failing op (Knossos then gives nil).
struct PreviousOk {
  bool known = false;
  const Operation* op = nullptr;
};

// Looks only among the failing partition's ops (CheckResult::failing_partition_ops)
// when the answer names them: a key's Knossos check under jepsen.independent sees that
// key's ops alone, and an unpartitioned history's partition is all of it.
PreviousOk previous_ok(const History& history, const CheckResult& result);

}  // namespace ariadne::answer
