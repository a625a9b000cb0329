// The EDN reader: a hand-written scanner plus an explicit stack of open collections.
//
// Values are built bottom-up: an opener pushes a frame, an atom or a closed collection
// is delivered to the innermost frame. Tags (`#inst "..."`) and discards (`#_ x`) are
// frames too, waiting for one value to keep or to drop, which makes `#_ #_ a b c`
// read as `c` just as in Clojure. Where the EDN specification leaves room, the reader
// follows Clojure's reader, since that is what wrote the histories: `1.` is a float,
// `12N` a (big) integer, `12M` a float, and tokens end at Clojure's delimiters.
#include "history/edn_reader.hpp"

#include "history/edn_chars.hpp"
#include "history/scan_room.hpp"

#include <ariadne/history.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <utility>

namespace ariadne::edn {

namespace {

bool is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string describe_byte(unsigned char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  static const char* const kHex = "0123456789abcdef";
  return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15];
}

int parse_hex4(std::string_view text, std::size_t at) {
  if (at + 4 > text.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    const char c = text[i];
    int digit;
    if (c >= '0' && c <= '9')
      digit = c - '0';
    else if (c >= 'a' && c <= 'f')
      digit = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      digit = c - 'A' + 10;
    else
      return -1;
    value = value * 16 + digit;
  }
  return value;
}

bool is_surrogate(int code) { return code >= 0xD800 && code <= 0xDFFF; }

// Length of the UTF-8 sequence a lead byte announces (1 for anything else).
std::size_t utf8_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

std::string format_pos(SourcePos pos) { return std::to_string(pos.line) + ":" + std::to_string(pos.column); }

UnicodeEscape decode_unicode_escape(std::string_view text, std::size_t at, std::string& out) {
  const int code = parse_hex4(text, at);
  if (code < 0) return {0, "invalid \\u escape: expected four hex digits"};
  if (code >= 0xD800 && code <= 0xDBFF && text.substr(at + 4, 2) == "\\u") {
    const int low = parse_hex4(text, at + 6);
    if (low >= 0xDC00 && low <= 0xDFFF) {
      append_utf8(out, static_cast<char32_t>(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)));
      return {10, nullptr};
    }
  }
  if (is_surrogate(code)) return {0, "unpaired surrogate in \\u escape"};
  append_utf8(out, static_cast<char32_t>(code));
  return {4, nullptr};
}

Reader::Reader(std::string_view text, std::string source, SourcePos start, std::string_view end_name)
    : source_(std::move(source)), end_name_(end_name) {
  restart(text, start);
  // A byte-order mark is invisible in editors, so columns count from after it.
  if (start.line == 1 && start.column == 1 && text_.starts_with("\xEF\xBB\xBF")) {
    at_ = 3;
    line_start_ = 3;
  }
}

void Reader::restart(std::string_view text, SourcePos start) {
  text_ = text;
  at_ = 0;
  line_ = start.line;
  line_start_ = -static_cast<std::ptrdiff_t>(start.column) + 1;
}

void Reader::seek(std::size_t offset, SourcePos pos) {
  at_ = offset;
  line_ = pos.line;
  line_start_ = static_cast<std::ptrdiff_t>(offset) - static_cast<std::ptrdiff_t>(pos.column) + 1;
}

SourcePos Reader::position() const {
  return {line_, static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(at_) - line_start_ + 1)};
}

void Reader::fail(SourcePos pos, const std::string& message) const { throw InputError(source_, pos, message); }

void Reader::advance_line(std::size_t newline_offset) {
  ++line_;
  line_start_ = static_cast<std::ptrdiff_t>(newline_offset) + 1;
}

void Reader::skip_whitespace() {
  while (at_ < text_.size()) {
    const char c = text_[at_];
    if (c == '\n') {
      advance_line(at_);
      ++at_;
    } else if (is_whitespace(static_cast<unsigned char>(c))) {
      ++at_;
    } else if (c == ';') {
      at_ = find_line_end(text_, at_, limits_);
    } else {
      break;
    }
  }
}

void Reader::skip_ignorable() {
  for (;;) {
    skip_whitespace();
    if (peek_at(at_) != '#' || peek_at(at_ + 1) != '_') return;
    at_ += 2;
    skip_whitespace();
    if (at_ >= text_.size()) {
      fail(position(), "expected a form after #_, found " + std::string(end_name_));
    }
    read();  // the discarded form
  }
}

bool Reader::at_end() {
  skip_ignorable();
  return at_ >= text_.size();
}

std::string_view Reader::scan_token() {
  const std::size_t begin = at_;
  at_ = scan_token_end(text_, at_, limits_, [](char c) { return !is_terminator(static_cast<unsigned char>(c)); });
  return text_.substr(begin, at_ - begin);
}

std::string Reader::describe_next() const {
  if (at_ >= text_.size()) return std::string(end_name_);
  const auto c = static_cast<unsigned char>(text_[at_]);
  if (is_terminator(c) || c < 0x20 || c == 0x7f) return describe_byte(c);
  std::size_t end = at_;
  while (end < text_.size() && !is_terminator(static_cast<unsigned char>(text_[end]))) ++end;
  constexpr std::size_t kShown = 24;
  if (end - at_ > kShown) return "'" + std::string(text_.substr(at_, kShown)) + "...'";
  return "'" + std::string(text_.substr(at_, end - at_)) + "'";
}

void Reader::push_frame(std::vector<Frame>& frames, FrameKind kind, SourcePos open, std::string tag) {
  if (frames.size() >= kMaxNestingDepth) {
    fail(open, "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels");
  }
  frames.push_back(Frame{kind, open, {}, std::move(tag)});
}

const char* Reader::collection_name(FrameKind kind) {
  switch (kind) {
    case FrameKind::vector: return "vector";
    case FrameKind::list: return "list";
    case FrameKind::set: return "set";
    default: return "map";
  }
}

char Reader::closer_of(FrameKind kind) {
  switch (kind) {
    case FrameKind::vector: return ']';
    case FrameKind::list: return ')';
    default: return '}';
  }
}

Value Reader::close_frame(std::vector<Frame>& frames, char closer, SourcePos at) {
  const std::string found = describe_byte(static_cast<unsigned char>(closer));
  if (frames.empty()) fail(at, "expected a value, found " + found);
  Frame& top = frames.back();
  if (top.kind == FrameKind::tag) fail(at, "expected a value after #" + top.tag + ", found " + found);
  if (top.kind == FrameKind::discard) fail(at, "expected a form after #_, found " + found);
  if (closer != closer_of(top.kind)) fail_wrong_closer(collection_name(top.kind), closer_of(top.kind), top.open);
  ++at_;
  Value value;
  switch (top.kind) {
    case FrameKind::vector: value = Value::vector(std::move(top.items)); break;
    case FrameKind::list: value = Value::list(std::move(top.items)); break;
    case FrameKind::set: value = Value::set(std::move(top.items)); break;
    default: {
      if (top.items.size() % 2 != 0) fail(top.open, "map literal has an odd number of forms");
      std::vector<Value::Entry> entries;
      entries.reserve(top.items.size() / 2);
      for (std::size_t i = 0; i < top.items.size(); i += 2) {
        entries.emplace_back(std::move(top.items[i]), std::move(top.items[i + 1]));
      }
      value = Value::map(std::move(entries));
    }
  }
  frames.pop_back();
  return value;
}

void Reader::fail_unterminated(const char* name, char closer, SourcePos open) const {
  fail(position(), std::string("unterminated ") + name + ": expected '" + closer + "' before " +
                       std::string(end_name_) + " (opened at " + format_pos(open) + ")");
}

void Reader::fail_wrong_closer(const char* name, char closer, SourcePos open) const {
  fail(position(), std::string("expected '") + closer + "' to close the " + name + " opened at " + format_pos(open) +
                       ", found " + describe_byte(static_cast<unsigned char>(text_[at_])));
}

void Reader::fail_at_end(const std::vector<Frame>& frames) const {
  const std::string end(end_name_);
  if (frames.empty()) fail(position(), "expected a value, found " + end);
  const Frame& top = frames.back();
  if (top.kind == FrameKind::tag) fail(position(), "expected a value after #" + top.tag + ", found " + end);
  if (top.kind == FrameKind::discard) fail(position(), "expected a form after #_, found " + end);
  fail_unterminated(collection_name(top.kind), closer_of(top.kind), top.open);
}

Value Reader::read() {
  std::vector<Frame> frames;
  for (;;) {
    skip_whitespace();
    if (at_ >= text_.size()) fail_at_end(frames);
    const SourcePos start = position();
    const char c = text_[at_];
    Value value;
    switch (c) {
      case '[':
        push_frame(frames, FrameKind::vector, start);
        ++at_;
        continue;
      case '(':
        push_frame(frames, FrameKind::list, start);
        ++at_;
        continue;
      case '{':
        push_frame(frames, FrameKind::map, start);
        ++at_;
        continue;
      case ']':
      case ')':
      case '}': value = close_frame(frames, c, start); break;
      case '#': {
        const auto next = static_cast<unsigned char>(peek_at(at_ + 1));
        if (next == '{') {
          push_frame(frames, FrameKind::set, start);
          at_ += 2;
          continue;
        }
        if (next == '_') {
          push_frame(frames, FrameKind::discard, start);
          at_ += 2;
          continue;
        }
        if (next == '#') {
          value = read_symbolic(start);
          break;
        }
        if (is_alpha(next)) {
          ++at_;
          const std::string_view tag = scan_token();
          if (!is_valid_name(tag)) fail(start, "invalid tag '#" + std::string(tag) + "'");
          push_frame(frames, FrameKind::tag, start, std::string(tag));
          continue;
        }
        ++at_;
        fail(start, "unsupported dispatch '#' followed by " + describe_next() +
                        ": EDN allows #{...}, #_, ##Inf, ##-Inf, ##NaN and #tag");
      }
      default: value = read_atom(start);
    }
    // Deliver the value to the innermost frame that wants it.
    for (;;) {
      if (frames.empty()) return value;
      Frame& top = frames.back();
      if (top.kind == FrameKind::tag) {  // the tag is dropped, the tagged value kept
        frames.pop_back();
        continue;
      }
      if (top.kind == FrameKind::discard) {
        frames.pop_back();
        break;
      }
      top.items.push_back(std::move(value));
      break;
    }
  }
}

std::optional<Reader::Collection> Reader::open_collection(std::string_view openers) {
  skip_ignorable();
  const char c = peek_at(at_);
  if (c == '\0' || openers.find(c) == std::string_view::npos) return std::nullopt;
  const SourcePos open = position();
  ++at_;
  switch (c) {
    case '[': return Collection{']', "vector", open};
    case '(': return Collection{')', "list", open};
    default: return Collection{'}', "map", open};
  }
}

bool Reader::more_items(const Collection& collection) {
  skip_ignorable();
  if (at_ >= text_.size()) fail_unterminated(collection.name, collection.closer, collection.open);
  const char c = text_[at_];
  if (c != ']' && c != ')' && c != '}') return true;
  if (c != collection.closer) fail_wrong_closer(collection.name, collection.closer, collection.open);
  return false;
}

void Reader::close(const Collection& collection) {
  if (more_items(collection))
    fail(position(), std::string("expected '") + collection.closer + "', found " + describe_next());
  ++at_;
}

Value Reader::read_atom(SourcePos start) {
  const auto c = static_cast<unsigned char>(text_[at_]);
  const auto next = static_cast<unsigned char>(peek_at(at_ + 1));
  if (c == '"') return read_string(start);
  if (c == ':') return read_keyword(start);
  if (c == '\\') return read_character(start);
  if (is_digit(c) || ((c == '+' || c == '-' || c == '.') && is_digit(next))) return read_number(start);
  if (is_symbol_char(c) && c != '#' && c != ':' && c != '\'') return read_symbol(start);
  fail(start, "expected a value, found " + describe_byte(c));
}

Value Reader::read_string(SourcePos start) {
  ++at_;  // the opening quote
  {
    // The common case, a short string with no escape or newline, shares the Value of
    // an equal string read recently instead of allocating its own.
    std::size_t close = at_;
    while (close < text_.size() && close - at_ <= RecentValues::kSharedStringMax && text_[close] != '"' &&
           text_[close] != '\\' && text_[close] != '\n') {
      ++close;
    }
    if (close < text_.size() && text_[close] == '"' && close - at_ <= RecentValues::kSharedStringMax) {
      const std::string_view content = text_.substr(at_, close - at_);
      at_ = close + 1;
      return recent_strings_.string(content);
    }
  }
  std::string out;
  for (;;) {
    std::size_t run = at_;
    const std::size_t stop = std::min(text_.size(), at_ + kScanChunk);
    while (run < stop && text_[run] != '"' && text_[run] != '\\' && text_[run] != '\n') ++run;
    out.append(text_.substr(at_, run - at_));
    at_ = run;
    if (run == stop && stop < text_.size()) {
      // A string of megabytes: the bytes read, and the copy, must fit.
      require_room(limits_, out.size());
      continue;
    }
    if (at_ >= text_.size() || (text_[at_] == '\\' && at_ + 1 >= text_.size())) {
      at_ = text_.size();
      fail(position(), "unterminated string: expected '\"' before " + std::string(end_name_) + " (opened at " +
                           format_pos(start) + ")");
    }
    const char c = text_[at_];
    if (c == '"') {
      ++at_;
      return Value::string(std::move(out));
    }
    if (c == '\n') {
      out += '\n';
      advance_line(at_);
      ++at_;
      continue;
    }
    const SourcePos escape = position();
    const char e = text_[at_ + 1];
    switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        const UnicodeEscape decoded = decode_unicode_escape(text_, at_ + 2, out);
        if (decoded.error) fail(escape, std::string(decoded.error) + " in string");
        at_ += 2 + decoded.length;
        continue;
      }
      default:
        fail(escape, "invalid escape '\\" + std::string(1, e) +
                         "' in string (EDN allows \\\" \\\\ \\n \\t \\r \\b \\f and \\uXXXX)");
    }
    at_ += 2;
  }
}

Value Reader::read_character(SourcePos start) {
  ++at_;  // the backslash
  if (at_ >= text_.size() || is_whitespace(static_cast<unsigned char>(text_[at_]))) {
    fail(start, "expected a character after '\\', found " + describe_next());
  }
  const std::size_t begin = at_;
  const auto first = static_cast<unsigned char>(text_[at_]);
  at_ = std::min(text_.size(), at_ + utf8_length(first));
  const std::size_t first_end = at_;
  // A letter may start a name (\newline, \u00e9); a delimiter is a character by itself.
  if (!is_terminator(first)) {
    while (at_ < text_.size() && !is_terminator(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  const std::string_view name = text_.substr(begin, at_ - begin);
  if (at_ == first_end) return Value::string(std::string(name));
  static const std::pair<std::string_view, const char*> kNamed[] = {
      {"newline", "\n"}, {"space", " "}, {"tab", "\t"}, {"return", "\r"}, {"backspace", "\b"}, {"formfeed", "\f"}};
  for (const auto& [n, text] : kNamed) {
    if (name == n) return Value::string(text);
  }
  if (name.size() == 5 && name[0] == 'u') {
    const int code = parse_hex4(name, 1);
    if (code >= 0 && !is_surrogate(code)) {
      std::string out;
      append_utf8(out, static_cast<char32_t>(code));
      return Value::string(std::move(out));
    }
  }
  fail(start, "invalid character literal '\\" + std::string(name) + "'");
}

Value Reader::read_number(SourcePos start) {
  const std::string_view token = scan_token();
  auto invalid = [&](const std::string& why) { fail(start, "invalid number '" + std::string(token) + "'" + why); };
  std::size_t i = 0;
  const bool negative = token[0] == '-';
  if (token[0] == '+' || token[0] == '-') ++i;
  const std::size_t digits_begin = i;
  while (i < token.size() && is_digit(token[i])) ++i;
  const std::size_t digits_end = i;
  if (digits_end == digits_begin) invalid("");

  if (i == token.size() || (token[i] == 'N' && i + 1 == token.size())) {
    const std::string_view digits = token.substr(digits_begin, digits_end - digits_begin);
    if (digits.size() > 1 && digits[0] == '0') invalid(": an integer other than 0 cannot start with 0");
    // from_chars takes a '-' but not a '+', so parse from the sign only when negative.
    const std::size_t from = negative ? digits_begin - 1 : digits_begin;
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(token.data() + from, token.data() + digits_end, n);
    if (ec == std::errc::result_out_of_range) {
      return Value::big_integer((negative ? "-" : "") + std::string(digits));
    }
    return Value::integer(n);
  }

  if (token[i] == '.') {
    ++i;
    while (i < token.size() && is_digit(token[i])) ++i;
  }
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) ++i;
    const std::size_t exponent_begin = i;
    while (i < token.size() && is_digit(token[i])) ++i;
    if (i == exponent_begin) invalid("");
  }
  const std::size_t mantissa_end = i;
  if (i < token.size() && token[i] == 'M') ++i;  // BigDecimal in Clojure; a double here
  if (i != token.size()) invalid("");

  // A '+' exponent sign is fine for from_chars; only a leading '+' must be skipped.
  const std::size_t from = negative ? 0 : digits_begin;
  double d = 0;
  const auto [end, ec] = std::from_chars(token.data() + from, token.data() + mantissa_end, d);
  if (ec != std::errc() || end != token.data() + mantissa_end) {
    invalid(ec == std::errc::result_out_of_range ? ": out of range for a double" : "");
  }
  return Value::floating(d);
}

std::optional<std::string_view> Reader::read_keyword_name() {
  skip_ignorable();
  if (peek_at(at_) != ':' || peek_at(at_ + 1) == ':') return std::nullopt;  // "::" fails in read()
  const SourcePos start = position();
  ++at_;
  const std::string_view name = scan_token();
  if (name.empty()) fail(start, "expected a keyword name after ':', found " + describe_next());
  if (!is_valid_name(name)) fail(start, "invalid keyword ':" + std::string(name) + "'");
  return name;
}

Value Reader::read_keyword(SourcePos start) {
  ++at_;  // the colon
  const std::string_view name = scan_token();
  if (name.empty()) fail(start, "expected a keyword name after ':', found " + describe_next());
  if (name[0] == ':') fail(start, "invalid keyword ':" + std::string(name) + "' (auto-resolved keywords are not EDN)");
  // A history's few keywords (:process, :type, :invoke ...) come round every line: a
  // cheap look at a small cache by length and end bytes answers most without hashing.
  // Made at the first keyword: a reader whose ops all take the fast path reads none.
  if (recent_keywords_.empty()) recent_keywords_.resize(kRecentKeywords);
  Value& recent = recent_keywords_[(name.size() * 131 + static_cast<unsigned char>(name.front()) * 31 +
                                    static_cast<unsigned char>(name.back())) %
                                   recent_keywords_.size()];
  if (recent.is_keyword() && recent.text() == name) return recent;
  if (auto it = keywords_.find(name); it != keywords_.end()) return recent = it->second;
  if (!is_valid_name(name)) fail(start, "invalid keyword ':" + std::string(name) + "'");
  Value keyword = Value::keyword(std::string(name));
  keywords_.emplace(std::string(name), keyword);
  return recent = keyword;
}

Value Reader::read_symbolic(SourcePos start) {
  at_ += 2;  // "##"
  const std::string_view name = scan_token();
  if (name == "Inf") return Value::floating(std::numeric_limits<double>::infinity());
  if (name == "-Inf") return Value::floating(-std::numeric_limits<double>::infinity());
  if (name == "NaN") return Value::floating(std::numeric_limits<double>::quiet_NaN());
  fail(start, "invalid symbolic value '##" + std::string(name) + "', expected ##Inf, ##-Inf or ##NaN");
}

Value Reader::read_symbol(SourcePos start) {
  const std::string_view name = scan_token();
  if (name == "nil") return Value();
  if (name == "true") return Value::boolean(true);
  if (name == "false") return Value::boolean(false);
  if (!is_valid_name(name)) fail(start, "invalid symbol '" + std::string(name) + "'");
  // Printed at the start of a text, such a symbol would read back as a byte-order mark
  // and vanish (a fuzz finding, corpus/fuzz/fuzz_edn_value/symbol-starting-with-bom).
  if (name.starts_with("\xEF\xBB\xBF")) {
    fail(start,
         "invalid symbol: it starts with U+FEFF, the byte-order mark, which is allowed only at the start "
         "of the input");
  }
  return Value::symbol(std::string(name));
}

}  // namespace ariadne::edn

namespace ariadne {

namespace edn {

Value read_single_value(Reader& reader) {
  if (reader.at_end()) reader.fail(reader.position(), "expected a value, found end of input");
  Value value = reader.read();
  if (!reader.at_end()) {
    reader.fail(reader.position(), "expected a single value, found " + reader.describe_next() + " after it");
  }
  return value;
}

}  // namespace edn

Value parse_edn_value(std::string_view text, const std::string& source) {
  edn::Reader reader(text, source);
  return edn::read_single_value(reader);
}

}  // namespace ariadne
