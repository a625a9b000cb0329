// Terminal detection, width and ANSI colour. See terminal.hpp.
#include "answer/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace ariadne::answer {

bool is_terminal(std::FILE* stream) { return ::isatty(::fileno(stream)) == 1; }

unsigned terminal_width(std::FILE* stream, unsigned fallback) {
  winsize size{};
  if (::ioctl(::fileno(stream), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return fallback;
}

Style Style::for_stream(std::FILE* stream) {
  // The convention says "set", not "set to something": even NO_COLOR= disables it.
  return Style(is_terminal(stream) && std::getenv("NO_COLOR") == nullptr);
}

std::string Style::wrap(std::string_view code, std::string_view text) const {
  if (!enabled_) return std::string(text);
  std::string out = "\x1b[";
  out += code;
  out += 'm';
  out += text;
  out += "\x1b[0m";
  return out;
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {
      // Skip a CSI sequence up to its final byte (0x40-0x7e).
      i += 2;
      while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e)) ++i;
      continue;
    }
    if ((c & 0xC0) != 0x80) ++width;  // count lead bytes only
  }
  return width;
}

}  // namespace ariadne::answer
