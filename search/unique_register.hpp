// Gibbons and Korach's test for a read/write register whose written values are
// unique [GibbonsKorach97: P. B. Gibbons and E. Korach, "Testing Shared Memories",
// SIAM J. Comput. 26(4), 1997], in O(n log n), with an explicit linearization or the
// few ops that refute it.
//
// Each value v has a cluster: its one write and the reads that return it (the initial
// value: its reads, written "before time"). Let f be the earliest completion and s
// the latest invocation among the cluster's ops. If f < s the cluster has a *forward
// zone* [f, s]: the write takes effect before f (the op completing at f is the write
// or a read needing it) and a read takes effect after s, and no other value can be
// written in between, so v is current throughout [f, s]. If s < f, a *backward zone*
// [s, f]: every op of the cluster is pending throughout it, and v must be current at
// some moment of it (the op invoked at s takes effect after s, the one completing at
// f before f, and v is current from its write to its last read). Hence the history is
// linearizable iff (1) no read completes before its value's write is invoked (or
// reads a value nobody writes), (2) no two forward zones intersect, and (3) no
// backward zone lies inside a forward zone. When they hold, an order is built by
// giving every op a point strictly inside its interval: a forward cluster's write
// just before f and each read inside [f, s] and its own interval; a backward cluster
// all at one point of its zone outside every forward zone (one exists by (3), the
// forward zones being disjoint by (2), and event positions distinct). Sorted by
// point, the clusters come out one block each, write first; real time holds because
// every point lies inside its op's interval.
//
// Crashed ops: a crashed read may never take effect, so it is dropped. A crashed
// write nobody reads is dropped too: taking effect would only put in the register a
// value no read returns, which can never let a read see what it saw. A crashed write
// that some read returns took effect (before that read): it stays, with no
// completion. Anything else (a value written twice or also the initial value, a cas,
// an etcd failed cas, an append, several keys) is declined with a reason, at once:
// the test never guesses.
#pragma once

#include <ariadne/history.hpp>

#include "models/semantics.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace ariadne::search {

struct UniqueRegisterAnalysis {
  enum class Answer : std::uint8_t { linearizable, not_linearizable, declined, stopped };
  Answer answer = Answer::declined;
  // linearizable: indices into the ops analysed, in order (dropped crashed ops left
  // out).
  std::vector<std::uint32_t> order;
  // not_linearizable: the ops of the violated condition (indices, ascending), a
  // small set that is not linearizable by itself; `why` says which condition.
  std::vector<std::uint32_t> violation;
  std::string why;  // also the reason for declining
};

// `ops` in ascending call order (one partition), `semantics` their meaning. With
// `should_stop`, polled every few thousand ops, answers `stopped` once it says so.
UniqueRegisterAnalysis analyse_unique_register(std::span<const Operation* const> ops,
                                               const models::Semantics& semantics,
                                               const std::function<bool()>& should_stop = {});

}  // namespace ariadne::search
