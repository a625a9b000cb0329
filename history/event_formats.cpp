// Writing an EventLog in each input format, for `ariadne convert`: the same events in
// the same order, so op ids (invocation positions) and real time survive, and reading
// the text back gives the same history. A format that cannot hold an event says so
// (InputError at the event's position) rather than dropping what it cannot write.
//
// - edn and porcupine-kv: op maps, one per line (edn_writer.cpp); porcupine-kv is the
//   same text, which Porcupine's kv tests read when every key is a string.
// - jepsen-log: "process<TAB>:type<TAB>:f<TAB>value" lines. It has no :key, no :index
//   and no :timestamp: a keyed event is an error, :index is dropped (it only labels
//   reports), and so are timestamps, which the reading already turned into the
//   events' order (timestamp_order.hpp).
// - json: {"events": [...]} with Value::to_json, which writes keywords as strings. A
//   model may tell a keyword from a string (multi-register keys), so an invocation or
//   :ok value with a keyword inside a collection is an error; a bare keyword (a queue
//   element) turns into the same string everywhere and is kept. JSON strings are
//   UTF-8, so a string that is not (EDN strings may hold any bytes) is an error too.
// - violin-log and fastlin: collections' operations alone (violin_log_writer.cpp,
//   fastlin_writer.cpp).
#include "base/text_encoding.hpp"
#include "history/edn_writer.hpp"
#include "history/fastlin_reader.hpp"
#include "history/violin_log_reader.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>

#include <algorithm>

namespace ariadne {

namespace {

std::string_view type_name(EventType type) {
  switch (type) {
    case EventType::invoke: return "invoke";
    case EventType::ok: return "ok";
    case EventType::fail: return "fail";
    case EventType::info: return "info";
  }
  return "info";
}

constexpr std::string_view kJepsenLogPrefix = "INFO  jepsen.util - ";

std::string jepsen_log(const EventLog& log) {
  std::string out;
  for (const Event& event : log.events) {
    if (!event.key.is_nil()) {
      throw InputError(
          log.source, event.pos,
          "jepsen-log has no place for :key " + event.key.to_edn() + "; convert to edn, porcupine-kv or json");
    }
    // The reader recognises a line as an event by its process token: an integer or a
    // keyword such as :nemesis. Anything else would be read as a log prefix.
    if (!event.process.is_integer() && !event.process.is_keyword()) {
      throw InputError(log.source, event.pos,
                       "jepsen-log cannot write process " + event.process.to_edn() + " (only integers and keywords)");
    }
    // f and value as one op map writes them, so keywords and strings keep their kind.
    Event bare = event;
    bare.index.reset();
    bare.timestamp.reset();
    const std::string map = format_edn_event(bare);
    // Jepsen's own logs (and Porcupine's copies of them) start each event line with
    // the logger's prefix, and Porcupine's test parser only reads lines that have it;
    // our reader takes either.
    out += kJepsenLogPrefix;
    out += event.process.to_edn();
    out += "\t:";
    out += type_name(event.type);
    const auto f_at = map.find(", :f ");
    const auto value_at = map.find(", :value ");
    out += '\t';
    // A nemesis event read without :f has an empty name, which "" keeps.
    out += f_at == std::string::npos ? std::string("\"\"") : map.substr(f_at + 5, value_at - f_at - 5);
    out += '\t';
    out += event.value.to_edn();
    out += '\n';
  }
  return out;
}

bool contains_keyword(const Value& value) {
  if (value.is_keyword()) return true;
  if (value.is_sequential() || value.is_set()) {
    for (const Value& element : value.elements()) {
      if (contains_keyword(element)) return true;
    }
  }
  if (value.is_map()) {
    for (const auto& [key, element] : value.entries()) {
      if (contains_keyword(key) || contains_keyword(element)) return true;
    }
  }
  return false;
}

// A keyword inside a collection ([:w :x 1], {:x 0}): structure a model interprets.
// A bare keyword (a queue element :x) becomes a string everywhere alike.
bool contains_nested_keyword(const Value& value) {
  return (value.is_sequential() || value.is_set() || value.is_map()) && contains_keyword(value);
}

bool is_utf8(std::string_view text) { return first_invalid_utf8(text) == text.size(); }

// A string, keyword or symbol anywhere in `value` whose bytes are not UTF-8.
bool contains_non_utf8(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::string:
    case Value::Kind::keyword:
    case Value::Kind::symbol: return !is_utf8(value.text());
    case Value::Kind::vector:
    case Value::Kind::list:
    case Value::Kind::set: return std::any_of(value.elements().begin(), value.elements().end(), contains_non_utf8);
    case Value::Kind::map:
      return std::any_of(value.entries().begin(), value.entries().end(), [](const Value::Entry& entry) {
        return contains_non_utf8(entry.first) || contains_non_utf8(entry.second);
      });
    default: return false;
  }
}

std::string json_events(const EventLog& log) {
  std::string out = "{\"events\": [";
  bool first = true;
  for (const Event& event : log.events) {
    // JSON writes a keyword as a string, and a model tells them apart (multi-register
    // keys :x and "x" differ), so a keyword the model reads would change the history.
    // The values of :fail and :info completions are never read: their keywords
    // (:timed-out) may go.
    const bool read_by_models =
        event.process.is_integer() && (event.type == EventType::invoke || event.type == EventType::ok);
    if (read_by_models && (contains_nested_keyword(event.value) || contains_nested_keyword(event.key))) {
      throw InputError(log.source, event.pos,
                       "json has no keywords, and this event's " +
                           std::string(contains_nested_keyword(event.key) ? "key " + shorten(event.key.to_edn())
                                                                          : "value " + shorten(event.value.to_edn())) +
                           " holds one a model would read as a string instead; convert to edn or porcupine-kv");
    }
    // JSON strings are UTF-8: a byte that is not becomes U+FFFD, so two different
    // values ("a\xffb", "a\xfeb") would become one and the history another.
    if ((read_by_models && (contains_non_utf8(event.value) || contains_non_utf8(event.key))) ||
        (event.process.is_integer() && !is_utf8(event.f))) {
      throw InputError(log.source, event.pos,
                       "json strings are UTF-8, and this event's " +
                           std::string(!is_utf8(event.f)              ? ":f"
                                       : contains_non_utf8(event.key) ? "key"
                                                                      : "value") +
                           " holds bytes that are not; convert to edn or porcupine-kv, which keep them");
    }
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += "{\"process\": " + event.process.to_json() + ", \"type\": \"" + std::string(type_name(event.type)) + "\"";
    if (!event.f.empty() || event.process.is_integer()) out += ", \"f\": " + Value::string(event.f).to_json();
    out += ", \"value\": " + event.value.to_json();
    if (!event.key.is_nil()) out += ", \"key\": " + event.key.to_json();
    if (event.index) out += ", \"index\": " + std::to_string(*event.index);
    if (event.timestamp) out += ", \"timestamp\": " + std::to_string(*event.timestamp);
    out += "}";
  }
  out += "\n]}\n";
  return out;
}

}  // namespace

std::string format_events(const EventLog& log, Format format) {
  switch (format) {
    case Format::edn:
    case Format::porcupine_kv: return format_edn_events(log);
    case Format::jepsen_log: return jepsen_log(log);
    case Format::json: return json_events(log);
    case Format::violin_log: return format_violin_log(log);
    case Format::fastlin: return format_fastlin(log);
    case Format::auto_detect: break;
  }
  throw UsageError("convert: name a format to write (edn, jepsen-log, porcupine-kv, json, violin-log or fastlin)");
}

}  // namespace ariadne
