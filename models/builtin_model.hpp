// What the built-in models share: their name, the wording of their error messages,
// the notation of their specs, and how op names and values are recognised whether
// they came from EDN (keywords) or JSON (strings).
#pragma once

#include <ariadne/model.hpp>

#include "models/semantics.hpp"

#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

namespace ariadne::models {

// Whether `v` is the keyword, string or symbol `name`: EDN histories write :read,
// JSON ones "read", and both mean the same micro-op.
bool is_named(const Value& v, std::string_view name);

// Whether `op` is the operation `f` (op.f == f): the models ask it of every op, and
// inlined with a literal the compare is a size test and a word or two.
inline bool is_f(const Operation& op, std::string_view f) {
  return op.f.size() == f.size() && std::memcmp(op.f.data(), f.data(), f.size()) == 0;
}

// A vector or list of exactly two elements, e.g. a cas value [old new].
bool is_pair(const Value& v);

// EDN text of `v`, cut short for error messages.
std::string abbreviated(const Value& v);

// "cas-register(0)": the expected.tsv notation with the initial state spelled out.
std::string spec_with_init(std::string_view name, const Value& init);

// Throws UsageError "<model>: the initial state must be <expected>, got <init>".
[[noreturn]] void reject_init(std::string_view model, std::string_view expected, const Value& init);

class BuiltinModel : public Model {
 public:
  std::string name() const final { return std::string(name_); }
  // What the ops mean to the encoder (models/semantics.hpp); nullopt: no direct
  // encoding, the encoder unrolls step() instead.
  virtual std::optional<Semantics> semantics(std::span<const Operation* const> /*ops*/) const { return std::nullopt; }
  // Why the unique-value tests (search/unique_values.hpp) cannot decide `ops`, when a
  // glance at them tells, so that the engine withdraws without describing them all
  // first; nullopt when only the test itself can tell.
  virtual std::optional<std::string> unique_values_out_of_reach(std::span<const Operation* const> /*ops*/) const {
    return std::nullopt;
  }

 protected:
  explicit BuiltinModel(std::string_view name) : name_(name) {}

  // Whether the op's value must have the model's shape. A :fail pair the model drops
  // never took effect, so only its :f has to make sense.
  bool value_matters(const Operation& op) const { return op.status != OpStatus::failed || failed_is_observation(op); }
  // "register: unknown operation :cas (expected :read or :write)"
  std::string unknown_operation(const Operation& op, std::initializer_list<std::string_view> known) const;
  // "cas-register: expected :cas value [old new], got 3"
  std::string bad_value(const Operation& op, std::string_view expected) const;

 private:
  std::string_view name_;  // a string literal from the model's own file
};

}  // namespace ariadne::models
