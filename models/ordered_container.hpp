// The machinery shared by the FIFO queue and the stack: a sequence of elements that
// grows at the back and shrinks at one end, where a removal must return exactly the
// element at that end. fifo_queue.cpp and stack.cpp pick the end and the op names.
#pragma once

#include <ariadne/model.hpp>

#include <memory>
#include <string_view>

namespace ariadne::models {

struct OrderedContainerKind {
  std::string_view name;    // "fifo-queue"
  std::string_view insert;  // op adding at the back: "enqueue"
  std::string_view remove;  // op taking from the removal end: "dequeue"
  bool remove_from_front;   // true for a queue, false for a stack
};

// `init`: nil (empty) or a vector of elements, front first. Throws UsageError.
std::unique_ptr<Model> make_ordered_container(const OrderedContainerKind& kind, const Value& init);

}  // namespace ariadne::models
