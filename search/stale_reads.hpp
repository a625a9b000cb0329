// Stale reads by real time alone, for registers: a read of v that no write of v can
// explain, because every write of v that real time allows before the read was
// overwritten, in real time, before the read began (Gibbons and Korach's write,
// overwrite, read, SIAM J. Comput. 1997, with repeated values and crashed writes).
// Found in O(n log n) with no search, each stale read refutes the history, and the
// few ops around it seed its minimal core. The soundness argument is in
// stale_reads.cpp.
#pragma once

#include <ariadne/history.hpp>

#include "models/semantics.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace ariadne::search {

// `semantics` describes `ops` in its first entries and, when it has 2n of them, each
// op's relaxed twin in entry n + i (refute/relevant_relaxed.hpp); without twins, a
// seed holds only the ops whose recorded meaning could write the value read.

// Registers: for each value the op `failing_op` read (an index into `ops`), the seed
// made of it, every op whose relaxed twin could write that value to that key (relaxed,
// any of them could supply it at any moment), and for the writes of it that completed
// before the read began (the initial value included), writes of other values that
// came between them and the read in real time: one that follows them all if there is
// one, else one after each. Empty for other models.
std::vector<std::vector<std::uint32_t>> reads_from_seeds(std::span<const Operation* const> ops,
                                                         const models::Semantics* semantics, std::uint32_t failing_op);

// Registers, without a failing op: the stale reads of the whole partition, found by
// real time alone, each as the seed reads_from_seeds() would make of it, at most
// `limit` of them, earliest read first. A read of v at key k is stale here when every
// op that could leave v in k as recorded (a completed write of v, a cas to v that is
// not also a read of v, the initial value) either was invoked after the read
// completed or completed before it began with a completed overwrite (a write of
// another value to k) between them in real time, and no crashed op that could write
// v was invoked before the read completed. Each such seed is a core (the argument is
// in stale_reads.cpp), so the caller's first decision of it refutes it; seeds are
// still decided before use. With repeated values this is what makes a core of a
// partition of thousands of ops cheap: the failing-op search may not finish within
// its budget, and without it the first core would be the partition itself.
// O(n log n) in the partition's size, plus O(n) per seed made.
std::vector<std::vector<std::uint32_t>> stale_read_seeds(std::span<const Operation* const> ops,
                                                         const models::Semantics* semantics, std::size_t limit,
                                                         const std::function<bool()>& should_stop = {});

// The stale reads themselves, as stale_read_seeds() finds them, without their seeds:
// the op (an index into `ops`) and which of its reads (reads_from_seeds() makes one
// seed per read, in this order). The test reads only the recorded meanings, so
// `semantics` need not describe twins; a seed for the relaxed history needs them.
struct StaleRead {
  std::uint32_t op = 0;
  std::size_t read = 0;
};
std::vector<StaleRead> stale_reads(std::span<const Operation* const> ops, const models::Semantics* semantics,
                                   std::size_t limit, const std::function<bool()>& should_stop = {});

}  // namespace ariadne::search
