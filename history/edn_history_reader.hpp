// Jepsen and Knossos histories written as EDN op maps, and the conversion of op maps
// into Events that the other EDN-shaped readers (Porcupine kv lines, Jepsen text
// logs) share, so that every format applies the same field rules and messages.
#pragma once

#include <ariadne/history.hpp>

#include "history/edn_reader.hpp"
#include "history/event_sink.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace ariadne {

// A file is either one vector or list of op maps, or a run of op maps at the top
// level: every top-level form is read, and when there is exactly one and it is a
// sequence, its elements are the ops. Each Event's pos is its map's opening brace.

// Reads the next form, which must be an op map: :process and :type are required, :f
// too for client (integer) processes; :value, :key and :index are optional and other
// keys are ignored. A literal map goes straight into the Event, with no map Value
// built. Event::pos, and every error about a field, is where the map starts (its
// opening brace, or its tag when it is a tagged literal).
Event read_op_map(edn::Reader& reader, const std::string& source);

// The event type a name ("invoke", "ok", "fail", "info") stands for, in every format.
std::optional<EventType> event_type_named(std::string_view name);

// The :type field: :invoke, :ok, :fail or :info.
EventType event_type_from_edn(const Value& type, SourcePos pos, const std::string& source);

// The :f field: a keyword or string names the operation (a keyword loses its colon).
// Non-client events are never checked, so anything else is kept as its EDN text.
std::string operation_name_from_edn(const Value& f, bool client, SourcePos pos, const std::string& source);

// Reads a file of op maps at the top level, a line at a time (op_map_lines.hpp): the
// EDN history reader's common case, and the Porcupine kv reader, which passes
// `one_per_line` to refuse two op maps on one line. `reader` reads `text` and stands
// at its start or at its first form; it reads the lines the fast path declines.
void read_op_map_file(edn::Reader& reader, std::string_view text, const std::string& source, EventSink& sink,
                      const ReadPlan& plan, bool one_per_line);

// A value as a message shows it: its kind and a prefix of its EDN text.
std::string describe_value(const Value& value);

}  // namespace ariadne
