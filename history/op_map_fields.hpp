// The fields of one op map and the rules that turn them into an Event, shared by the
// general EDN reader (edn_history_reader.cpp) and the fast path for flat op maps
// (flat_op_map.cpp): both paths finish an event through this one class, so they give
// the same Event, and the general path the same message at the same place.
#pragma once

#include "history/edn_history_reader.hpp"

#include <cstring>
#include <optional>

namespace ariadne {

// The fields of one op map, collected key by key. Assigning in order lets a repeated
// key keep its last value, as Value::map does.
class OpMapFields {
 public:
  enum class Field : std::uint8_t { process, type, f, value, key, index, timestamp, other };

  // Every key of every op map comes through here: the size picks the candidate, and a
  // memcmp of a constant size, which the compiler turns into a word compare or two.
  static Field field_named(std::string_view name) {
    const char* const s = name.data();
    switch (name.size()) {
      case 1: return s[0] == 'f' ? Field::f : Field::other;
      case 3: return std::memcmp(s, "key", 3) == 0 ? Field::key : Field::other;
      case 4: return std::memcmp(s, "type", 4) == 0 ? Field::type : Field::other;
      case 5:
        return std::memcmp(s, "value", 5) == 0   ? Field::value
               : std::memcmp(s, "index", 5) == 0 ? Field::index
                                                 : Field::other;
      case 7: return std::memcmp(s, "process", 7) == 0 ? Field::process : Field::other;
      case 9: return std::memcmp(s, "timestamp", 9) == 0 ? Field::timestamp : Field::other;
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
      case Field::timestamp: timestamp_ = std::move(value); break;
      case Field::other: break;
    }
  }

  // Whether finish() would return an Event rather than throw. The fast path asks this
  // and leaves any op map that would fail to the general reader, which then reports
  // the error, so the fast path never throws from a worker thread.
  bool complete() const {
    if (!process_ || !type_ || !type_->is_keyword() || !event_type_named(type_->text())) return false;
    const bool client = process_->is_integer();
    if (client && (!f_ || !(f_->is_keyword() || f_->is_string()))) return false;
    return (index_.is_nil() || index_.is_integer()) && (timestamp_.is_nil() || timestamp_.is_integer());
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
    if (!timestamp_.is_nil()) {
      if (timestamp_.kind() == Value::Kind::big_integer) {
        throw InputError(source, pos, ":timestamp " + shorten(timestamp_.text()) + " does not fit in 64 bits");
      }
      if (!timestamp_.is_integer()) {
        throw InputError(
            source, pos,
            ":timestamp must be an integer (one clock's ticks, e.g. nanoseconds), found " + describe_value(timestamp_));
      }
      event.timestamp = timestamp_.as_integer();
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
  Value timestamp_;
};

}  // namespace ariadne
