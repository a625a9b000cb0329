// What the command line needs to know about the terminal it writes to: whether a
// stream is one, whether colour is wanted, and how wide it is. Colour follows the
// NO_COLOR convention (https://no-color.org): only on a terminal, and never when
// NO_COLOR is set, so piped output and logs stay plain text.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace ariadne::answer {

bool is_terminal(std::FILE* stream);
// Columns of the terminal behind `stream`, or `fallback` when unknown.
unsigned terminal_width(std::FILE* stream, unsigned fallback = 80);

// Wraps text in ANSI styles, or passes it through unchanged when colour is off.
class Style {
 public:
  explicit Style(bool enabled) : enabled_(enabled) {}
  // Colour for `stream` per the NO_COLOR convention.
  static Style for_stream(std::FILE* stream);

  std::string bold(std::string_view text) const { return wrap("1", text); }
  std::string dim(std::string_view text) const { return wrap("2", text); }
  std::string green(std::string_view text) const { return wrap("1;32", text); }
  std::string red(std::string_view text) const { return wrap("1;31", text); }
  std::string yellow(std::string_view text) const { return wrap("1;33", text); }

 private:
  std::string wrap(std::string_view code, std::string_view text) const;
  bool enabled_;
};

// Columns `text` occupies on a terminal: code points, not counting ANSI escape
// sequences. Wide characters are rare in histories, so they count as one.
std::size_t display_width(std::string_view text);

}  // namespace ariadne::answer
