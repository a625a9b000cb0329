// A cursor over one line of a line-oriented history format (the Violin/LiMo log,
// fastlin's line format): it knows the line's number and each byte's column, so that
// every error names the place where the line stopped making sense, and says what was
// expected there.
#pragma once

#include <ariadne/errors.hpp>
#include <ariadne/value.hpp>

#include "base/text.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace ariadne {

class LineCursor {
 public:
  LineCursor(std::string_view line, std::uint32_t number, const std::string& source)
      : line_(line), number_(number), source_(source) {}

  void skip_spaces() {
    while (at_ < line_.size() && base::is_space(line_[at_])) ++at_;
  }
  bool at_end() const { return at_ >= line_.size(); }
  char peek() const { return at_end() ? '\0' : line_[at_]; }
  // Takes `c` if it is next.
  bool take(char c) {
    if (peek() != c || at_end()) return false;
    ++at_;
    return true;
  }
  // Takes the longest run of bytes `in_token` accepts (possibly none).
  template <class InToken>
  std::string_view take_while(InToken in_token) {
    const std::size_t begin = at_;
    while (at_ < line_.size() && in_token(line_[at_])) ++at_;
    return line_.substr(begin, at_ - begin);
  }
  // The place of the next byte, or just past the line's end.
  SourcePos pos() const { return {number_, static_cast<std::uint32_t>(at_ + 1)}; }
  SourcePos pos_at(std::size_t offset) const { return {number_, static_cast<std::uint32_t>(offset + 1)}; }
  std::size_t offset() const { return at_; }

  // An InputError at the next byte: "expected <what>, found '<text>'" (or "found the
  // end of the line").
  [[noreturn]] void expected(const std::string& what) const {
    const std::string_view rest = base::trim(line_.substr(at_));
    const std::string found = rest.empty() ? "the end of the line" : "'" + shorten(std::string(rest)) + "'";
    throw InputError(source_, pos(), "expected " + what + ", found " + found);
  }
  [[noreturn]] void fail_at(std::size_t offset, const std::string& message) const {
    throw InputError(source_, pos_at(offset), message);
  }

 private:
  std::string_view line_;
  std::size_t at_ = 0;
  std::uint32_t number_;
  const std::string& source_;
};

// Calls `visit(line, number, end_offset)` for each line of `text` (without its '\n'),
// numbered from 1, until it returns false; a leading byte-order mark is skipped.
template <class Visit>
void each_line(std::string_view text, Visit visit) {
  std::size_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  std::uint32_t number = 1;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    if (!visit(text.substr(at, end - at), number++, end)) return;
    at = end + 1;
  }
}

}  // namespace ariadne
