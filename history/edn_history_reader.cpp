// Reads Jepsen/Knossos EDN histories (see docs/formats.md) and turns op maps into
// Events. The rules follow Knossos: integer processes are clients, anything else (a
// :nemesis, a node name) is bookkeeping that the checker ignores, so only client
// events must name their operation.
#include "history/edn_history_reader.hpp"

#include <optional>

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

EventType event_type_from_edn(const Value& type, SourcePos pos, const std::string& source) {
  if (type.is_keyword()) {
    const std::string& name = type.text();
    if (name == "invoke") return EventType::invoke;
    if (name == "ok") return EventType::ok;
    if (name == "fail") return EventType::fail;
    if (name == "info") return EventType::info;
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

namespace {

// The fields of one op map, collected key by key. Assigning in order lets a repeated
// key keep its last value, as Value::map does.
class OpMapFields {
 public:
  enum class Field : std::uint8_t { process, type, f, value, key, index, other };

  static Field field_named(std::string_view name) {
    switch (name.size()) {
      case 1: return name == "f" ? Field::f : Field::other;
      case 3: return name == "key" ? Field::key : Field::other;
      case 4: return name == "type" ? Field::type : Field::other;
      case 5: return name == "value" ? Field::value : name == "index" ? Field::index : Field::other;
      case 7: return name == "process" ? Field::process : Field::other;
      default: return Field::other;
    }
  }

  void set(const Value& key, Value value) {
    if (key.is_keyword()) set(field_named(key.text()), std::move(value));
  }

  void set(Field field, Value value) {
    switch (field) {
      case Field::process: process_ = std::move(value); break;
      case Field::type: type_ = std::move(value); break;
      case Field::f: f_ = std::move(value); break;
      case Field::value: value_ = std::move(value); break;
      case Field::key: key_ = std::move(value); break;
      case Field::index: index_ = std::move(value); break;
      case Field::other: break;
    }
  }

  Event finish(SourcePos pos, const std::string& source) && {
    if (!process_) throw InputError(source, pos, "op map has no :process");
    if (!type_) throw InputError(source, pos, "op map has no :type");
    Event event;
    event.pos = pos;
    event.process = std::move(*process_);
    event.type = event_type_from_edn(*type_, pos, source);
    const bool client = event.process.is_integer();
    if (f_) {
      event.f = operation_name_from_edn(*f_, client, pos, source);
    } else if (client) {
      throw InputError(source, pos, "op map of client process " + event.process.to_edn() + " has no :f");
    }
    event.value = std::move(value_);
    event.key = std::move(key_);
    if (!index_.is_nil()) {
      if (index_.kind() == Value::Kind::big_integer) {
        throw InputError(source, pos, ":index " + shorten(index_.text()) + " does not fit in 64 bits");
      }
      if (!index_.is_integer()) {
        throw InputError(source, pos, ":index must be an integer, found " + describe_value(index_));
      }
      event.index = index_.as_integer();
    }
    return event;
  }

 private:
  std::optional<Value> process_;
  std::optional<Value> type_;
  std::optional<Value> f_;
  Value value_;
  Value key_;
  Value index_;
};

}  // namespace

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

void read_edn_history(std::string_view text, const std::string& source, EventSink& sink) {
  edn::Reader reader(text, source);
  if (reader.at_end()) return;
  const SourcePos first = reader.position();
  if (const auto sequence = reader.open_collection("[(")) {
    while (reader.more_items(*sequence)) {
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
  while (!reader.at_end()) {
    sink.add(read_op_map(reader, source));
    sink.passed(reader.offset());
  }
}

}  // namespace ariadne
