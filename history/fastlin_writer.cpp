// Writing events as a fastlin history (`convert --to fastlin`), so that the reader
// (fastlin_reader.cpp) gives the same events back. fastlin has no event order, only
// each operation's start and end time: an event's time is its position in the log
// (from 1), so no two times are equal and fastlin's order of the times is the log's.
// The operations are written in the order of their invocations, which is how the
// reader numbers their processes.
//
// What the format cannot hold is an InputError at the event: anything but an :ok
// operation (fastlin's operations all complete), a value that is no integer, -1 as an
// element (fastlin's "empty"), and operations of another object than the log's.
#include "history/fastlin_objects.hpp"
#include "history/fastlin_reader.hpp"

#include <ariadne/errors.hpp>

#include <unordered_map>
#include <vector>

namespace ariadne {

namespace fastlin_writer {
namespace {

// Every object's look(): a peek names no object.
constexpr std::string_view kPeek = fastlin::kObjects[0].look().f;

// The object of the log's operations: the model hint's, else the first client
// operation's that is no peek.
const fastlin::Object& object_of(const EventLog& log) {
  for (const fastlin::Object& object : fastlin::kObjects) {
    if (log.model_hint == object.model) return object;
  }
  for (const Event& event : log.events) {
    if (!event.process.is_integer() || event.f == kPeek) continue;
    for (const fastlin::Object& object : fastlin::kObjects) {
      if (event.f == object.add().f || event.f == object.remove().f) return object;
    }
    break;
  }
  const SourcePos pos = log.events.empty() ? SourcePos{} : log.events.front().pos;
  throw InputError(log.source, pos,
                   "fastlin holds a queue's :enqueue and :dequeue, a stack's :push and :pop, or a max priority "
                   "queue's :insert and :poll, with :peek");
}

struct Line {
  std::string_view method;
  std::int64_t value = 0;
  std::size_t start = 0;
  std::size_t end = 0;  // 0: not completed yet
  SourcePos pos;
};

std::int64_t integer_of(const Value& value, const EventLog& log, const Event& event) {
  if (value.is_keyword() && value.text() == "empty") return fastlin::kEmptyValue;
  if (!value.is_integer()) {
    throw InputError(log.source, event.pos, "fastlin values are integers, not " + value.to_edn());
  }
  if (value.as_integer() == fastlin::kEmptyValue) {
    throw InputError(log.source, event.pos, "fastlin reads the value -1 as 'the container was empty'");
  }
  return value.as_integer();
}

}  // namespace
}  // namespace fastlin_writer

std::string format_fastlin(const EventLog& log) {
  using fastlin_writer::Line;
  const fastlin::Object& object = fastlin_writer::object_of(log);
  std::vector<Line> lines;
  std::unordered_map<std::int64_t, std::size_t> open;  // a process's open line
  for (std::size_t position = 0; position < log.events.size(); ++position) {
    const Event& event = log.events[position];
    if (!event.process.is_integer()) {
      throw InputError(log.source, event.pos,
                       "fastlin has no processes, and no place for the events of " + event.process.to_edn());
    }
    const bool add = event.f == object.add().f;
    const bool remove = event.f == object.remove().f;
    if (!add && !remove && event.f != object.look().f) {
      throw InputError(log.source, event.pos,
                       "a fastlin " + std::string(object.name) + " has no :" + event.f + " (it has :" +
                           std::string(object.add().f) + ", :" + std::string(object.remove().f) + " and :peek)");
    }
    const std::int64_t process = event.process.as_integer();
    switch (event.type) {
      case EventType::invoke: {
        Line line;
        line.method = add ? object.add().name : remove ? object.remove().name : object.look().name;
        line.start = position + 1;
        line.pos = event.pos;
        if (add) line.value = fastlin_writer::integer_of(event.value, log, event);
        open[process] = lines.size();
        lines.push_back(line);
        break;
      }
      case EventType::ok: {
        const auto found = open.find(process);
        if (found == open.end()) {
          throw InputError(log.source, event.pos,
                           "an :ok of process " + std::to_string(process) + " without an invocation");
        }
        Line& line = lines[found->second];
        open.erase(found);
        const std::int64_t value = fastlin_writer::integer_of(event.value, log, event);
        if (add && value != line.value) {
          throw InputError(log.source, event.pos, "fastlin cannot write an add that completes with another value");
        }
        line.value = value;
        line.end = position + 1;
        break;
      }
      case EventType::fail:
      case EventType::info:
        throw InputError(log.source, event.pos,
                         "fastlin's operations all complete: it has no place for a :" +
                             std::string(event.type == EventType::fail ? "fail" : "info"));
    }
  }
  std::string out = "# " + std::string(object.name) + "\n";
  for (const Line& line : lines) {
    if (line.end == 0) {
      throw InputError(log.source, line.pos, "fastlin's operations all complete: this one never does");
    }
    out += std::string(line.method) + " " + std::to_string(line.value) + " " + std::to_string(line.start) + " " +
           std::to_string(line.end) + "\n";
  }
  return out;
}

}  // namespace ariadne
