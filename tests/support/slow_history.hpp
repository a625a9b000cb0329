// A history that WGL alone cannot refute in any time a test waits for, for the tests
// of signals and limits: `writers` concurrent writes of 1, 2, ... and, overlapping
// them all, reads of 1, then 2, then 1 again in one process. With one write of each
// value the second read of 1 is impossible, but no op is impossible on its own (each
// read's value is written by a pending write), so WGL's lookahead cannot tell, and
// the search tries the subsets of the other writes: 2^(writers - 2) configurations.
// Crash storms, and a read of a value nobody wrote, served here until WGL learned to
// decide them in a second (issue 42). Its values are unique, so the unique-value test
// (--engine auto) refutes it at once: the tests that use it pick their engine.
#pragma once

#include "support/history_builder.hpp"

#include <ariadne/history.hpp>

#include <string>

namespace ariadne::testing {

inline EventScript wgl_slow_history(int writers = 40) {
  EventScript s;
  for (int p = 0; p < writers; ++p) s.invoke(p, "write", I(p + 1));
  for (const int value : {1, 2, 1}) s.invoke(writers, "read").ok(writers, "read", I(value));
  for (int p = 0; p < writers; ++p) s.ok(p, "write", I(p + 1));
  return s;
}

// The same as a file `ariadne corpus` reads: EDN events under the verdict and model.
inline std::string wgl_slow_history_edn(int writers = 40) {
  return "; expected: not-linearizable\n; model: register(0)\n" +
         format_events(wgl_slow_history(writers).log(), Format::edn);
}

}  // namespace ariadne::testing
