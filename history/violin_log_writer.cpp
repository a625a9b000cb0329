// Writing events as a Violin/LiMo log (`convert --to violin-log`), so that the reader
// (violin_log_reader.cpp) gives the same events back: each event is one line, in
// order, and `[id]` is the event's process. A queue's operations are written as
// Violin's add/remove (which LiMo reads as enq/deq too), a stack's as push/pop.
//
// What the format cannot hold is an InputError at the event: a process that is no
// integer of 0 or more, a :fail (Violin and LiMo have no failed operations), a value
// that is neither an integer of 0 or more nor a symbol (Violin's and LiMo's values),
// and operations that are no queue's or stack's. An :info completion is written as no
// return at all, which reads as the same crashed operation; a process that invokes
// again after it is an error, since LiMo's thread would then have two calls open.
#include "history/violin_log_reader.hpp"

#include <ariadne/errors.hpp>

#include <unordered_map>
#include <unordered_set>

namespace ariadne {

namespace violin_writer {
namespace {

struct Object {
  std::string_view header;
  std::string_view add_f;
  std::string_view remove_f;
  std::string_view add_method;
  std::string_view remove_method;
};

constexpr Object kQueue{"queue", "enqueue", "dequeue", "add", "remove"};
constexpr Object kStack{"stack", "push", "pop", "push", "pop"};

bool is_client(const Event& event) { return event.process.is_integer(); }

// The object the log's operations belong to: the model hint's, else the first client
// event's.
const Object& object_of(const EventLog& log) {
  if (log.model_hint == "fifo-queue") return kQueue;
  if (log.model_hint == "stack") return kStack;
  for (const Event& event : log.events) {
    if (!is_client(event)) continue;
    if (event.f == kQueue.add_f || event.f == kQueue.remove_f) return kQueue;
    if (event.f == kStack.add_f || event.f == kStack.remove_f) return kStack;
    break;
  }
  const SourcePos pos = log.events.empty() ? SourcePos{} : log.events.front().pos;
  throw InputError(log.source, pos,
                   "violin-log holds a queue's :enqueue and :dequeue or a stack's :push and :pop operations");
}

bool is_symbol(std::string_view text) {
  if (text.empty() || (text.front() >= '0' && text.front() <= '9')) return false;
  for (const char c : text) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!word) return false;
  }
  return text != "empty" && text != "Empty";
}

// LiMo's ?<thread,index>, as the reader keeps it.
bool is_limo_value(std::string_view text) {
  if (!text.starts_with("?<") || !text.ends_with('>')) return false;
  const std::string_view inside = text.substr(2, text.size() - 3);
  const std::size_t comma = inside.find(',');
  const auto digits = [](std::string_view part) {
    return !part.empty() && part.find_first_not_of("0123456789") == std::string_view::npos;
  };
  return comma != std::string_view::npos && digits(inside.substr(0, comma)) && digits(inside.substr(comma + 1));
}

std::string value_text(const Value& value, const EventLog& log, const Event& event) {
  if (value.is_integer() && value.as_integer() >= 0) return std::to_string(value.as_integer());
  if (value.is_string() && (is_symbol(value.text()) || is_limo_value(value.text()))) return value.text();
  throw InputError(log.source, event.pos,
                   "violin-log values are integers of 0 or more and symbols (a, b), not " + value.to_edn());
}

}  // namespace
}  // namespace violin_writer

std::string format_violin_log(const EventLog& log) {
  using violin_writer::value_text;
  const violin_writer::Object& object = violin_writer::object_of(log);
  std::string out = "# @object " + std::string(object.header) + "\n";
  std::unordered_map<std::int64_t, Value> added;  // an open add's value, by process
  std::unordered_set<std::int64_t> crashed;
  for (const Event& event : log.events) {
    if (!violin_writer::is_client(event) || event.process.as_integer() < 0) {
      throw InputError(log.source, event.pos,
                       "violin-log has no place for the events of process " + event.process.to_edn() +
                           " ([id] is an integer of 0 or more)");
    }
    const std::int64_t process = event.process.as_integer();
    const bool add = event.f == object.add_f;
    if (!add && event.f != object.remove_f) {
      throw InputError(log.source, event.pos,
                       "violin-log holds a " + std::string(object.header) + "'s :" + std::string(object.add_f) +
                           " and :" + std::string(object.remove_f) + ", not :" + event.f);
    }
    const std::string id = "[" + std::to_string(process) + "] ";
    switch (event.type) {
      case EventType::invoke:
        if (crashed.contains(process)) {
          throw InputError(log.source, event.pos,
                           "process " + std::to_string(process) +
                               " invokes again after it crashed: violin-log writes a crash as a call that never "
                               "returns, and LiMo's thread would then have two calls open");
        }
        if (!add && !event.value.is_nil()) {
          throw InputError(log.source, event.pos, "violin-log has no place for a remove's value at its call");
        }
        out += id + "call " + std::string(add ? object.add_method : object.remove_method);
        if (add) {
          out += "(" + value_text(event.value, log, event) + ")";
          added[process] = event.value;
        }
        out += "\n";
        break;
      case EventType::ok:
        if (add) {
          if (added[process] != event.value) {
            throw InputError(log.source, event.pos,
                             "violin-log cannot write an add that completes with another value than it was called "
                             "with (" +
                                 event.value.to_edn() + ")");
          }
          out += id + "return\n";
        } else if (event.value.is_keyword() && event.value.text() == "empty") {
          out += id + "return empty\n";
        } else {
          out += id + "return " + value_text(event.value, log, event) + "\n";
        }
        break;
      case EventType::info: crashed.insert(process); break;
      case EventType::fail: throw InputError(log.source, event.pos, "violin-log has no failed operations (:fail)");
    }
  }
  return out;
}

}  // namespace ariadne
