// The container models' compiled ops (fifo-queue, stack, unordered-queue): each op
// inserts a value, removes one, removes an unknown one (a crashed removal), or does
// nothing. What differs between the models is what a step does to the state, never
// how an op is read.
#pragma once

#include "models/value_table.hpp"

#include <ariadne/history.hpp>

#include <cstdint>
#include <string_view>

namespace ariadne::models {

enum class ContainerStep : std::uint8_t {
  any,         // changes nothing (a failed op, which never happened)
  insert,      // adds `value`
  remove,      // removes `value`: legal only where the model would remove it
  remove_any,  // a crashed removal: removes whatever the model would, or nothing
  never,       // legal nowhere
};

struct ContainerOp {
  ContainerStep kind = ContainerStep::any;
  std::uint32_t value = 0;
};

// `insert` and `remove` are the model's op names ("enqueue", "dequeue"); any other
// name was rejected by check_operation beforehand.
inline ContainerOp read_container_op(const Operation& op, std::string_view insert, std::string_view remove,
                                     ValueTable& values) {
  if (op.status == OpStatus::failed) return {ContainerStep::any};  // never happened
  if (op.f == insert) return {ContainerStep::insert, values.intern(op.value)};
  if (op.f == remove) {
    if (op.status == OpStatus::crashed) return {ContainerStep::remove_any};
    return {ContainerStep::remove, values.intern(op.value)};
  }
  return {ContainerStep::never};
}

}  // namespace ariadne::models
