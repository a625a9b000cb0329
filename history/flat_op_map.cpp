// The fast path for op maps on one line (flat_op_map.hpp). Every rule here is the
// general reader's (edn_reader.cpp) restricted to what can be decided by looking at
// one line: tokens end at the same terminators (edn_chars.hpp), names are valid by the
// same test, integers follow the same rules, and the fields become an Event through
// the same OpMapFields. Where the general reader would do anything else (read past
// the line, build another kind of value, raise an error), this reader declines.
#include "history/flat_op_map.hpp"

#include "history/edn_chars.hpp"
#include "history/edn_history_reader.hpp"
#include "history/op_map_fields.hpp"
#include "history/scan_room.hpp"

#include <cstring>

namespace ariadne {

namespace {

// Nesting deeper than this is left to the general reader, which bounds it itself.
constexpr int kMaxFastEdnDepth = 64;

// Whitespace within a line: EDN's whitespace less the newline, which ends the line.
bool is_line_space(unsigned char c) { return c != '\n' && edn::is_whitespace(c); }

}  // namespace

struct FlatOpMapReader::Cursor {
  const char* p;
  const char* end;

  // The loops run on local copies: a char read may alias the cursor itself, so a loop
  // on the members would store the cursor back at every byte.
  void skip_space() {
    const char* q = p;
    const char* const stop = end;
    while (q < stop && is_line_space(static_cast<unsigned char>(*q))) ++q;
    p = q;
  }
  char peek() const { return p < end ? *p : '\0'; }
  // The token starting here, up to the next terminator (or the line's end).
  std::string_view token() {
    const char* const begin = p;
    const char* q = p;
    const char* const stop = end;
    while (q < stop && !edn::is_terminator(static_cast<unsigned char>(*q))) ++q;
    p = q;
    return {begin, static_cast<std::size_t>(q - begin)};
  }
};

bool FlatOpMapReader::read_keyword(Cursor& at, Value& out) {
  ++at.p;                              // the colon
  if (at.peek() == ':') return false;  // "::name" is an error the general reader words
  const std::string_view name = at.token();
  // A name of megabytes is the general reader's, which asks for room to copy it.
  return !name.empty() && name.size() <= kScanChunk && recent_.keyword(name, out, edn::is_valid_name);
}

bool FlatOpMapReader::read_string(Cursor& at, Value& out) {
  const char* open = at.p + 1;
  const auto* close = static_cast<const char*>(std::memchr(open, '"', static_cast<std::size_t>(at.end - open)));
  // A string that goes on past the line, or holds an escape, is the general reader's.
  if (close == nullptr) return false;
  const auto size = static_cast<std::size_t>(close - open);
  // A string of megabytes is the general reader's, which asks for room to copy it.
  if (size > kScanChunk || std::memchr(open, '\\', size) != nullptr) return false;
  at.p = close + 1;
  out = recent_.string({open, size});
  return true;
}

bool FlatOpMapReader::read_integer(Cursor& at, Value& out) {
  const std::string_view token = at.token();
  std::size_t i = token.front() == '-' ? 1 : 0;
  const std::size_t digits = token.size() - i;
  // "+1", "1N", "1.5", "1e3", "012", and anything else: the general reader's.
  if (digits == 0 || digits > 18 || (digits > 1 && token[i] == '0')) return false;
  std::int64_t n = 0;
  for (; i < token.size(); ++i) {
    if (!edn::is_digit(static_cast<unsigned char>(token[i]))) return false;
    n = n * 10 + (token[i] - '0');  // 18 digits cannot overflow
  }
  out = Value::integer(token.front() == '-' ? -n : n);
  return true;
}

bool FlatOpMapReader::read_symbol(Cursor& at, Value& out) {
  const std::string_view name = at.token();
  if (name == "nil") {
    out = Value();
  } else if (name == "true" || name == "false") {
    out = Value::boolean(name == "true");
  } else {
    return false;  // other symbols are rare in histories
  }
  return true;
}

bool FlatOpMapReader::read_elements(Cursor& at, char closer, std::vector<Value>& out, int depth) {
  for (;;) {
    at.skip_space();
    const char c = at.peek();
    if (c == closer) {
      ++at.p;
      return true;
    }
    Value element;
    if (!read_value(at, element, depth + 1)) return false;
    out.push_back(std::move(element));
  }
}

bool FlatOpMapReader::read_value(Cursor& at, Value& out, int depth) {
  if (depth > kMaxFastEdnDepth || at.p >= at.end) return false;
  const auto c = static_cast<unsigned char>(*at.p);
  const auto next = static_cast<unsigned char>(at.p + 1 < at.end ? at.p[1] : '\0');
  switch (c) {
    case ':': return read_keyword(at, out);
    case '"': return read_string(at, out);
    case 'n':
    case 't':
    case 'f': return read_symbol(at, out);
    case '[':
    case '(': {
      ++at.p;
      std::vector<Value> elements;
      if (!read_elements(at, c == '[' ? ']' : ')', elements, depth)) return false;
      out = c == '[' ? Value::vector(std::move(elements)) : Value::list(std::move(elements));
      return true;
    }
    case '{': {
      ++at.p;
      std::vector<Value> items;
      if (!read_elements(at, '}', items, depth) || items.size() % 2 != 0) return false;
      std::vector<Value::Entry> entries;
      entries.reserve(items.size() / 2);
      for (std::size_t i = 0; i < items.size(); i += 2)
        entries.emplace_back(std::move(items[i]), std::move(items[i + 1]));
      out = Value::map(std::move(entries));
      return true;
    }
    case '#': {
      if (next != '{') return false;  // tags, discards, ##Inf: the general reader's
      at.p += 2;
      std::vector<Value> elements;
      if (!read_elements(at, '}', elements, depth)) return false;
      out = Value::set(std::move(elements));
      return true;
    }
    default:
      if (edn::is_digit(c) || (c == '-' && edn::is_digit(next))) return read_integer(at, out);
      return false;
  }
}

std::size_t FlatOpMapReader::read_op_map(std::string_view text, SourcePos pos, Event& event) {
  Cursor at{text.data(), text.data() + text.size()};
  if (at.p == at.end || *at.p != '{') return 0;
  ++at.p;
  OpMapFields fields;
  for (;;) {
    at.skip_space();
    if (at.p == at.end) return 0;
    if (*at.p == '}') break;
    if (*at.p != ':') return 0;  // keys other than keywords are rare
    ++at.p;
    if (at.peek() == ':') return 0;
    const std::string_view name = at.token();
    // The fields' own names are valid ones: only another key's is looked at.
    const OpMapFields::Field field = OpMapFields::field_named(name);
    if (field == OpMapFields::Field::other && (name.size() > kScanChunk || !edn::is_valid_name(name))) return 0;
    at.skip_space();
    if (at.p == at.end || *at.p == '}') return 0;  // an odd number of forms
    Value value;
    if (!read_value(at, value, 1)) return 0;
    fields.set(field, std::move(value));
  }
  ++at.p;  // the closing brace
  if (!fields.complete()) return 0;
  event = std::move(fields).finish(pos, {});
  return static_cast<std::size_t>(at.p - text.data());
}

FlatOpMapReader::Line FlatOpMapReader::read_line(std::string_view text, std::uint32_t line, Event& event) {
  Cursor at{text.data(), text.data() + text.size()};
  at.skip_space();
  if (at.p == at.end || *at.p == ';') return Line::empty;
  if (*at.p != '{') return Line::declined;
  const auto column = static_cast<std::size_t>(at.p - text.data());
  // A declined line may leave `event` filled: the caller reads it only on Line::event.
  const std::size_t used = read_op_map(text.substr(column), {line, static_cast<std::uint32_t>(column + 1)}, event);
  if (used == 0) return Line::declined;
  at.p += used;
  at.skip_space();
  if (at.p != at.end && *at.p != ';') return Line::declined;  // another form on the line
  return Line::event;
}

FlatOpMapReader::Line FlatOpMapReader::read_log_line(std::string_view text, SourcePos start, Event& event) {
  Cursor at{text.data(), text.data() + text.size()};
  at.skip_space();
  if (at.p == at.end) return Line::declined;
  event = Event();  // a log line has no :key and no :index
  event.pos = {start.line, start.column + static_cast<std::uint32_t>(at.p - text.data())};
  // Process: an integer or a keyword (:nemesis); anything else is rare.
  const char first = *at.p;
  if (first != ':' && !edn::is_digit(static_cast<unsigned char>(first)) && first != '-') return Line::declined;
  if (!read_value(at, event.process, 1) || !(event.process.is_integer() || event.process.is_keyword())) {
    return Line::declined;
  }
  const bool client = event.process.is_integer();
  at.skip_space();
  if (at.peek() != ':') return Line::declined;
  Value type;
  if (!read_keyword(at, type)) return Line::declined;
  const auto named = event_type_named(type.text());
  if (!named) return Line::declined;
  event.type = *named;
  at.skip_space();
  if (at.p == at.end) {
    if (client) return Line::declined;  // an error the general reader words
    event.f.clear();
    event.value = Value();
    return Line::event;
  }
  Value f;
  const char f_first = *at.p;
  if (f_first == ':') {
    if (!read_keyword(at, f)) return Line::declined;
  } else if (f_first == '"') {
    if (!read_string(at, f)) return Line::declined;
  } else {
    return Line::declined;
  }
  event.f = f.text();
  at.skip_space();
  // What follows the value is never read (Jepsen's annotations); a `;` or `#_` here
  // would change what "the value" is, so those lines are the general reader's.
  if (at.p == at.end) {
    event.value = Value();
    return Line::event;
  }
  if (*at.p == ';' || *at.p == '#') return Line::declined;
  if (!read_value(at, event.value, 1)) return Line::declined;
  return Line::event;
}

}  // namespace ariadne
