// Reads fastlin histories (fastlin_reader.hpp) into events.
//
// fastlin has no processes and no event order of its own: each line is a completed
// operation with a start and an end time. The reader turns each into an invocation at
// its start and an :ok completion at its end, and hands the events on in the order
// fastlin sorts them (include/fastlinutils.h, tune_events: std::sort of the tuples
// (time, is_invocation, operation)): by time; at equal times every completion before
// every invocation, so an operation that ends at t precedes one that starts at t;
// then in file order. That order is the history's real time, as a file's order is for
// every other format. An operation must end after it starts: at start == end fastlin's
// order would put its completion before its own invocation.
//
// Each operation is its own process, numbered 0, 1, ... in the order of the
// invocations, so that writing the events back (format_events) and reading them again
// gives the same events. A remove or peek of -1 found the container empty (fastlin's
// emptyVal): an :ok with the keyword :empty.
#include "history/fastlin_reader.hpp"

#include "history/event_sink.hpp"
#include "history/fastlin_objects.hpp"
#include "history/line_cursor.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <charconv>
#include <vector>

namespace ariadne {

// Named, apart from the other readers' helpers that a unity build compiles with these.
namespace fastlin {
namespace {

const Object& object_of(std::string_view text, const std::string& source) {
  std::string_view first;
  each_line(text, [&](std::string_view line, std::uint32_t, std::size_t) {
    first = line;
    return false;
  });
  // fastlin reads its first line alone for the type: '#' in its first byte.
  if (!first.starts_with('#')) {
    throw InputError(source, {1, 1}, "expected fastlin's header '# queue' (or stack, priorityqueue) on the first line");
  }
  const std::string_view name = base::trim(first.substr(1));
  for (const Object& object : kObjects) {
    if (object.name == name) return object;
  }
  if (name == "set") {
    throw InputError(source, {1, 1},
                     "fastlin's set (insert, remove, contains_true, contains_false of single elements) does not "
                     "fit ariadne's set model, which only grows and reads the whole set");
  }
  throw InputError(
      source, {1, 1},
      "unknown fastlin object '" + shorten(std::string(name)) + "': expected queue, stack or priorityqueue");
}

bool not_space(char c) { return !base::is_space(c); }

struct Op {
  const Method* method;
  std::int64_t value;
  std::uint64_t start;
  std::uint64_t end;
  SourcePos call_pos;
  SourcePos return_pos;
};

template <class Number>
Number read_number(LineCursor& cursor, const char* what) {
  cursor.skip_spaces();
  const std::size_t at = cursor.offset();
  const std::string_view token = cursor.take_while(not_space);
  if (token.empty()) cursor.expected(what);
  Number number{};
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), number);
  if (error != std::errc() || end != token.data() + token.size()) {
    cursor.fail_at(at, "expected " + std::string(what) + ", found '" + shorten(std::string(token)) + "'");
  }
  return number;
}

Op read_op(const Object& object, std::string_view line, std::uint32_t number, const std::string& source) {
  LineCursor cursor(line, number, source);
  cursor.skip_spaces();
  Op op{};
  op.call_pos = cursor.pos();
  const std::string_view name = cursor.take_while(not_space);
  for (const Method& method : object.methods) {
    if (method.name == name) op.method = &method;
  }
  if (!op.method) {
    std::string names;
    for (const Method& method : object.methods) names += (names.empty() ? "" : ", ") + std::string(method.name);
    cursor.fail_at(op.call_pos.column - 1, "unknown method '" + shorten(std::string(name)) + "' of a fastlin " +
                                               std::string(object.name) + ": expected " + names);
  }
  const SourcePos value_pos = [&] {
    cursor.skip_spaces();
    return cursor.pos();
  }();
  op.value = read_number<std::int64_t>(cursor, "the value, an integer");
  if (op.value == kEmptyValue && op.method->role == Role::add) {
    throw InputError(source, value_pos,
                     "fastlin reads -1 as 'the container was empty' in every operation, so it cannot be added");
  }
  op.start = read_number<std::uint64_t>(cursor, "the start time, an integer of 0 or more");
  cursor.skip_spaces();
  op.return_pos = cursor.pos();
  op.end = read_number<std::uint64_t>(cursor, "the end time, an integer of 0 or more");
  cursor.skip_spaces();
  if (!cursor.at_end()) cursor.expected("the end of the line (method value start end)");
  if (op.end <= op.start) {
    throw InputError(source, op.return_pos,
                     "the operation must end after it starts (start " + std::to_string(op.start) + ", end " +
                         std::to_string(op.end) + ")");
  }
  return op;
}

// One event of an operation, with the key fastlin sorts events by.
struct Moment {
  std::uint64_t time;
  bool invocation;  // false sorts first: completions before invocations at one time
  std::uint32_t op;
  auto operator<=>(const Moment&) const = default;
};

}  // namespace
}  // namespace fastlin

bool looks_like_fastlin_history(std::string_view text) {
  std::string_view header;
  bool op_line = false;
  each_line(text, [&](std::string_view line, std::uint32_t number, std::size_t) {
    const std::string_view content = base::trim(line);
    if (number == 1) {
      header = line.starts_with('#') ? base::trim(line.substr(1)) : std::string_view();
      return !header.empty();
    }
    if (content.empty() || content.starts_with('#')) return true;
    static const std::string kNoSource;
    LineCursor cursor(content, number, kNoSource);
    const auto integer = [&] {
      const std::size_t before = cursor.offset();
      cursor.skip_spaces();
      if (cursor.offset() == before) return false;  // tokens are apart
      cursor.take('-');
      return !cursor.take_while([](char c) { return c >= '0' && c <= '9'; }).empty();
    };
    op_line = !cursor.take_while([](char c) { return (c >= 'a' && c <= 'z') || c == '_'; }).empty() && integer() &&
              integer() && integer();
    cursor.skip_spaces();
    op_line = op_line && cursor.at_end();
    return false;
  });
  // A header naming one of fastlin's objects decides alone (no other format starts
  // with `# queue`), so that a malformed operation line is fastlin's error; another
  // header needs an operation line after it.
  const bool known_header = header == "queue" || header == "stack" || header == "priorityqueue" || header == "set";
  return known_header || (!header.empty() && op_line);
}

std::string fastlin_model(std::string_view text, const std::string& source) {
  return std::string(fastlin::object_of(text, source).model);
}

void read_fastlin_history(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& /*plan*/) {
  const fastlin::Object& object = fastlin::object_of(text, source);
  std::vector<fastlin::Op> ops;
  each_line(text, [&](std::string_view line, std::uint32_t number, std::size_t) {
    const std::string_view content = base::trim(line);
    if (number == 1 || content.empty() || content.starts_with('#')) return true;
    ops.push_back(fastlin::read_op(object, line, number, source));
    return true;
  });
  std::vector<fastlin::Moment> moments;
  moments.reserve(ops.size() * 2);
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    moments.push_back({ops[i].start, true, i});
    moments.push_back({ops[i].end, false, i});
  }
  std::sort(moments.begin(), moments.end());
  std::vector<std::int64_t> process(ops.size());
  std::int64_t next_process = 0;
  for (const fastlin::Moment& moment : moments) {
    const fastlin::Op& op = ops[moment.op];
    Event event;
    if (moment.invocation) process[moment.op] = next_process++;
    event.process = Value::integer(process[moment.op]);
    event.type = moment.invocation ? EventType::invoke : EventType::ok;
    event.f = std::string(op.method->f);
    event.pos = moment.invocation ? op.call_pos : op.return_pos;
    if (op.method->role == fastlin::Role::add) {
      event.value = Value::integer(op.value);
    } else if (!moment.invocation) {
      event.value = op.value == fastlin::kEmptyValue ? Value::keyword("empty") : Value::integer(op.value);
    }
    sink.add(std::move(event));
  }
  sink.passed(text.size());
}

}  // namespace ariadne
