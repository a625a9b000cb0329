// The container models' compiled ops (fifo-queue, stack, unordered-queue): each op
// inserts a value, removes one, removes an unknown one (a crashed removal), observes
// that the container is empty, or does nothing. What differs between the models is
// what a step does to the state, never how an op is read.
//
// Empty observations. A completed removal whose value is `:empty` found the container
// empty: it is legal only where the container holds nothing, and changes nothing.
// This is how the research checkers for concurrent collections record a removal that
// found nothing (Violin, Emmi et al. POPL'16: `pop => empty`; LiMo PLDI'25; Lee and
// Mathur's fastlin OOPSLA'25, which writes -1). JSON has no keywords and writes them
// as strings (Value::to_json), so the string "empty" means the same; both are
// reserved, and inserting either is bad input (container_insert_problem). A :fail
// removal stays a :fail, never an observation: Jepsen's clients log an empty dequeue
// so, and every checker drops a :fail. A crashed removal stays remove_any: it may
// take an element or not take effect at all, and "found it empty" is the latter.
#pragma once

#include "models/value_table.hpp"

#include <ariadne/history.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ariadne::models {

enum class ContainerStep : std::uint8_t {
  any,         // changes nothing (a failed op, which never happened)
  insert,      // adds `value`
  remove,      // removes `value`: legal only where the model would remove it
  remove_any,  // a crashed removal: removes whatever the model would, or nothing
  empty,       // a removal that found the container empty: legal only there, changes nothing
  never,       // legal nowhere
};

struct ContainerOp {
  ContainerStep kind = ContainerStep::any;
  std::uint32_t value = 0;
};

// Whether `v` is the reserved result of a removal that found the container empty:
// the keyword :empty, or the string "empty" that JSON writes for it.
inline bool is_empty_marker(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::keyword:
    case Value::Kind::string:
    case Value::Kind::symbol: return v.text() == "empty";
    default: return false;
  }
}

// Why `op` is bad input for a container whose ops are `insert` and `remove`, or
// nullopt: an insert of the reserved :empty, which no removal could tell from the
// observation of an empty container.
inline std::optional<std::string> container_insert_problem(const Operation& op, std::string_view model,
                                                           std::string_view insert) {
  // A :fail insert never happened: its value does not matter (BuiltinModel::value_matters).
  if (op.f != insert || op.status == OpStatus::failed || !is_empty_marker(op.value)) return std::nullopt;
  return std::string(model) + ": :" + std::string(insert) + " of " + op.value.to_edn() +
         " (reserved: a removal's :empty records that it found the " + std::string(model) + " empty)";
}

// `insert` and `remove` are the model's op names ("enqueue", "dequeue"); any other
// name was rejected by check_operation beforehand.
inline ContainerOp read_container_op(const Operation& op, std::string_view insert, std::string_view remove,
                                     ValueTable& values) {
  if (op.status == OpStatus::failed) return {ContainerStep::any};  // never happened
  if (op.f == insert) return {ContainerStep::insert, values.intern(op.value)};
  if (op.f == remove) {
    if (op.status == OpStatus::crashed) return {ContainerStep::remove_any};
    if (is_empty_marker(op.value)) return {ContainerStep::empty};
    return {ContainerStep::remove, values.intern(op.value)};
  }
  return {ContainerStep::never};
}

}  // namespace ariadne::models
