// A strict JSON parser (RFC 8259: no comments, no trailing commas, no NaN, strings of
// valid UTF-8) and the event rules of ariadne's JSON history format.
//
// Recursive descent is safe here because nesting stops at kMaxJsonDepth, the same
// bound the EDN reader keeps for Values. The loops over array elements and object
// members take a callback, so the history reader walks the top level with the very
// same code and learns where each event object starts.
//
// Real time is file order, in JSON as in EDN, whose :time no reader looks at. When
// events carry a numeric "time" that goes backwards (Knossos' own etcd.edn does, its
// clocks being per node), the file is read in its order all the same, and the first
// such event is named in a warning with the number of others: sorting would renumber
// the op ids reports refer to, and refusing the file would refuse what the same
// events in EDN are checked as.

#include "base/text_encoding.hpp"
#include "history/edn_history_reader.hpp"
#include "history/edn_reader.hpp"
#include "history/event_sink.hpp"
#include "history/flat_json_object.hpp"
#include "history/scan_room.hpp"

#include <ariadne/history.hpp>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ariadne {

namespace {

constexpr std::size_t kMaxJsonDepth = edn::kMaxNestingDepth;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
}

// The names of one object's members so far, to refuse a name given twice. RFC 8259
// leaves such an object's meaning to the reader ("many implementations report the
// last name/value pair only"), and in a history it is a contradiction: an event that
// says "type": "ok" and then "type": "info" is one reader's completed op and
// another's crashed one. Objects are small (an event has a handful of members), so
// the names are compared in turn until there are many.
class MemberNames {
 public:
  // Where `name` was given before in this object, or nullopt (it is then remembered).
  std::optional<SourcePos> add(std::string_view name, SourcePos pos) {
    if (many_.empty()) {
      for (const auto& [seen, at] : few_) {
        if (seen == name) return at;
      }
      few_.emplace_back(std::string(name), pos);
      if (few_.size() < kFewNames) return std::nullopt;
      for (auto& [seen, at] : few_) many_.emplace(std::move(seen), at);
      few_.clear();
      return std::nullopt;
    }
    const auto [it, added] = many_.try_emplace(std::string(name), pos);
    if (added) return std::nullopt;
    return it->second;
  }

 private:
  static constexpr std::size_t kFewNames = 16;
  std::vector<std::pair<std::string, SourcePos>> few_;
  std::unordered_map<std::string, SourcePos> many_;
};

class JsonParser {
 public:
  JsonParser(std::string_view text, const std::string& source, const Limits* limits = nullptr)
      : text_(text), source_(source), limits_(limits) {
    // A byte-order mark is invisible in editors, so columns count from after it.
    if (text_.starts_with("\xEF\xBB\xBF")) at_ = line_start_ = 3;
  }

  SourcePos position() const { return {line_, static_cast<std::uint32_t>(at_ - line_start_ + 1)}; }
  [[noreturn]] void fail(SourcePos pos, const std::string& message) const { throw InputError(source_, pos, message); }
  char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  std::size_t offset() const { return at_; }
  // Moves on to `offset` on the same line, past what a fast path has read.
  void skip_within_line(std::size_t offset) { at_ = offset; }

  void skip_space() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\n') {
        ++line_;
        line_start_ = at_ + 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        break;
      }
      ++at_;
    }
  }

  bool at_end() {
    skip_space();
    return at_ >= text_.size();
  }

  std::string describe_next() const {
    if (at_ >= text_.size()) return "end of input";
    std::size_t end = at_;
    while (end < text_.size() && end - at_ < 24 && is_word_char(text_[end])) ++end;
    if (end == at_) {
      const auto c = static_cast<unsigned char>(text_[at_]);
      if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
      static const char* const kHex = "0123456789abcdef";
      return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15];
    }
    return "'" + std::string(text_.substr(at_, end - at_)) + "'";
  }

  Value parse_value(std::size_t depth) {
    skip_space();
    const SourcePos start = position();
    switch (peek()) {
      case '{': {
        std::vector<Value::Entry> entries;
        each_member(depth, [&](std::string key, SourcePos, std::size_t inner) {
          Value value = parse_value(inner);
          entries.emplace_back(Value::string(std::move(key)), std::move(value));
        });
        return Value::map(std::move(entries));
      }
      case '[': {
        std::vector<Value> elements;
        each_element(depth, [&](std::size_t inner) { elements.push_back(parse_value(inner)); });
        return Value::vector(std::move(elements));
      }
      case '"': return Value::string(parse_string());
      default: break;
    }
    if (peek() == '-' || is_digit(peek())) return parse_number(start);
    if (peek() >= 'a' && peek() <= 'z') {
      const std::size_t begin = at_;
      while (at_ < text_.size() && text_[at_] >= 'a' && text_[at_] <= 'z') ++at_;
      const std::string_view word = text_.substr(begin, at_ - begin);
      if (word == "null") return Value();
      if (word == "true") return Value::boolean(true);
      if (word == "false") return Value::boolean(false);
      at_ = begin;
    }
    fail(start, "expected a JSON value, found " + describe_next());
  }

  // Walks the array opening at the current position; `on_element(depth)` parses each
  // element, starting at its first byte.
  template <class OnElement>
  void each_element(std::size_t depth, OnElement on_element) {
    each_item(depth, ']', "array", "an array element", on_element);
  }

  // Walks the object opening at the current position; `on_member(key, key_pos, depth)`
  // parses each member's value. A name given twice is an error at the second.
  template <class OnMember>
  void each_member(std::size_t depth, OnMember on_member) {
    MemberNames names;
    each_item(depth, '}', "object", "an object member", [&](std::size_t inner) {
      if (peek() != '"') fail(position(), "expected a string key, found " + describe_next());
      const SourcePos key_pos = position();
      std::string key = parse_string();
      if (const std::optional<SourcePos> first = names.add(key, key_pos)) {
        fail(key_pos, "duplicate member \"" + shorten(key) + "\" (first at " + edn::format_pos(*first) +
                          "): an object may name a member once");
      }
      skip_space();
      if (peek() != ':') fail(position(), "expected ':' after the key, found " + describe_next());
      ++at_;
      skip_space();
      on_member(std::move(key), key_pos, inner);
    });
  }

 private:
  template <class OnItem>
  void each_item(std::size_t depth, char close, const char* name, const char* item, OnItem on_item) {
    const SourcePos opened = position();
    if (depth >= kMaxJsonDepth) fail(opened, "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    ++at_;  // the opening bracket or brace
    auto unterminated = [&] {
      fail(position(), std::string("unterminated ") + name + ": expected '" + close +
                           "' before end of input (opened at " + edn::format_pos(opened) + ")");
    };
    skip_space();
    if (peek() == close) {
      ++at_;
      return;
    }
    for (;;) {
      if (at_end()) unterminated();
      on_item(depth + 1);
      if (at_end()) unterminated();
      if (peek() == close) {
        ++at_;
        return;
      }
      if (peek() != ',') {
        fail(position(), std::string("expected ',' or '") + close + "' after " + item + " (the " + name +
                             " opened at " + edn::format_pos(opened) + "), found " + describe_next());
      }
      ++at_;
      skip_space();
      if (peek() == close)
        fail(position(),
             std::string("expected a value after ',', found '") + close + "' (JSON does not allow a trailing comma)");
    }
  }

  std::string parse_string() {
    const SourcePos opened = position();
    ++at_;  // the opening quote
    std::string out;
    for (;;) {
      std::size_t run = at_;
      const std::size_t stop = std::min(text_.size(), at_ + kScanChunk);
      while (run < stop) {
        const auto c = static_cast<unsigned char>(text_[run]);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++run;
      }
      out.append(text_.substr(at_, run - at_));
      at_ = run;
      if (run == stop && stop < text_.size()) {
        // A string of megabytes: the bytes read, and the copy, must fit.
        require_room(limits_, out.size());
        continue;
      }
      if (at_ >= text_.size()) {
        fail(position(),
             "unterminated string: expected '\"' before end of input (opened at " + edn::format_pos(opened) + ")");
      }
      const auto c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') {
        ++at_;
        return out;
      }
      if (c < 0x20) {
        fail(position(), c == '\n' ? "unterminated string: a line break must be written \\n (opened at " +
                                         edn::format_pos(opened) + ")"
                                   : "control character in string; write it as a \\u escape");
      }
      if (c >= 0x80) {
        const std::size_t length = utf8_sequence_length(text_, at_);
        if (length == 0) fail(position(), "invalid UTF-8 in string");
        out.append(text_.substr(at_, length));
        at_ += length;
        continue;
      }
      parse_escape(out);
    }
  }

  void parse_escape(std::string& out) {
    const SourcePos escape = position();
    const char e = at_ + 1 < text_.size() ? text_[at_ + 1] : '\0';
    switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        const edn::UnicodeEscape decoded = edn::decode_unicode_escape(text_, at_ + 2, out);
        if (decoded.error) fail(escape, std::string(decoded.error) + " in string");
        at_ += 2 + decoded.length;
        return;
      }
      default:
        ++at_;
        fail(escape, "invalid escape '\\' followed by " + describe_next() +
                         " in string (JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)");
    }
    at_ += 2;
  }

  Value parse_number(SourcePos start) {
    const std::size_t begin = at_;
    at_ = scan_token_end(text_, at_, limits_, is_word_char);
    const std::string_view token = text_.substr(begin, at_ - begin);
    auto invalid = [&](const char* why) { fail(start, "invalid number '" + std::string(token) + "'" + why); };

    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    std::size_t i = token[0] == '-' ? 1 : 0;
    if (i < token.size() && token[i] == '0') {
      ++i;
    } else {
      if (i == token.size() || !is_digit(token[i])) invalid("");
      while (i < token.size() && is_digit(token[i])) ++i;
    }
    bool integral = true;
    if (i < token.size() && token[i] == '.') {
      integral = false;
      const std::size_t digits = ++i;
      while (i < token.size() && is_digit(token[i])) ++i;
      if (i == digits) invalid("");
    }
    if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
      integral = false;
      ++i;
      if (i < token.size() && (token[i] == '+' || token[i] == '-')) ++i;
      const std::size_t digits = i;
      while (i < token.size() && is_digit(token[i])) ++i;
      if (i == digits) invalid("");
    }
    if (i != token.size()) invalid("");

    if (integral) {
      std::int64_t n = 0;
      const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), n);
      if (ec == std::errc::result_out_of_range) return Value::big_integer(std::string(token));
      return Value::integer(n);
    }
    double d = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), d);
    if (ec != std::errc()) invalid(": out of range for a double");
    return Value::floating(d);
  }

  std::string_view text_;
  const std::string& source_;
  const Limits* limits_;
  std::size_t at_ = 0;
  std::uint32_t line_ = 1;
  std::size_t line_start_ = 0;
};

std::string describe_json(const Value& value) { return shorten(value.to_json()); }

// a <=> b for two JSON numbers (64-bit, big or floating), exact except where a
// floating number meets an integer beyond 64 bits; nullopt when either is no number.
std::optional<int> compare_numbers(const Value& a, const Value& b) {
  const auto is_big = [](const Value& v) { return v.kind() == Value::Kind::big_integer; };
  const auto is_number = [&](const Value& v) {
    return v.is_integer() || is_big(v) || v.kind() == Value::Kind::floating;
  };
  if (!is_number(a) || !is_number(b)) return std::nullopt;
  const auto negative = [](const Value& v) { return v.text().front() == '-'; };
  if (is_big(a) && is_big(b)) {
    // Canonical decimal text: the sign, then the length, then the digits decide.
    if (negative(a) != negative(b)) return negative(a) ? -1 : 1;
    const std::string& x = a.text();
    const std::string& y = b.text();
    int magnitude = x.size() != y.size() ? (x.size() < y.size() ? -1 : 1) : x.compare(y) < 0 ? -1 : x == y ? 0 : 1;
    return negative(a) ? -magnitude : magnitude;
  }
  // A big integer lies beyond every 64-bit one, on the side of its sign.
  if (is_big(a) && b.is_integer()) return negative(a) ? -1 : 1;
  if (a.is_integer() && is_big(b)) return negative(b) ? 1 : -1;
  if (a.is_integer() && b.is_integer()) return a.as_integer() < b.as_integer() ? -1 : a.as_integer() > b.as_integer();
  // long double holds every 64-bit integer exactly on x86-64.
  const auto wide = [&](const Value& v) -> long double {
    if (v.is_integer()) return static_cast<long double>(v.as_integer());
    if (is_big(v)) return std::strtold(v.text().c_str(), nullptr);
    return v.as_floating();
  };
  const long double x = wide(a);
  const long double y = wide(b);
  return x < y ? -1 : x > y;
}

// Remembers the latest numeric "time", the first event that goes back from it and
// how many do (see the header): finish() says so in one warning.
class TimeOrder {
 public:
  void observe(const Value& time, SourcePos pos) {
    if (latest_) {
      const std::optional<int> order = compare_numbers(time, *latest_);
      if (!order) return;  // a time that is no number (an ISO string, say) is not compared
      if (*order < 0 && backwards_++ == 0) {
        first_ = "\"time\" " + shorten(time.to_json()) + " goes back from " + shorten(latest_->to_json()) + " at " +
                 std::to_string(latest_pos_.line) + ":" + std::to_string(latest_pos_.column);
        first_pos_ = pos;
      }
    } else if (!compare_numbers(time, time)) {
      return;
    }
    latest_ = time;
    latest_pos_ = pos;
  }

  void finish(EventSink& sink) const {
    if (backwards_ == 0) return;
    const std::string others =
        backwards_ == 1 ? std::string() : " (and at " + std::to_string(backwards_ - 1) + " later events)";
    sink.warn({first_pos_, first_ + others + "; real time is taken from the file's order, as for EDN's :time"});
  }

 private:
  std::optional<Value> latest_;
  SourcePos latest_pos_;
  std::size_t backwards_ = 0;  // events whose time is below the latest before them
  std::string first_;
  SourcePos first_pos_;
};

// The members of one event object that the format reads (no name is given twice:
// the parser refuses that).
struct JsonEventFields {
  const Value* process = nullptr;
  const Value* type = nullptr;
  const Value* f = nullptr;
  const Value* value = nullptr;
  const Value* key = nullptr;
  const Value* index = nullptr;
  const Value* time = nullptr;
  const Value* timestamp = nullptr;

  void set(std::string_view name, const Value* v) {
    if (name == "process")
      process = v;
    else if (name == "type")
      type = v;
    else if (name == "f")
      f = v;
    else if (name == "value")
      value = v;
    else if (name == "key")
      key = v;
    else if (name == "index")
      index = v;
    else if (name == "time")
      time = v;
    else if (name == "timestamp")
      timestamp = v;
  }
};

Event event_from_fields(const JsonEventFields& fields, SourcePos pos, const std::string& source, TimeOrder& times) {
  auto fail = [&](const std::string& message) { throw InputError(source, pos, message); };
  const auto [process, type, f, value, key, index, time, timestamp] = fields;
  // An event with a timestamp is ordered by it (timestamp_order.hpp): its "time" says
  // nothing about real time, and a warning that file order is real time would be wrong.
  if (time && !timestamp) times.observe(*time, pos);
  if (!process) fail("event has no \"process\"");
  if (!type) fail("event has no \"type\"");

  Event event;
  event.pos = pos;
  event.process = *process;
  const bool client = process->is_integer();
  if (!type->is_string()) {
    fail("\"type\" must be a string (\"invoke\", \"ok\", \"fail\" or \"info\"), found " + describe_json(*type));
  }
  if (const auto named = event_type_named(type->text()))
    event.type = *named;
  else
    fail("unknown \"type\" " + describe_json(*type) + ", expected \"invoke\", \"ok\", \"fail\" or \"info\"");

  if (f && f->is_string()) {
    event.f = f->text();
  } else if (client) {
    fail(f ? "\"f\" must be a string, found " + describe_json(*f)
           : "event of client process " + process->to_json() + " has no \"f\"");
  } else if (f) {
    event.f = f->to_json();  // non-client events are never checked
  }
  if (value) event.value = *value;
  if (key) event.key = *key;
  if (index && !index->is_nil()) {
    if (index->kind() == Value::Kind::big_integer) {
      fail("\"index\" " + shorten(index->text()) + " does not fit in 64 bits");
    }
    if (!index->is_integer()) fail("\"index\" must be an integer, found " + describe_json(*index));
    event.index = index->as_integer();
  }
  if (timestamp && !timestamp->is_nil()) {
    if (timestamp->kind() == Value::Kind::big_integer) {
      fail("\"timestamp\" " + shorten(timestamp->text()) + " does not fit in 64 bits");
    }
    if (!timestamp->is_integer()) {
      fail("\"timestamp\" must be an integer (one clock's ticks, e.g. nanoseconds), found " +
           describe_json(*timestamp));
    }
    event.timestamp = timestamp->as_integer();
  }
  return event;
}

Event event_from_json(const Value& object, SourcePos pos, const std::string& source, TimeOrder& times) {
  JsonEventFields fields;
  for (const auto& [k, v] : object.entries()) fields.set(k.text(), &v);
  return event_from_fields(fields, pos, source, times);
}

}  // namespace

namespace {

// Whether a text that starts with '{' is JSON Lines (an event object, then more)
// rather than one object holding an "events" array: its first member is an event's
// (it names no "events"). Only then is the first object read whole, so a large
// document of the other kind is not read twice.
bool opens_json_lines(std::string_view text, const std::string& source) {
  std::size_t i = 1;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  if (i >= text.size() || text[i] != '"') return false;
  const std::size_t close = text.find('"', i + 1);
  if (close == std::string_view::npos) return false;
  const std::string_view first = text.substr(i + 1, close - i - 1);
  static constexpr std::string_view kEventMembers[] = {"process", "type",  "f",    "value",
                                                       "key",     "index", "time", "timestamp"};
  if (std::find(std::begin(kEventMembers), std::end(kEventMembers), first) == std::end(kEventMembers)) return false;
  try {
    JsonParser parser(text, source);
    const Value object = parser.parse_value(0);
    return object.find(Value::string("events")) == nullptr;
  } catch (const InputError&) {
    return true;  // a broken first event: read as JSON Lines, it is reported where it is
  }
}

}  // namespace

Value parse_json_value(std::string_view text, const std::string& source) {
  JsonParser parser(text, source);
  Value value = parser.parse_value(0);
  if (!parser.at_end()) {
    parser.fail(parser.position(), "expected end of input after the JSON value, found " + parser.describe_next());
  }
  return value;
}

void read_json_history(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan) {
  JsonParser parser(text, source, plan.limits);
  TimeOrder times;
  FlatJsonObjectReader flat(plan.limits);
  auto read_event = [&](std::size_t depth) {
    const SourcePos pos = parser.position();
    if (parser.peek() != '{') {
      parser.fail(pos,
                  "expected an event object such as {\"process\": 0, \"type\": \"invoke\", \"f\": \"read\"}, found " +
                      parser.describe_next());
    }
    if (plan.fast) {
      if (const std::size_t end = flat.read(text, parser.offset())) {
        JsonEventFields fields;
        for (const auto& [name, value] : flat.members) fields.set(name, &value);
        sink.add(event_from_fields(fields, pos, source, times));
        parser.skip_within_line(end);
        sink.passed(end);
        return;
      }
    }
    sink.add(event_from_json(parser.parse_value(depth), pos, source, times));
    sink.passed(parser.offset());
  };
  auto read_events = [&](std::size_t depth) { parser.each_element(depth, read_event); };

  parser.skip_space();
  if (parser.peek() == '[') {
    read_events(0);
  } else if (parser.peek() == '{' && opens_json_lines(text.substr(parser.offset()), source)) {
    // JSON Lines: event objects one after another, what a harness appends as it goes.
    while (!parser.at_end()) {
      read_event(0);
      parser.skip_space();
    }
  } else if (parser.peek() == '{') {
    const SourcePos opened = parser.position();
    bool found = false;
    parser.each_member(0, [&](std::string key, SourcePos, std::size_t inner) {
      if (key != "events") {
        parser.parse_value(inner);  // metadata next to the events is allowed and ignored
        return;
      }
      if (parser.peek() != '[') {
        parser.fail(parser.position(), "\"events\" must be an array of event objects, found " + parser.describe_next());
      }
      found = true;
      read_events(inner);
    });
    if (!found) parser.fail(opened, "expected an \"events\" member holding the array of events");
  } else {
    parser.fail(parser.position(), "expected a JSON array of events or an object with an \"events\" array, found " +
                                       parser.describe_next());
  }
  if (!parser.at_end()) {
    parser.fail(parser.position(), "expected end of input after the JSON document, found " + parser.describe_next());
  }
  times.finish(sink);
}

}  // namespace ariadne
