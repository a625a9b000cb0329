#include "answer/paragraph.hpp"

namespace ariadne::answer {

std::string fill_words(std::string_view text, std::size_t width, std::string_view indent) {
  std::string out;
  std::string line;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(at, end - at);
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out.append(indent).append(line).append("\n");
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line.append(word);
    at = end + 1;
  }
  out.append(indent).append(line).append("\n");
  return out;
}

}  // namespace ariadne::answer
