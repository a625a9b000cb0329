// A queue that promises no order, as Knossos' knossos.model/unordered-queue: the
// pending elements form a multiset; :enqueue x adds one x; :dequeue x is legal only
// while some x is pending, and removes one.
//
// A state is the sorted list (with repeats) of its pending elements' interned value
// ids, interned by content. Crashed ops: an enqueue applies; a dequeue whose result is
// unknown may have removed any pending element, so it has one successor per distinct
// pending element, and none on an empty queue. (Knossos would instead try to dequeue
// the invocation's nil, which never fits.) A dequeue that returned :empty
// (container_op.hpp) steps only from the empty multiset, to itself.
#include "models/builtin_model.hpp"
#include "models/container_op.hpp"
#include "models/content_table.hpp"
#include "models/model_factories.hpp"
#include "models/step_cache.hpp"
#include "models/value_table.hpp"

#include <algorithm>

namespace ariadne::models {

namespace {

class CompiledUnorderedQueue final : public CompiledModel {
 public:
  CompiledUnorderedQueue(const Value& init, std::span<const Operation* const> ops) {
    for (const Value& element : init.elements()) scratch_.push_back(values_.intern(element));
    std::ranges::sort(scratch_);
    initial_ = states_.intern(scratch_);
    ops_.reserve(ops.size());
    for (const Operation* op : ops) ops_.push_back(translate(*op));
  }

  StateId initial() override { return initial_; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    const ContainerOp& o = ops_[op];
    const auto id = static_cast<std::uint32_t>(state);
    switch (o.kind) {
      case ContainerStep::any: next.push_back(state); break;
      case ContainerStep::insert: cache_.append_successor(state, op, next, [&] { return enqueue(id, o.value); }); break;
      case ContainerStep::remove: cache_.append_successor(state, op, next, [&] { return dequeue(id, o.value); }); break;
      case ContainerStep::remove_any: dequeue_each(id, next); break;
      case ContainerStep::empty:
        if (states_.at(id).empty()) next.push_back(state);
        break;
      case ContainerStep::never: break;
    }
  }

  std::string describe_state(StateId state) const override {
    std::vector<Value> elements;
    for (std::uint32_t id : states_.at(static_cast<std::uint32_t>(state))) elements.push_back(values_.at(id));
    // Sorted by value, not by id, so the same multiset always reads the same.
    std::ranges::sort(elements, [](const Value& a, const Value& b) { return a < b; });
    return Value::vector(std::move(elements)).to_edn();
  }

  std::size_t memory_bytes() const override {
    return values_.memory_bytes() + states_.memory_bytes() + cache_.memory_bytes() +
           scratch_.capacity() * sizeof(std::uint32_t);
  }

 private:
  ContainerOp translate(const Operation& op) { return read_container_op(op, "enqueue", "dequeue", values_); }

  StateId enqueue(std::uint32_t state, std::uint32_t value) {
    const auto pending = states_.at(state);
    const auto position = std::ranges::upper_bound(pending, value);
    scratch_.assign(pending.begin(), position);
    scratch_.push_back(value);
    scratch_.insert(scratch_.end(), position, pending.end());
    return states_.intern(scratch_);
  }

  StateId dequeue(std::uint32_t state, std::uint32_t value) {
    const auto pending = states_.at(state);
    const auto position = std::ranges::lower_bound(pending, value);
    if (position == pending.end() || *position != value) return StepCache::kNoSuccessor;
    return remove_at(state, static_cast<std::size_t>(position - pending.begin()));
  }

  void dequeue_each(std::uint32_t state, std::vector<StateId>& next) {
    // Index-based: interning may move the arena under a span of the state.
    for (std::size_t i = 0; i < states_.at(state).size(); ++i) {
      const auto pending = states_.at(state);
      if (i > 0 && pending[i] == pending[i - 1]) continue;  // one successor per distinct value
      next.push_back(remove_at(state, i));
    }
  }

  StateId remove_at(std::uint32_t state, std::size_t index) {
    const auto pending = states_.at(state);
    scratch_.assign(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(index));
    scratch_.insert(scratch_.end(), pending.begin() + static_cast<std::ptrdiff_t>(index) + 1, pending.end());
    return states_.intern(scratch_);
  }

  ValueTable values_;
  ContentTable<std::uint32_t> states_;
  StepCache cache_;
  std::vector<ContainerOp> ops_;
  std::vector<std::uint32_t> scratch_;
  std::uint32_t initial_ = 0;
};

class UnorderedQueueModel final : public BuiltinModel {
 public:
  explicit UnorderedQueueModel(Value init) : BuiltinModel("unordered-queue"), init_(std::move(init)) {}

  std::string spec() const override { return spec_with_init(name(), init_); }

  std::optional<std::string> check_operation(const Operation& op) const override {
    if (op.f == "dequeue") return std::nullopt;
    if (op.f == "enqueue") return container_insert_problem(op, name(), "enqueue");
    return unknown_operation(op, {"enqueue", "dequeue"});
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    return std::make_unique<CompiledUnorderedQueue>(init_, ops);
  }

  // The same reading as CompiledUnorderedQueue::translate(), in the encoder's terms.
  std::optional<Semantics> semantics(std::span<const Operation* const> ops) const override {
    return describe_container(Theory::unordered_queue, init_, "enqueue", "dequeue", ops);
  }

 private:
  Value init_;  // a vector of the pending elements
};

}  // namespace

std::unique_ptr<Model> make_unordered_queue(const Value& init) {
  if (init.is_nil()) return std::make_unique<UnorderedQueueModel>(Value::vector({}));
  if (!init.is_sequential()) reject_init("unordered-queue", "a vector of pending elements", init);
  return std::make_unique<UnorderedQueueModel>(Value::vector(init.elements()));
}

}  // namespace ariadne::models
