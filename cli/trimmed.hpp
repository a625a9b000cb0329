// Option values without the white space a script may leave around them.
#pragma once

#include <string_view>

namespace ariadne::cli {

// `text` without ASCII white space at either end: space, tab, carriage return, line
// feed, form feed, vertical tab (not std::isspace, whose answer depends on the locale).
inline std::string_view trimmed(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n\f\v";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) + 1 - first);
}

}  // namespace ariadne::cli
