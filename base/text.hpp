// Small text helpers every reader and option parser needs, in one place.
#pragma once

#include <string_view>

namespace ariadne::base {

// ASCII white space: space, tab, carriage return, line feed, form feed, vertical tab.
// Not std::isspace, whose answer depends on the locale.
constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

// `text` without the white space at either end.
constexpr std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace ariadne::base
