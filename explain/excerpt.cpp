#include "explain/excerpt.hpp"

#include <algorithm>

namespace ariadne::explain {

namespace {

// Moves `at` back to the first byte of the UTF-8 character it falls in.
std::size_t character_start(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0U) == 0x80U) --at;
  return at;
}

}  // namespace

std::string excerpt_near_difference(std::string_view text, std::string_view other, std::size_t width) {
  if (text.size() <= width) return std::string(text);
  const auto* const mismatch = std::mismatch(text.begin(), text.end(), other.begin(), other.end()).first;
  const auto differs_at = static_cast<std::size_t>(mismatch - text.begin());
  // A third of the window before the difference, for the context that agrees.
  std::size_t begin = differs_at > width / 3 ? differs_at - width / 3 : 0;
  begin = std::min(begin, text.size() - width);
  begin = character_start(text, begin);
  const std::size_t end = character_start(text, std::min(text.size(), begin + width));
  std::string out;
  if (begin > 0) out += "…";
  out += text.substr(begin, end - begin);
  if (end < text.size()) out += "…";
  return out;
}

}  // namespace ariadne::explain
