// A first-in-first-out queue, as Knossos' knossos.model/fifo-queue: :enqueue x adds x
// at the back; :dequeue x is legal only when the queue is non-empty and x is at its
// front, and removes it. The initial state, if given, is a vector, front first.
#include "models/model_factories.hpp"
#include "models/ordered_container.hpp"

namespace ariadne::models {

std::unique_ptr<Model> make_fifo_queue(const Value& init) {
  static constexpr OrderedContainerKind kFifoQueue{"fifo-queue", "enqueue", "dequeue", true};
  return make_ordered_container(kFifoQueue, init);
}

}  // namespace ariadne::models
