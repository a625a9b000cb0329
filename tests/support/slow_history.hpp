// A history that WGL alone cannot refute in any time a test waits for, for the tests
// of signals and limits: `writers` concurrent writes of 1, 2, ... and, overlapping
// them all, reads of 1, then 2, then 1 again in one process. With one write of each
// value the second read of 1 is impossible, but no op is impossible on its own (each
// read's value is written by a pending write), so WGL's lookahead cannot tell, and
// the search tries the subsets of the other writes: 2^(writers - 2) configurations.
// Crash storms served here until WGL learned to decide them in a second (issue 42).
// Its values are unique, so the unique-value test (--engine auto) refutes it at once:
// the tests that use it pick their engine.
#pragma once

#include <string>

namespace ariadne::testing {

inline std::string wgl_slow_history_edn(int writers = 40) {
  std::string text = "; expected: not-linearizable\n; model: register(0)\n";
  for (int p = 0; p < writers; ++p) {
    text += "{:process " + std::to_string(p) + ", :type :invoke, :f :write, :value " + std::to_string(p + 1) + "}\n";
  }
  for (const int value : {1, 2, 1}) {
    const std::string reader = std::to_string(writers);
    text += "{:process " + reader + ", :type :invoke, :f :read, :value nil}\n";
    text += "{:process " + reader + ", :type :ok, :f :read, :value " + std::to_string(value) + "}\n";
  }
  for (int p = 0; p < writers; ++p) {
    text += "{:process " + std::to_string(p) + ", :type :ok, :f :write, :value " + std::to_string(p + 1) + "}\n";
  }
  return text;
}

}  // namespace ariadne::testing
