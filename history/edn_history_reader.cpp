// Reads Jepsen/Knossos EDN histories (see docs/formats.md) and turns op maps into
// Events. The rules follow Knossos: integer processes are clients, anything else (a
// :nemesis, a node name) is bookkeeping that the checker ignores, so only client
// events must name their operation.
#include "history/edn_history_reader.hpp"

#include "history/edn_chars.hpp"
#include "history/flat_op_map.hpp"
#include "history/op_map_fields.hpp"
#include "history/op_map_lines.hpp"
#include "history/scan_room.hpp"

#include <cstring>

namespace ariadne {

namespace {

const char* kind_description(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::nil: return "nil";
    case Value::Kind::boolean: return "a boolean";
    case Value::Kind::integer:
    case Value::Kind::big_integer: return "an integer";
    case Value::Kind::floating: return "a float";
    case Value::Kind::string: return "a string";
    case Value::Kind::keyword: return "a keyword";
    case Value::Kind::symbol: return "a symbol";
    case Value::Kind::vector: return "a vector";
    case Value::Kind::list: return "a list";
    case Value::Kind::set: return "a set";
    case Value::Kind::map: return "a map";
  }
  return "a value";
}

}  // namespace

std::string describe_value(const Value& value) {
  if (value.is_nil()) return "nil";
  return std::string(kind_description(value.kind())) + " " + shorten(value.to_edn());
}

std::optional<EventType> event_type_named(std::string_view name) {
  // Once per event: compares of constant sizes, inlined.
  const char* const s = name.data();
  switch (name.size()) {
    case 2: return std::memcmp(s, "ok", 2) == 0 ? std::optional(EventType::ok) : std::nullopt;
    case 4:
      if (std::memcmp(s, "fail", 4) == 0) return EventType::fail;
      if (std::memcmp(s, "info", 4) == 0) return EventType::info;
      return std::nullopt;
    case 6: return std::memcmp(s, "invoke", 6) == 0 ? std::optional(EventType::invoke) : std::nullopt;
    default: return std::nullopt;
  }
}

EventType event_type_from_edn(const Value& type, SourcePos pos, const std::string& source) {
  if (type.is_keyword()) {
    const std::string& name = type.text();
    if (const auto named = event_type_named(name)) return *named;
    throw InputError(source, pos, "unknown :type :" + shorten(name) + ", expected :invoke, :ok, :fail or :info");
  }
  throw InputError(source, pos,
                   ":type must be a keyword (:invoke, :ok, :fail or :info), found " + describe_value(type));
}

std::string operation_name_from_edn(const Value& f, bool client, SourcePos pos, const std::string& source) {
  if (f.is_keyword() || f.is_string()) return f.text();
  if (!client) return f.to_edn();
  throw InputError(source, pos, ":f must be a keyword or string, found " + describe_value(f));
}

Event read_op_map(edn::Reader& reader, const std::string& source) {
  const SourcePos pos = reader.position();
  OpMapFields fields;
  if (const auto map = reader.open_collection("{")) {
    while (reader.more_items(*map)) {
      // Keys are nearly always keywords: matched by name, without making a Value.
      if (const auto name = reader.read_keyword_name()) {
        const auto field = OpMapFields::field_named(*name);
        if (!reader.more_items(*map)) reader.fail(map->open, "map literal has an odd number of forms");
        fields.set(field, reader.read());
        continue;
      }
      const Value key = reader.read();
      if (!reader.more_items(*map)) reader.fail(map->open, "map literal has an odd number of forms");
      fields.set(key, reader.read());
    }
    reader.close(*map);
    return std::move(fields).finish(pos, source);
  }
  // Anything else is read whole: a tagged op map (a printed Clojure record) is fine.
  const Value form = reader.read();
  if (!form.is_map()) {
    throw InputError(
        source, pos,
        "expected an op map such as {:process 0, :type :invoke, :f :read, :value nil}, found " + describe_value(form));
  }
  for (const auto& [key, value] : form.entries()) fields.set(key, value);
  return std::move(fields).finish(pos, source);
}

namespace {

// The general reader for the lines of a file of op maps that the fast path declines
// (op_map_lines.hpp). It reads op maps from a line start until one ends with nothing
// but whitespace or a comment after it on its line, where the fast path may go on.
class GeneralOpMapLines final : public GeneralLineReader {
 public:
  // `one_per_line`: Porcupine's kv rule, no two op maps on one line.
  GeneralOpMapLines(edn::Reader& reader, std::string_view text, const std::string& source, EventSink& sink,
                    bool one_per_line, const Limits* limits)
      : reader_(reader), text_(text), source_(source), sink_(sink), one_per_line_(one_per_line), limits_(limits) {}

  LinePlace read_from(LinePlace at) override {
    // At offset 0 the reader stands where it was made (past any byte-order mark),
    // or at the first form, past what comes before it.
    if (at.offset != 0) reader_.seek(at.offset, {at.line, 1});
    // The fast path never leaves an op map on the line before `at`.
    std::uint32_t previous_line = 0;
    for (;;) {
      if (reader_.at_end()) return {text_.size(), reader_.position().line};
      const SourcePos start = reader_.position();
      if (one_per_line_ && start.line == previous_line) {
        reader_.fail(
            start, "expected one op map per line, found " + reader_.describe_next() + " after the op map on this line");
      }
      sink_.add(read_op_map(reader_, source_));
      sink_.passed(reader_.offset());
      previous_line = reader_.position().line;
      if (rest_of_line_is_blank(reader_.offset()))
        return next_line_after(text_, reader_.offset(), previous_line, limits_);
    }
  }

 private:
  bool rest_of_line_is_blank(std::size_t at) const {
    for (; at < text_.size() && text_[at] != '\n'; ++at) {
      const auto c = static_cast<unsigned char>(text_[at]);
      if (c == ';') return true;
      if (!edn::is_whitespace(c)) return false;
    }
    return true;
  }

  edn::Reader& reader_;
  std::string_view text_;
  const std::string& source_;
  EventSink& sink_;
  bool one_per_line_;
  const Limits* limits_;
};

}  // namespace

void read_op_map_file(edn::Reader& reader, std::string_view text, const std::string& source, EventSink& sink,
                      const ReadPlan& plan, bool one_per_line) {
  reader.watch_memory(plan.limits);
  GeneralOpMapLines general(reader, text, source, sink, one_per_line, plan.limits);
  read_op_map_lines(text, sink, general, plan);
}

void read_edn_history(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan) {
  edn::Reader reader(text, source);
  reader.watch_memory(plan.limits);
  if (reader.at_end()) return;
  const SourcePos first = reader.position();
  if (const auto sequence = reader.open_collection("[(")) {
    // Knossos' histories are one vector of op maps, mostly one to a line: each op map
    // that starts and ends on one line is the fast path's (flat_op_map.hpp), which
    // declines what it does not read exactly as read_op_map() would, and the general
    // reader goes on after it. The line's end is searched for once per line, not per
    // op map, so a vector written on one long line is scanned once.
    FlatOpMapReader fast;
    std::size_t line_end = 0;
    Event event;
    while (reader.more_items(*sequence)) {
      const std::size_t at = reader.offset();
      if (plan.fast && text[at] == '{') {
        if (at >= line_end) line_end = find_line_end(text, at, plan.limits);
        const SourcePos pos = reader.position();
        if (const std::size_t used = fast.read_op_map(text.substr(at, line_end - at), pos, event)) {
          sink.add(std::move(event));
          reader.seek(at + used, {pos.line, pos.column + static_cast<std::uint32_t>(used)});
          sink.passed(reader.offset());
          continue;
        }
      }
      sink.add(read_op_map(reader, source));
      sink.passed(reader.offset());
    }
    reader.close(*sequence);
    if (reader.at_end()) return;
    // A vector or list wraps the ops only when it is the file's one form.
    throw InputError(source, first,
                     std::string("expected an op map, found a ") + sequence->name +
                         ": a history is one vector or list of op maps, or op maps only");
  }
  // Op maps at the top level, as Jepsen writes them: a line at a time.
  read_op_map_file(reader, text, source, sink, plan, false);
}

}  // namespace ariadne
