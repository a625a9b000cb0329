// Reads Violin and LiMo logs (violin_log_reader.hpp) into events.
//
// `[id]` is an operation id in Violin's logs and a thread in LiMo's. Both read as the
// event's process: an id with one operation is a process with one operation, and a
// LiMo thread's operations are sequential, as a process's are. Real time is the order
// of the lines, in both tools and here.
//
// A call opens an operation and the next return of the same id completes it; a call
// never returned is a crashed operation (the invocation stays open, as Jepsen's :info).
// A remove's result is the return's value, or the call's argument (LiMo writes
// `call pop(a)` then a bare `return`); `return empty`, or a bare return of a remove
// called without an argument, is an empty observation: an :ok remove whose value is
// the keyword :empty. Values are integers, symbols (`a`, read as the string "a") and
// LiMo's `?<t,i>` (read as the string "?<t,i>": LiMo compares such values by t and i
// alone, so the name before '<' is dropped).
#include "history/violin_log_reader.hpp"

#include "history/event_sink.hpp"
#include "history/line_cursor.hpp"

#include <ariadne/errors.hpp>

#include <charconv>
#include <unordered_map>

namespace ariadne {

// Named, apart from the other readers' helpers that a unity build compiles with these.
namespace violin {
namespace {

// How the log names a collection, and what ariadne calls it and its operations.
struct Collection {
  std::string_view object;
  std::string_view model;
  std::string_view add_f;
  std::string_view remove_f;
};

constexpr Collection kCollections[] = {
    {"queue", "fifo-queue", "enqueue", "dequeue"},
    {"atomic-queue", "fifo-queue", "enqueue", "dequeue"},
    {"stack", "stack", "push", "pop"},
    {"atomic-stack", "stack", "push", "pop"},
};

// Objects Violin's schemes name (lib/schemes/) that are no collection ariadne reads
// from these logs: named in the error, so that a user learns it is no typo.
constexpr std::string_view kOtherViolinObjects[] = {"collection", "lock", "register",
                                                    "semaphore",  "set",  "work_stealing_queue"};

// The method names Violin and LiMo accept for adding and removing. LiMo reads
// Violin's add/remove on both objects, and capitalised Push/Pop/Enq/Deq; Violin's
// collection scheme also reads enqueue/dequeue.
constexpr std::string_view kQueueAdds[] = {"add", "enq", "Enq", "enqueue"};
constexpr std::string_view kQueueRemoves[] = {"remove", "deq", "Deq", "dequeue"};
constexpr std::string_view kStackAdds[] = {"add", "push", "Push"};
constexpr std::string_view kStackRemoves[] = {"remove", "pop", "Pop"};

template <std::size_t N>
bool one_of(std::string_view name, const std::string_view (&names)[N]) {
  for (std::string_view candidate : names) {
    if (candidate == name) return true;
  }
  return false;
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The text of a `#` comment line after the '#', or nullopt for other lines.
std::optional<std::string_view> comment_of(std::string_view line) {
  const std::string_view content = base::trim(line);
  if (!content.starts_with('#')) return std::nullopt;
  return base::trim(content.substr(1));
}

// The object a header comment names ("@object queue" -> "queue"), or nullopt when the
// comment is no header.
std::optional<std::string_view> header_object(std::string_view comment) {
  constexpr std::string_view kDirective = "@object";
  if (!comment.starts_with(kDirective)) return std::nullopt;
  const std::string_view rest = comment.substr(kDirective.size());
  if (!rest.empty() && !base::is_space(rest.front())) return std::nullopt;
  return base::trim(rest);
}

const Collection& collection_named(std::string_view object, const std::string& source, SourcePos pos) {
  for (const Collection& collection : kCollections) {
    if (collection.object == object) return collection;
  }
  std::string message = object.empty() ? std::string("the @object header names no object")
                                       : "unknown object '" + shorten(std::string(object)) + "'";
  if (one_of(object, kOtherViolinObjects)) {
    message = "Violin's '" + std::string(object) + "' object is no collection ariadne reads from a Violin log";
  }
  throw InputError(source, pos, message + ": expected queue, stack, atomic-queue or atomic-stack");
}

// The line's text without a `#` comment (Violin strips one from any line).
std::string_view without_comment(std::string_view line) {
  const std::size_t hash = line.find('#');
  return hash == std::string_view::npos ? line : line.substr(0, hash);
}

// The log's header: its object and place. It comes once, before the first call;
// read_header() looks only that far, and the reader holds the rest of the file to it.
struct Header {
  const Collection* collection = nullptr;
  SourcePos pos;
};

SourcePos header_pos(std::string_view line, std::uint32_t number) {
  return {number, static_cast<std::uint32_t>(line.find('#') + 1)};
}

Header read_header(std::string_view text, const std::string& source) {
  Header header;
  each_line(text, [&](std::string_view line, std::uint32_t number, std::size_t) {
    if (const auto comment = comment_of(line)) {
      const auto object = header_object(*comment);
      if (!object) return true;
      header.pos = header_pos(line, number);
      header.collection = &collection_named(*object, source, header.pos);
      return false;
    }
    if (base::trim(without_comment(line)).empty()) return true;
    throw InputError(source, {number, 1},
                     "expected a '# @object queue' (or stack, atomic-queue, atomic-stack) header before the "
                     "first call: a Violin or LiMo log names its object");
  });
  if (!header.collection) {
    throw InputError(source, {1, 1},
                     "expected a '# @object queue' (or stack, atomic-queue, atomic-stack) header: a Violin or "
                     "LiMo log names its object");
  }
  return header;
}

// One value of a call or a return; nullopt for LiMo's and Violin's empty markers.
std::optional<Value> read_value(LineCursor& cursor, bool allow_empty) {
  const std::size_t start = cursor.offset();
  const bool negative = cursor.take('-');
  const std::string_view word = cursor.take_while([](char c) { return is_word_char(c) || c == '?'; });
  if (word.empty()) cursor.expected("a value (an integer, a symbol such as a, or ?<t,i>)");
  if (is_digit(word.front())) {
    std::int64_t number = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), number);
    if (error != std::errc() || end != word.data() + word.size()) {
      cursor.fail_at(start, "expected an integer of 64 bits, found '" +
                                shorten(std::string(negative ? "-" : "") + std::string(word)) + "'");
    }
    return Value::integer(negative ? -number : number);
  }
  if (negative) cursor.fail_at(start, "expected an integer after '-'");
  if (cursor.take('<')) {
    // LiMo's ?<thread,index>: equal when thread and index are.
    cursor.skip_spaces();
    const std::string_view thread = cursor.take_while(is_digit);
    cursor.skip_spaces();
    if (thread.empty() || !cursor.take(',')) cursor.expected("?<thread,index> (LiMo's value)");
    cursor.skip_spaces();
    const std::string_view index = cursor.take_while(is_digit);
    cursor.skip_spaces();
    if (index.empty() || !cursor.take('>')) cursor.expected("?<thread,index> (LiMo's value)");
    return Value::string("?<" + std::string(thread) + "," + std::string(index) + ">");
  }
  if (word.find('?') != std::string_view::npos) cursor.fail_at(start, "expected ?<thread,index> after '?'");
  if (word == "empty" || word == "Empty") {
    if (!allow_empty) cursor.fail_at(start, "'empty' marks an empty remove's result; it is no value to add");
    return std::nullopt;
  }
  return Value::string(std::string(word));
}

// A call's or return's values: `(v)`, `( )`, ` v` or nothing; at most one.
std::optional<std::optional<Value>> read_argument(LineCursor& cursor, bool parenthesised_allowed, bool allow_empty) {
  cursor.skip_spaces();
  if (cursor.at_end()) return std::nullopt;
  const bool parenthesised = parenthesised_allowed && cursor.take('(');
  cursor.skip_spaces();
  if (parenthesised && cursor.take(')')) return std::nullopt;
  std::optional<Value> value = read_value(cursor, allow_empty);
  cursor.skip_spaces();
  if (cursor.peek() == ',') {
    cursor.expected(parenthesised ? "')' (a collection's operations take one value)"
                                  : "the end of the line (a collection's operations return one value)");
  }
  if (parenthesised && !cursor.take(')')) cursor.expected("')'");
  return value;
}

struct Pending {
  bool remove = false;
  std::optional<Value> argument;  // what an add adds, or a remove's LiMo-style `pop(v)`
  std::uint32_t line = 0;
};

class ViolinLogReader {
 public:
  ViolinLogReader(const std::string& source, EventSink& sink, const Collection& collection)
      : source_(source), sink_(sink), collection_(collection) {}

  void read_line(std::string_view line, std::uint32_t number) {
    const std::string_view content = without_comment(line);
    LineCursor cursor(content, number, source_);
    cursor.skip_spaces();
    if (cursor.at_end()) return;
    const SourcePos pos = cursor.pos();
    if (!cursor.take('[')) cursor.expected("'[id] call method(value)' or '[id] return [value]'");
    cursor.skip_spaces();
    const std::size_t id_at = cursor.offset();
    const std::string_view digits = cursor.take_while(is_digit);
    std::int64_t id = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
    if (digits.empty() || error != std::errc()) {
      if (digits.empty()) cursor.expected("an operation or thread id (digits)");
      cursor.fail_at(id_at, "the id " + shorten(std::string(digits)) + " does not fit in 64 bits");
    }
    cursor.skip_spaces();
    if (!cursor.take(']')) cursor.expected("']'");
    cursor.skip_spaces();
    const std::string_view action = cursor.take_while(is_word_char);
    if (action == "call") {
      call(cursor, id, pos);
    } else if (action == "return" || action == "ret") {
      complete(cursor, id, pos);
    } else {
      cursor.fail_at(cursor.offset() - action.size(), "expected 'call' or 'return' after [" + std::to_string(id) +
                                                          "], found '" + shorten(std::string(action)) + "'");
    }
  }

 private:
  void call(LineCursor& cursor, std::int64_t id, SourcePos pos) {
    cursor.skip_spaces();
    const std::size_t method_at = cursor.offset();
    const std::string_view method = cursor.take_while(is_word_char);
    if (method.empty()) cursor.expected("a method name");
    const bool queue = collection_.add_f == "enqueue";
    const bool add = queue ? one_of(method, kQueueAdds) : one_of(method, kStackAdds);
    const bool remove = queue ? one_of(method, kQueueRemoves) : one_of(method, kStackRemoves);
    if (!add && !remove) {
      cursor.fail_at(method_at,
                     "unknown method '" + shorten(std::string(method)) + "' of a " + std::string(collection_.object) +
                         ": expected " +
                         (queue ? "add, enq or enqueue, or remove, deq or dequeue" : "push or add, or pop or remove"));
    }
    cursor.skip_spaces();
    const std::size_t argument_at = cursor.offset();
    const std::optional<std::optional<Value>> argument = read_argument(cursor, true, remove);
    cursor.skip_spaces();
    if (!cursor.at_end()) cursor.expected("the end of the line");
    if (const auto open = pending_.find(id); open != pending_.end()) {
      throw InputError(source_, pos,
                       "[" + std::to_string(id) + "] calls again while its call on line " +
                           std::to_string(open->second.line) +
                           " has not returned: an id's operations are sequential (a LiMo thread's, or a Violin "
                           "operation's one)");
    }
    if (add && !argument)
      cursor.expected("the value " + std::string(method) + " adds, as " + std::string(method) + "(1)");
    Pending& pending = pending_[id];
    pending.remove = remove;
    pending.line = pos.line;
    if (argument) {
      if (!*argument) cursor.fail_at(argument_at, "a remove's argument names the value it removed, not empty");
      pending.argument = **argument;
    }
    Event event;
    event.process = Value::integer(id);
    event.type = EventType::invoke;
    event.f = std::string(remove ? collection_.remove_f : collection_.add_f);
    event.value = add ? **argument : Value();
    event.pos = pos;
    sink_.add(std::move(event));
  }

  void complete(LineCursor& cursor, std::int64_t id, SourcePos pos) {
    const auto open = pending_.find(id);
    if (open == pending_.end()) {
      throw InputError(source_, pos, "[" + std::to_string(id) + "] returns without a call pending");
    }
    const Pending pending = open->second;
    pending_.erase(open);
    cursor.skip_spaces();
    const std::size_t value_at = cursor.offset();
    const std::optional<std::optional<Value>> returned = read_argument(cursor, false, pending.remove);
    cursor.skip_spaces();
    if (!cursor.at_end()) cursor.expected("the end of the line");
    Event event;
    event.process = Value::integer(id);
    event.type = EventType::ok;
    event.f = std::string(pending.remove ? collection_.remove_f : collection_.add_f);
    event.pos = pos;
    if (!pending.remove) {
      if (returned) {
        cursor.fail_at(value_at, "an add returns no value (its call on line " + std::to_string(pending.line) +
                                     " names what it adds)");
      }
      event.value = *pending.argument;
    } else if (pending.argument) {
      if (returned && (!*returned || **returned != *pending.argument)) {
        cursor.fail_at(value_at, "the return names another value than the remove's call on line " +
                                     std::to_string(pending.line) + " (" + pending.argument->to_edn() + ")");
      }
      event.value = *pending.argument;
    } else if (returned && *returned) {
      event.value = **returned;
    } else {
      event.value = Value::keyword("empty");
    }
    sink_.add(std::move(event));
  }

  const std::string& source_;
  EventSink& sink_;
  const Collection& collection_;
  std::unordered_map<std::int64_t, Pending> pending_;
};

}  // namespace
}  // namespace violin

bool looks_like_violin_log(std::string_view text) {
  static const std::string kNoSource;
  bool log = false;
  each_line(text, [&](std::string_view line, std::uint32_t, std::size_t) {
    if (const auto comment = violin::comment_of(line)) {
      log = violin::header_object(*comment).has_value();
      return !log;
    }
    const std::string_view content = base::trim(line);
    if (content.empty()) return true;
    // `[12] call` or `[12] return`: an EDN vector never holds a bare number then a
    // symbol named call or return.
    LineCursor cursor(content, 0, kNoSource);
    if (!cursor.take('[')) return false;
    cursor.skip_spaces();
    if (cursor.take_while(violin::is_digit).empty()) return false;
    cursor.skip_spaces();
    if (!cursor.take(']')) return false;
    cursor.skip_spaces();
    const std::string_view action = cursor.take_while(violin::is_word_char);
    log = action == "call" || action == "return" || action == "ret";
    return false;
  });
  return log;
}

std::string violin_log_model(std::string_view text, const std::string& source) {
  return std::string(violin::read_header(text, source).collection->model);
}

void read_violin_log(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& /*plan*/) {
  const violin::Header header = violin::read_header(text, source);
  violin::ViolinLogReader reader(source, sink, *header.collection);
  each_line(text, [&](std::string_view line, std::uint32_t number, std::size_t end) {
    if (const auto comment = violin::comment_of(line)) {
      if (violin::header_object(*comment) && number != header.pos.line) {
        throw InputError(source, violin::header_pos(line, number),
                         "a second @object header (the first is on line " + std::to_string(header.pos.line) +
                             "): a log records one object");
      }
      return true;
    }
    reader.read_line(line, number);
    sink.passed(end);
    return true;
  });
}

}  // namespace ariadne
