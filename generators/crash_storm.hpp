// Crash storms: histories of a compare-and-set register in which many writes crash.
//
// A crashed operation (an :info completion) may take effect at any point after its
// invocation, or never, so it stays open until the end of the history. Every crashed
// write therefore multiplies the choices a backtracking checker (Wing and Gong's
// search with Lowe's memo table, [Lowe17]; Knossos; Porcupine) must consider: which
// of the crashed writes took effect, and where. When reads observe the values of some
// crashed writes, the checker cannot discard them either. Jepsen histories recorded
// under network partitions look like this, and they are where checkers time out.
//
// The verdict is known by construction: the history is recorded from a simulated,
// truly atomic register, so it is linearizable; the stale-read variant changes one
// read to return a value that was provably overwritten before the read began, so it
// is not.
#pragma once

#include "generators/generated_history.hpp"

#include <cstddef>
#include <cstdint>

namespace ariadne::generators {

struct CrashStormShape {
  std::size_t operations = 2000;    // invocations, crashed writes included
  std::size_t crashed_writes = 50;  // writes that complete with :info
  std::size_t clients = 12;         // client processes running at once
  bool stale_read = false;          // make one read stale: not linearizable
  std::uint64_t seed = 1;
};

// The model is "cas-register(0)". Operations are reads, writes of fresh unique
// values, and cas [old new] with a fresh unique new value; failed cas complete with
// :fail. A client whose write crashed is retired, and its slot continues under process
// number old + clients, Jepsen's convention. The same shape gives the same history on
// every platform. Throws UsageError when there are no operations or no clients, when
// more writes should crash than there are operations, or when a stale read is asked
// of a history with no read that can be made stale (a few dozen operations suffice).
GeneratedHistory generate_crash_storm(const CrashStormShape& shape);

}  // namespace ariadne::generators
