// Reading a JSON report that ariadne wrote (a corpus shard's, a key shard's) back, for
// a merge: typed access to its members, failing with the report's name and the
// member's path (exit 65).
#pragma once

#include "batch/corpus_rows.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/value.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace ariadne::batch {

// Typed access to the members of one report, failing with the report's name and the
// member's path.
class ReportReader {
 public:
  explicit ReportReader(const std::string& path) : path_(path) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw InputError(path_, {}, (where.empty() ? "" : where + ": ") + what);
  }

  const Value& member(const Value& object, const std::string& where, const std::string& name) const {
    const Value* value = find(object, name);
    if (value == nullptr) fail(where, "no \"" + name + "\" field");
    return *value;
  }
  const Value* find(const Value& object, const std::string& name) const { return object.find(Value::string(name)); }
  const Value& object(const Value& parent, const std::string& where, const std::string& name) const {
    const Value& value = member(parent, where, name);
    if (!value.is_map()) fail(where, "\"" + name + "\" must be an object, got " + value.to_json());
    return value;
  }
  std::string text(const Value& parent, const std::string& where, const std::string& name) const {
    const Value& value = member(parent, where, name);
    if (!value.is_string()) fail(where, "\"" + name + "\" must be a string, got " + value.to_json());
    return value.text();
  }
  // A string member that may be null or absent (nullopt).
  std::optional<std::string> text_or_null(const Value& parent, const std::string& where,
                                          const std::string& name) const {
    const Value* value = find(parent, name);
    if (value == nullptr || value->is_nil()) return std::nullopt;
    if (!value->is_string()) fail(where, "\"" + name + "\" must be a string or null, got " + value->to_json());
    return value->text();
  }
  bool boolean(const Value& parent, const std::string& where, const std::string& name) const {
    const Value& value = member(parent, where, name);
    if (value.kind() != Value::Kind::boolean)
      fail(where, "\"" + name + "\" must be true or false, got " + value.to_json());
    return value.as_boolean();
  }
  std::size_t count(const Value& parent, const std::string& where, const std::string& name) const {
    const Value& value = member(parent, where, name);
    if (!value.is_integer() || value.as_integer() < 0) {
      fail(where, "\"" + name + "\" must be a whole number, got " + value.to_json());
    }
    return static_cast<std::size_t>(value.as_integer());
  }
  double number(const Value& parent, const std::string& where, const std::string& name) const {
    const Value& value = member(parent, where, name);
    if (value.is_integer()) return static_cast<double>(value.as_integer());
    if (value.kind() == Value::Kind::floating) return value.as_floating();
    fail(where, "\"" + name + "\" must be a number, got " + value.to_json());
  }
  std::optional<Verdict> verdict_or_null(const Value& parent, const std::string& where, const std::string& name) const {
    const auto text = text_or_null(parent, where, name);
    if (!text) return std::nullopt;
    const auto verdict = parse_verdict(*text);
    if (!verdict) fail(where, "\"" + name + "\" must be a verdict or null, got \"" + *text + "\"");
    return verdict;
  }

 private:
  const std::string& path_;
};

}  // namespace ariadne::batch
