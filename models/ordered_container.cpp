// A sequence that grows at the back and shrinks at one end (see ordered_container.hpp).
//
// A state is the list of its elements' interned value ids, front first, interned by
// content; a removal's successor is a subspan of the state, interned without a copy.
// Crashed ops: an insert applies; a removal whose result is unknown takes whatever is
// at the removal end, so it has one successor, or none when the container is empty.
// (Knossos would instead try to remove the invocation's nil, which never fits.)
// A removal that returned :empty (container_op.hpp) steps only from the empty state,
// to itself.
#include "models/ordered_container.hpp"

#include "models/builtin_model.hpp"
#include "models/container_op.hpp"
#include "models/content_table.hpp"
#include "models/step_cache.hpp"
#include "models/value_table.hpp"

namespace ariadne::models {

namespace {

class CompiledOrderedContainer final : public CompiledModel {
 public:
  CompiledOrderedContainer(const OrderedContainerKind& kind, const Value& init, std::span<const Operation* const> ops)
      : from_front_(kind.remove_from_front) {
    for (const Value& element : init.elements()) scratch_.push_back(values_.intern(element));
    initial_ = states_.intern(scratch_);
    ops_.reserve(ops.size());
    for (const Operation* op : ops) ops_.push_back(translate(kind, *op));
  }

  StateId initial() override { return initial_; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    const ContainerOp& o = ops_[op];
    if (o.kind == ContainerStep::any) {
      next.push_back(state);
      return;
    }
    if (o.kind == ContainerStep::never) return;
    if (o.kind == ContainerStep::empty) {
      if (states_.at(static_cast<std::uint32_t>(state)).empty()) next.push_back(state);
      return;
    }
    cache_.append_successor(state, op, next, [&] { return compute(static_cast<std::uint32_t>(state), o); });
  }

  std::string describe_state(StateId state) const override {
    std::vector<Value> elements;
    for (std::uint32_t id : states_.at(static_cast<std::uint32_t>(state))) elements.push_back(values_.at(id));
    return Value::vector(std::move(elements)).to_edn();
  }

  std::size_t memory_bytes() const override {
    return values_.memory_bytes() + states_.memory_bytes() + cache_.memory_bytes() +
           scratch_.capacity() * sizeof(std::uint32_t);
  }

 private:
  ContainerOp translate(const OrderedContainerKind& kind, const Operation& op) {
    return read_container_op(op, kind.insert, kind.remove, values_);
  }

  StateId compute(std::uint32_t state, const ContainerOp& o) {
    const auto elements = states_.at(state);
    if (o.kind == ContainerStep::insert) {
      scratch_.assign(elements.begin(), elements.end());
      scratch_.push_back(o.value);
      return states_.intern(scratch_);
    }
    if (elements.empty()) return StepCache::kNoSuccessor;
    const std::uint32_t at_end = from_front_ ? elements.front() : elements.back();
    if (o.kind == ContainerStep::remove && at_end != o.value) return StepCache::kNoSuccessor;
    return states_.intern(from_front_ ? elements.subspan(1) : elements.first(elements.size() - 1));
  }

  bool from_front_;
  ValueTable values_;
  ContentTable<std::uint32_t> states_;
  StepCache cache_;
  std::vector<ContainerOp> ops_;
  std::vector<std::uint32_t> scratch_;
  std::uint32_t initial_ = 0;
};

class OrderedContainerModel final : public BuiltinModel {
 public:
  OrderedContainerModel(const OrderedContainerKind& kind, Value init)
      : BuiltinModel(kind.name), kind_(kind), init_(std::move(init)) {}

  std::string spec() const override { return spec_with_init(name(), init_); }

  std::optional<std::string> check_operation(const Operation& op) const override {
    if (op.f == kind_.remove) return std::nullopt;
    if (op.f == kind_.insert) return container_insert_problem(op, name(), kind_.insert);
    return unknown_operation(op, {kind_.insert, kind_.remove});
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    return std::make_unique<CompiledOrderedContainer>(kind_, init_, ops);
  }

  // The same reading as CompiledOrderedContainer::translate(), in the encoder's terms.
  std::optional<Semantics> semantics(std::span<const Operation* const> ops) const override {
    return describe_container(kind_.remove_from_front ? Theory::fifo_queue : Theory::stack, init_, kind_.insert,
                              kind_.remove, ops);
  }

 private:
  OrderedContainerKind kind_;
  Value init_;  // a vector, front first
};

}  // namespace

std::unique_ptr<Model> make_ordered_container(const OrderedContainerKind& kind, const Value& init) {
  if (init.is_nil()) return std::make_unique<OrderedContainerModel>(kind, Value::vector({}));
  if (!init.is_sequential()) reject_init(kind.name, "a vector of elements", init);
  return std::make_unique<OrderedContainerModel>(kind, Value::vector(init.elements()));
}

}  // namespace ariadne::models
