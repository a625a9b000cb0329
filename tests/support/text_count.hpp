// How often a piece of text occurs in a report, for tests that check a line is
// printed once per row, analyzer or operation, not merely somewhere.
#pragma once

#include <cstddef>
#include <string>

namespace ariadne::testing {

// Occurrences of `needle` in `text`, overlapping ones included.
inline std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace ariadne::testing
