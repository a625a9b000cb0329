// Writing one small history in each of the four input formats from the raw text of
// its fields, so that a hostile field (a byte that is not UTF-8, an integer of 30
// digits, a value nested a million levels deep) lands in every format byte for byte.
// The converter (format_events) cannot do this: it writes only what a Value holds, and
// hostile bytes are exactly what a Value may not hold faithfully.
//
// Values are written in the syntax EDN and JSON share: integers, "strings" with the
// escapes both know, and vectors as [1, 2] (a comma is whitespace in EDN).
#pragma once

#include <ariadne/history.hpp>

#include <string>
#include <vector>

namespace ariadne::hostile {

struct RawEvent {
  std::string process;  // raw text: an integer, or hostile bytes
  std::string type;     // invoke, ok, fail or info, without ':' or quotes
  std::string f;        // the operation's name, without ':' or quotes
  std::string value;    // raw text in the shared syntax; empty: no value
  std::string index;    // raw text; empty: no index (a jepsen-log has none)
  std::string time;     // raw text; empty: no time (a jepsen-log has none)
};

inline constexpr Format kEventFormats[] = {Format::edn, Format::jepsen_log, Format::porcupine_kv, Format::json};

// EDN: one vector of op maps, one per line; porcupine-kv: one op map per line;
// jepsen-log: tab-separated lines with Jepsen's log prefix; JSON: {"events": [...]},
// one event per line. Every event therefore starts on line k + 1 (k = its position),
// except in EDN and JSON, whose first line holds only the opening bracket.
inline std::string write_events(const std::vector<RawEvent>& events, Format format) {
  std::string out;
  if (format == Format::edn) out += "[\n";
  if (format == Format::json) out += "{\"events\": [\n";
  for (std::size_t i = 0; i < events.size(); ++i) {
    const RawEvent& e = events[i];
    switch (format) {
      case Format::jepsen_log:
        out += "INFO  jepsen.util - " + e.process + "\t:" + e.type + "\t:" + e.f;
        if (!e.value.empty()) out += "\t" + e.value;
        break;
      case Format::json:
        out += "{\"process\": " + e.process + ", \"type\": \"" + e.type + "\", \"f\": \"" + e.f + "\"";
        if (!e.value.empty()) out += ", \"value\": " + e.value;
        if (!e.index.empty()) out += ", \"index\": " + e.index;
        if (!e.time.empty()) out += ", \"time\": " + e.time;
        out += i + 1 < events.size() ? "}," : "}";
        break;
      default:
        out += "{:process " + e.process + ", :type :" + e.type + ", :f :" + e.f;
        if (!e.value.empty()) out += ", :value " + e.value;
        if (!e.index.empty()) out += ", :index " + e.index;
        if (!e.time.empty()) out += ", :time " + e.time;
        out += "}";
    }
    out += "\n";
  }
  if (format == Format::edn) out += "]\n";
  if (format == Format::json) out += "]}\n";
  return out;
}

// The line on which event `position` starts in write_events' output.
inline std::uint32_t event_line(std::size_t position, Format format) {
  const bool opening_line = format == Format::edn || format == Format::json;
  return static_cast<std::uint32_t>(position + (opening_line ? 2 : 1));
}

// A file name with the extension a user of the format would give it.
inline std::string file_name(const std::string& stem, Format format) {
  switch (format) {
    case Format::json: return stem + ".json";
    case Format::jepsen_log: return stem + ".log";
    case Format::porcupine_kv: return stem + ".txt";
    default: return stem + ".edn";
  }
}

// write 1 by process 0, then a read of `read_value` by process 1 that begins after the
// write completed: linearizable exactly when `read_value` equals `written`.
inline std::vector<RawEvent> write_then_read(const std::string& written, const std::string& read_value) {
  return {{"0", "invoke", "write", written, "", ""},
          {"0", "ok", "write", written, "", ""},
          {"1", "invoke", "read", "", "", ""},
          {"1", "ok", "read", read_value, "", ""}};
}

struct SmallHistory {
  Format format;
  const char* model;
  std::string text;
};

// A small linearizable history in each format (a register, or kv for porcupine-kv),
// with what makes each format itself: comments, a nemesis event, log prefixes and
// annotations, escapes, metadata beside the events. Values have several digits, so
// that a cut inside one leaves another value.
inline std::vector<SmallHistory> small_histories() {
  return {
      {Format::edn, "register(0)",
       "; a register: a write, a read, a crashed write, a read of it\n"
       "[{:process 0, :type :invoke, :f :write, :value 12, :index 0}\n"
       " {:process 1, :type :invoke, :f :read, :value nil, :index 1}\n"
       " {:process 0, :type :ok, :f :write, :value 12, :index 2}\n"
       " {:process :nemesis, :type :info, :f :start, :value \"cut \\\"n1\\\"\"}\n"
       " {:process 1, :type :ok, :f :read, :value 12, :index 3}\n"
       " {:process 2, :type :invoke, :f :write, :value 345}\n"
       " {:process 0, :type :invoke, :f :read, :value nil}\n"
       " {:process 0, :type :ok, :f :read, :value 345}\n"
       " {:process 2, :type :info, :f :write, :value 345}]\n"},
      {Format::jepsen_log, "register(0)",
       "INFO  jepsen.util - 0\t:invoke\t:write\t12\n"
       "INFO  jepsen.util - 1\t:invoke\t:read\tnil\n"
       "INFO  jepsen.util - 0\t:ok\t:write\t12\n"
       ":nemesis :info :start \"cut n1 - n2\"\n"
       "INFO  jepsen.util - 1\t:ok\t:read\t12\n"
       "INFO  jepsen.util - 2\t:invoke\t:write\t345\n"
       "INFO  jepsen.util - 0\t:invoke\t:read\tnil\n"
       "INFO  jepsen.util - 0\t:ok\t:read\t345\n"
       "INFO  jepsen.util - 2\t:info\t:write\t345\t:timed-out\n"},
      {Format::porcupine_kv, "kv",
       "{:process 0, :type :invoke, :f :put, :key \"k1\", :value \"x 0 0 y\"}\n"
       "{:process 1, :type :invoke, :f :append, :key \"k1\", :value \"x 1 0 y\"}\n"
       "{:process 0, :type :ok, :f :put, :key \"k1\", :value \"x 0 0 y\"}\n"
       "{:process 2, :type :invoke, :f :get, :key \"k2\", :value \"\"}\n"
       "{:process 1, :type :ok, :f :append, :key \"k1\", :value \"x 1 0 y\"}\n"
       "{:process 2, :type :ok, :f :get, :key \"k2\", :value \"\"}\n"
       "{:process 0, :type :invoke, :f :get, :key \"k1\", :value \"\"}\n"
       "{:process 0, :type :ok, :f :get, :key \"k1\", :value \"x 0 0 yx 1 0 y\"}\n"},
      {Format::json, "register(0)",
       "{\"format\": \"ariadne\", \"events\": [\n"
       "  {\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": 12, \"index\": 0},\n"
       "  {\"process\": 1, \"type\": \"invoke\", \"f\": \"read\", \"value\": null},\n"
       "  {\"process\": 0, \"type\": \"ok\", \"f\": \"write\", \"value\": 12},\n"
       "  {\"process\": \"nemesis\", \"type\": \"info\", \"f\": \"start\", \"value\": \"cut \\u00e9\"},\n"
       "  {\"process\": 1, \"type\": \"ok\", \"f\": \"read\", \"value\": 12},\n"
       "  {\"process\": 2, \"type\": \"invoke\", \"f\": \"write\", \"value\": 345},\n"
       "  {\"process\": 0, \"type\": \"invoke\", \"f\": \"read\"},\n"
       "  {\"process\": 0, \"type\": \"ok\", \"f\": \"read\", \"value\": 345},\n"
       "  {\"process\": 2, \"type\": \"info\", \"f\": \"write\", \"value\": 345}\n"
       "]}\n"},
  };
}

}  // namespace ariadne::hostile
