// Shared helpers of the built-in models (see builtin_model.hpp).
#include "models/builtin_model.hpp"

#include <ariadne/errors.hpp>

namespace ariadne::models {

bool is_named(const Value& v, std::string_view name) {
  switch (v.kind()) {
    case Value::Kind::keyword:
    case Value::Kind::string:
    case Value::Kind::symbol: return v.text() == name;
    default: return false;
  }
}

bool is_pair(const Value& v) { return v.is_sequential() && v.elements().size() == 2; }

std::string abbreviated(const Value& v) { return shorten(v.to_edn()); }

std::string spec_with_init(std::string_view name, const Value& init) {
  return std::string(name) + "(" + init.to_edn() + ")";
}

void reject_init(std::string_view model, std::string_view expected, const Value& init) {
  throw UsageError(std::string(model) + ": the initial state must be " + std::string(expected) + ", got " +
                   abbreviated(init));
}

std::string BuiltinModel::unknown_operation(const Operation& op, std::initializer_list<std::string_view> known) const {
  std::string message = std::string(name_) + ": unknown operation :" + shorten(op.f) + " (expected ";
  std::size_t i = 0;
  for (std::string_view f : known) {
    if (i > 0) message += i + 1 == known.size() ? " or " : ", ";
    message += ":";
    message += f;
    ++i;
  }
  return message + ")";
}

std::string BuiltinModel::bad_value(const Operation& op, std::string_view expected) const {
  return std::string(name_) + ": expected :" + op.f + " value " + std::string(expected) + ", got " +
         abbreviated(op.value);
}

}  // namespace ariadne::models
