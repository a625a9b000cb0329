// The value source and the choice of object by model name; see atomic_object.hpp.
#include "generators/atomic_object.hpp"

#include "generators/atomic_containers.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>

namespace ariadne::generators {

std::string op_name(const AtomicOp& op) { return "op " + std::to_string(op.invoke_event); }

ValueSource::ValueSource(std::uint64_t domain, std::set<std::int64_t> reserved)
    : domain_(domain),
      reserved_(std::move(reserved)),
      // 0 is the usual initial value, so unique values start at 1 even where it is not.
      next_(static_cast<std::int64_t>(std::max<std::uint64_t>(domain, 1))) {}

std::int64_t ValueSource::fresh() {
  while (reserved_.count(next_) > 0) ++next_;
  return next_++;
}

std::unique_ptr<AtomicObject> make_atomic_object(const ObjectContext& context) {
  if (const Model* inner = independent_inner_model(context.model)) return make_independent_object(context, *inner);
  const std::string name = context.model.name();
  if (name == "register" || name == "cas-register" || name == "etcd") return make_register_object(context);
  if (name == "multi-register") return make_multi_register_object(context);
  if (name == "kv") return make_kv_object(context);
  if (name == "set") return make_set_object(context);
  if (name == "unordered-queue" || name == "fifo-queue" || name == "stack") {
    return make_container_object(context, {.empty_observations = context.empty_observations});
  }
  if (name == "mutex") return make_mutex_object(context);
  if (name == "priority-queue" || name == "max-priority-queue") return make_priority_queue_object(context);
  throw UsageError("generate atomic has no simulated object for the model '" + name + "'");
}

}  // namespace ariadne::generators
