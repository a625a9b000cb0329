// Options of the simulated queues and stack (atomic_containers.cpp) that the other
// objects do not have. make_atomic_object() builds them from its context: the
// defaults give the histories they always gave; `generate atomic
// --empty-observations` asks for more.
#pragma once

#include "generators/atomic_object.hpp"

#include <memory>

namespace ariadne::generators {

struct ContainerOptions {
  // A removal that finds the container empty completes :ok with :empty, the empty
  // observation (models/container_op.hpp), instead of :fail; and the violation
  // pattern is one that rests on such an observation: insert a, a removal invoked
  // after that completes returns :empty, a removal invoked after that returns a.
  bool empty_observations = false;
};

// unordered-queue, fifo-queue or stack, by context.model's name.
std::unique_ptr<AtomicObject> make_container_object(const ObjectContext& context, const ContainerOptions& options);

}  // namespace ariadne::generators
