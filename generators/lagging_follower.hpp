// Lagging followers: a register replicated by a leader and followers, where writes go
// through the leader and reads are served by followers that apply the leader's log in
// order, some entries behind. This is what a store read from its followers does
// (stale reads are its documented behaviour), and it is the standard example of a
// history that is sequentially consistent and not linearizable.
//
// Writer processes only write (to the leader, which appends each write to its log at
// the moment the write completes); reader processes only read, each always from the
// same follower ("sticky sessions"), which returns the value at the log entry it has
// applied. Followers advance at random and never fall more than `max_lag` entries
// behind.
//
// Verdicts by construction (values are unique):
// - Sequentially consistent: order the writes as the log does (each writer's writes
//   are in its own order there, since a write completes before its process's next one
//   begins), and put each read right after the write of the value it returned. Every
//   reader's reads are in its own order, since its follower only moves forward.
// - Not linearizable: the generator finds a read that returned value v although a
//   write w2 completed before the read began, and w2 began after the write of v
//   completed, so every order puts w(v), w2, the read, in that order, and nothing
//   writes v again. (If the simulation produced no such read it says so and fails.)
// - With `violation`, one reader reads once from a follower further behind (a session
//   that moved): after reading v_b it reads v_a, an older value written by the same
//   writer as v_b, before it (or the initial value). Program order then puts w(v_a)
//   before w(v_b) before both reads, so the second read cannot see v_a: not
//   sequentially consistent, and so not linearizable either.
#pragma once

#include "generators/generated_history.hpp"

#include <cstddef>
#include <cstdint>

namespace ariadne::generators {

struct LaggingFollowerShape {
  std::size_t operations = 2000;
  std::size_t writers = 3;    // processes that write, through the leader
  std::size_t readers = 6;    // processes that read, each from one follower
  std::size_t followers = 3;  // reader i reads from follower i mod followers
  std::size_t max_lag = 20;   // how many log entries a follower may be behind
  bool violation = false;     // one reader moves to a follower further behind
  std::uint64_t seed = 1;
};

// The model is "register(0)". Throws UsageError for a shape with no operations,
// writers, readers or followers, or when no read came out certainly stale (raise
// --max-lag or --ops), or when a violation is asked of a history whose readers never
// read twice after a write.
GeneratedHistory generate_lagging_follower(const LaggingFollowerShape& shape);

}  // namespace ariadne::generators
