// The JSON fast path (flat_json_object.hpp). Each rule is the general parser's
// (json_reader.cpp) restricted to one line: the same whitespace, the same number
// grammar, the same string bytes; anything else declines.
#include "history/flat_json_object.hpp"

#include "history/scan_room.hpp"

namespace ariadne {

namespace {

constexpr int kMaxFastJsonDepth = 64;

// JSON whitespace within a line; a line break ends the fast path's reach.
bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

void skip_json_space(const char*& p, const char* end) {
  while (p < end && is_json_space(*p)) ++p;
}

// A string of printable ASCII with no escape: the bytes between the quotes are the
// string. Returns false for anything the general parser must decode or refuse.
bool plain_string(const char*& p, const char* end, std::string_view& out) {
  const char* open = ++p;
  // A string of megabytes is the general parser's, which asks for room to copy it.
  if (end - open > static_cast<std::ptrdiff_t>(kScanChunk)) end = open + kScanChunk;
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') {
      out = {open, static_cast<std::size_t>(p - open)};
      ++p;
      return true;
    }
    if (c < 0x20 || c >= 0x80 || c == '\\') return false;
    ++p;
  }
  return false;
}

bool is_word_byte(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
}

}  // namespace

bool FlatJsonObjectReader::read_value(const char*& p, const char* end, Value& out, int depth) {
  if (p >= end || depth > kMaxFastJsonDepth) return false;
  const char c = *p;
  if (c == '"') {
    std::string_view content;
    if (!plain_string(p, end, content)) return false;
    out = recent_.string(content);
    return true;
  }
  if (c == '[') {
    ++p;
    std::vector<Value> elements;
    skip_json_space(p, end);
    if (p < end && *p == ']') {
      ++p;
      out = Value::vector({});
      return true;
    }
    for (;;) {
      skip_json_space(p, end);
      Value element;
      if (!read_value(p, end, element, depth + 1)) return false;
      elements.push_back(std::move(element));
      skip_json_space(p, end);
      if (p >= end) return false;
      if (*p == ']') {
        ++p;
        out = Value::vector(std::move(elements));
        return true;
      }
      if (*p != ',') return false;
      ++p;
    }
  }
  // A word: the general parser reads the same run of bytes as one token.
  const char* begin = p;
  while (p < end && is_word_byte(*p)) ++p;
  const std::string_view word(begin, static_cast<std::size_t>(p - begin));
  if (word == "null") {
    out = Value();
    return true;
  }
  if (word == "true" || word == "false") {
    out = Value::boolean(word == "true");
    return true;
  }
  // -?(0|[1-9][0-9]*), at most 18 digits: an integer that fits; the rest declines.
  std::size_t i = !word.empty() && word[0] == '-' ? 1 : 0;
  const std::size_t digits = word.size() - i;
  if (digits == 0 || digits > 18 || (digits > 1 && word[i] == '0')) return false;
  std::int64_t n = 0;
  for (; i < word.size(); ++i) {
    if (word[i] < '0' || word[i] > '9') return false;
    n = n * 10 + (word[i] - '0');
  }
  out = Value::integer(word[0] == '-' ? -n : n);
  return true;
}

// The end of the line that holds text[at]. JSON writers (Python's json.dump, Go's
// json.Marshal) put a whole history on one line: looking for the line's end from
// each object would read the rest of the file once per event, so the end found is
// kept for the objects after it on the same line.
const char* FlatJsonObjectReader::line_end(std::string_view text, std::size_t at) {
  const char* from = text.data() + at;
  if (text.data() != line_text_ || from >= line_end_ || from < line_begin_) {
    line_text_ = text.data();
    line_begin_ = from;
    line_end_ = find_line_end(from, text.data() + text.size(), limits_);
  }
  return line_end_;
}

std::size_t FlatJsonObjectReader::read(std::string_view text, std::size_t at) {
  const char* p = text.data() + at + 1;  // past the '{'
  const char* end = line_end(text, at);
  members.clear();
  skip_json_space(p, end);
  if (p < end && *p == '}') return static_cast<std::size_t>(p + 1 - text.data());
  for (;;) {
    skip_json_space(p, end);
    std::string_view key;
    if (p >= end || *p != '"' || !plain_string(p, end, key)) return 0;
    skip_json_space(p, end);
    if (p >= end || *p != ':') return 0;
    ++p;
    skip_json_space(p, end);
    Value value;
    if (!read_value(p, end, value, 1)) return 0;
    // A name given twice is an error the general parser words (json_reader.cpp).
    for (const auto& member : members) {
      if (member.first == key) return 0;
    }
    members.emplace_back(key, std::move(value));
    skip_json_space(p, end);
    if (p >= end) return 0;
    if (*p == '}') return static_cast<std::size_t>(p + 1 - text.data());
    if (*p != ',') return 0;
    ++p;
  }
}

}  // namespace ariadne
