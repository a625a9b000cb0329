// See op_links.hpp. A plain scan: at a word starting "op " or "ops " followed by a
// number, that number is a link; after "ops N", each ", M", " and M", ", and M",
// " or M" continues the list. A number must end its word ("op 12a" is no link) and fit
// an op id.
#include "report/op_links.hpp"

#include <charconv>

namespace ariadne::report {

namespace {

bool is_word_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The op id that starts at `at` and ends its word, and where it ends.
std::optional<std::pair<std::uint32_t, std::size_t>> id_at(std::string_view text, std::size_t at) {
  if (at >= text.size() || !is_digit(text[at])) return std::nullopt;
  std::uint32_t id = 0;
  const auto [end, error] = std::from_chars(text.data() + at, text.data() + text.size(), id);
  if (error != std::errc()) return std::nullopt;
  const auto stop = static_cast<std::size_t>(end - text.data());
  if (stop < text.size() && is_word_char(text[stop])) return std::nullopt;
  return std::pair{id, stop};
}

// The length of the list separator at `at` that a number follows, or 0.
std::size_t separator_at(std::string_view text, std::size_t at) {
  for (const std::string_view separator : {", and ", ", or ", " and ", " or ", ", "}) {
    if (text.substr(at, separator.size()) == separator && id_at(text, at + separator.size())) {
      return separator.size();
    }
  }
  return 0;
}

}  // namespace

std::vector<TextPiece> link_op_ids(std::string_view text) {
  std::vector<TextPiece> pieces;
  std::size_t plain = 0;  // where the text not yet in a piece starts
  const auto piece = [&](std::size_t from, std::size_t to, std::optional<std::uint32_t> op) {
    if (from > plain) pieces.push_back({std::string(text.substr(plain, from - plain)), std::nullopt});
    pieces.push_back({std::string(text.substr(from, to - from)), op});
    plain = to;
  };
  std::size_t i = 0;
  while (i + 3 < text.size()) {
    const bool word_start = i == 0 || !is_word_char(text[i - 1]);
    if (!word_start || (text[i] != 'o' && text[i] != 'O') || text[i + 1] != 'p') {
      ++i;
      continue;
    }
    const bool plural = text[i + 2] == 's';
    const std::size_t space = i + (plural ? 3 : 2);
    const auto first = space < text.size() && text[space] == ' ' ? id_at(text, space + 1) : std::nullopt;
    if (!first) {
      ++i;
      continue;
    }
    piece(i, first->second, first->first);
    i = first->second;
    while (plural) {
      const std::size_t length = separator_at(text, i);
      if (length == 0) break;
      const auto next = id_at(text, i + length);
      piece(i + length, next->second, next->first);
      i = next->second;
    }
  }
  if (plain < text.size()) pieces.push_back({std::string(text.substr(plain)), std::nullopt});
  return pieces;
}

}  // namespace ariadne::report
