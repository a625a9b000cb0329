// Structure-aware mutation for fuzz_check_events: instead of flipping bytes, which
// mostly breaks a history's syntax and stops at the reader, edit the events of a
// well-formed history and write it back out, so the fuzzer spends its time in
// build_history, the engines, the certificate checker and the explanations.
//
// An input is a model selector byte and a history (check_target.cpp). Each mutation
// reads the history (any format), applies one to three event edits (drop, duplicate,
// move or swap events, which reorders real time; retag :invoke/:ok/:fail/:info;
// change a value, a process, an :f or a :key, mostly to one another event carries so
// the result stays meaningful to the model; add a completion or a whole new op), and
// writes EDN op maps, one per line. One time in eight, or when the input is not a
// history, libFuzzer's own byte mutation runs instead, so that syntax and the
// selector byte are explored too. Crossover splices the head of one history onto the
// tail of another.
//
// libFuzzer passes a seed, and every choice here comes from it, so a mutation can be
// replayed.
#include "harness.hpp"

#include <ariadne/history.hpp>
#include <ariadne/value.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

using namespace ariadne;
using Random = std::minstd_rand;

std::size_t below(Random& random, std::size_t bound) { return bound == 0 ? 0 : random() % bound; }

std::optional<EventLog> read_history(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return std::nullopt;
  try {
    return parse_events(fuzz::as_text(data + 1, size - 1), "mutating");
  } catch (const std::exception&) {
    // Not a history (yet): byte mutation will take it from here. A reader bug shows
    // when the target runs the input, not here.
    return std::nullopt;
  }
}

// Writes the selector and the events to `out`; 0 when they do not fit.
std::size_t write_history(std::uint8_t selector, const EventLog& log, std::uint8_t* out, std::size_t max_size) {
  std::string text;
  try {
    text = format_events(log, Format::edn);
  } catch (const std::exception&) {
    return 0;
  }
  if (text.size() + 1 > max_size) return 0;
  out[0] = selector;
  std::memcpy(out + 1, text.data(), text.size());
  return text.size() + 1;
}

const Event& any_event(const std::vector<Event>& events, Random& random) {
  return events[below(random, events.size())];
}

// A value another event carries, or a small integer, or nil: values a model compares
// against, so an edit turns a read stale or a cas into one that matches.
Value some_value(const std::vector<Event>& events, Random& random) {
  switch (below(random, 4)) {
    case 0: return Value::integer(static_cast<std::int64_t>(below(random, 5)));
    case 1: return Value();
    default: return any_event(events, random).value;
  }
}

// Changes one element of a vector value ([old new] of a cas, a txn's micro-op), or
// the value itself when it is not a vector.
Value mutate_value(const Value& value, const std::vector<Event>& events, Random& random) {
  if (value.is_integer() && below(random, 2) == 0) {
    // Nudged towards zero at the ends of the range: an overflow here would be the
    // mutator's own undefined behaviour, which UBSan would blame on the input.
    const std::int64_t i = value.as_integer();
    const bool up = i == std::numeric_limits<std::int64_t>::min() ||
                    (i != std::numeric_limits<std::int64_t>::max() && below(random, 2) == 0);
    return Value::integer(up ? i + 1 : i - 1);
  }
  if (value.kind() == Value::Kind::vector && !value.elements().empty() && below(random, 2) == 0) {
    std::vector<Value> elements = value.elements();
    Value& element = elements[below(random, elements.size())];
    element = mutate_value(element, events, random);
    return Value::vector(std::move(elements));
  }
  return some_value(events, random);
}

Value some_process(const std::vector<Event>& events, Random& random) {
  switch (below(random, 4)) {
    case 0: return Value::integer(static_cast<std::int64_t>(below(random, 8)));
    case 1: return Value::keyword("nemesis");
    default: return any_event(events, random).process;
  }
}

// One more than the largest integer process, or the smallest non-negative one no event
// uses when the largest is already INT64_MAX (a history can carry it).
std::int64_t unused_process(const std::vector<Event>& events) {
  std::set<std::int64_t> used;
  for (const Event& event : events) {
    if (event.process.is_integer() && event.process.as_integer() >= 0) used.insert(event.process.as_integer());
  }
  if (used.empty()) return 0;
  if (*used.rbegin() != std::numeric_limits<std::int64_t>::max()) return *used.rbegin() + 1;
  std::int64_t next = 0;
  while (used.contains(next)) ++next;
  return next;
}

EventType some_type(Random& random) {
  constexpr EventType kTypes[] = {EventType::invoke, EventType::ok, EventType::fail, EventType::info};
  return kTypes[below(random, 4)];
}

void mutate_events(std::vector<Event>& events, Random& random) {
  // Every edit but "add an op" needs an event to work on.
  const std::size_t kinds = events.empty() ? 1 : 11;
  const std::size_t kind = events.empty() ? 0 : below(random, kinds);
  const std::size_t i = below(random, events.size());
  const std::size_t j = below(random, events.size());
  switch (kind) {
    case 0: {  // a new op of a fresh process: invocation and completion somewhere after it
      Event invoke = events.empty() ? Event{.process = Value::integer(0), .f = "read"} : any_event(events, random);
      invoke.process = Value::integer(unused_process(events));
      invoke.type = EventType::invoke;
      invoke.index.reset();
      Event done = invoke;
      done.type = some_type(random);
      if (done.type == EventType::invoke) done.type = EventType::ok;
      const std::size_t at = below(random, events.size() + 1);
      events.insert(events.begin() + static_cast<std::ptrdiff_t>(at), invoke);
      const std::size_t done_at = at + 1 + below(random, events.size() - at);
      events.insert(events.begin() + static_cast<std::ptrdiff_t>(done_at), done);
      break;
    }
    case 1: events.erase(events.begin() + static_cast<std::ptrdiff_t>(i)); break;
    case 2: {
      Event copy = events[i];
      events.insert(events.begin() + static_cast<std::ptrdiff_t>(j), std::move(copy));
      break;
    }
    case 3: std::swap(events[i], events[j]); break;
    case 4: {  // move one event, so its op starts or ends earlier or later
      Event moved = events[i];
      events.erase(events.begin() + static_cast<std::ptrdiff_t>(i));
      events.insert(events.begin() + static_cast<std::ptrdiff_t>(std::min(j, events.size())), std::move(moved));
      break;
    }
    case 5: events[i].type = some_type(random); break;
    case 6:
    case 7: events[i].value = mutate_value(events[i].value, events, random); break;
    case 8: events[i].process = some_process(events, random); break;
    case 9: events[i].f = events[j].f; break;
    case 10: events[i].key = below(random, 2) == 0 ? events[j].key : some_value(events, random); break;
  }
}

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  Random random(seed);
  std::optional<EventLog> log = below(random, 8) == 0 ? std::nullopt : read_history(data, size);
  if (!log) return LLVMFuzzerMutate(data, size, max_size);
  const std::size_t edits = 1 + below(random, 3);
  for (std::size_t e = 0; e < edits; ++e) mutate_events(log->events, random);
  const std::size_t written = write_history(data[0], *log, data, max_size);
  return written != 0 ? written : LLVMFuzzerMutate(data, size, max_size);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1,
                                                 const std::uint8_t* data2, std::size_t size2, std::uint8_t* out,
                                                 std::size_t max_out_size, unsigned int seed) {
  Random random(seed);
  std::optional<EventLog> head = read_history(data1, size1);
  std::optional<EventLog> tail = read_history(data2, size2);
  if (!head || !tail) return 0;
  const std::size_t keep = below(random, head->events.size() + 1);
  const std::size_t from = below(random, tail->events.size() + 1);
  head->events.resize(keep);
  head->events.insert(head->events.end(), tail->events.begin() + static_cast<std::ptrdiff_t>(from), tail->events.end());
  return write_history(data1[0], *head, out, max_out_size);
}
