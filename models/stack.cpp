// A last-in-first-out stack (ours; Knossos has none): :push x puts x on top; :pop x
// is legal only when the stack is non-empty and x is on top, and removes it. The
// initial state, if given, is a vector, bottom first, as Clojure's vector stacks.
#include "models/model_factories.hpp"
#include "models/ordered_container.hpp"

namespace ariadne::models {

std::unique_ptr<Model> make_stack(const Value& init) {
  static constexpr OrderedContainerKind kStack{"stack", "push", "pop", false};
  return make_ordered_container(kStack, init);
}

}  // namespace ariadne::models
