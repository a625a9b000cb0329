// StepModel (include/ariadne/model.hpp): a user-defined model given as an initial
// state and a step function over Values, compiled for the engines like any built-in
// model.
//
// Engines compare and hash states as integers, so the compiled model interns every
// state the step function returns into a dense StateId, as the built-in models do
// with their values. A user's step function is opaque and may build a new composite
// Value on every call, so each (state, op) step is also memoised: searches revisit
// the same step many times, and a hit then costs one probe instead of a virtual call,
// a Value hash and an equality test.
#include <ariadne/model.hpp>

#include "models/step_cache.hpp"
#include "models/value_table.hpp"

#include <algorithm>

namespace ariadne {

namespace {

class CompiledStepModel final : public CompiledModel {
 public:
  CompiledStepModel(const StepModel& model, std::span<const Operation* const> ops) : model_(model) {
    // The engines' spans may not outlive this compiled model; the operations are
    // copied so that step() never reads through a dangling pointer.
    ops_.reserve(ops.size());
    for (const Operation* op : ops) ops_.push_back(*op);
    initial_ = states_.intern(model.initial_state());
  }

  StateId initial() override { return initial_; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    cache_.append_successor(state, op, next, [&]() -> StateId {
      const std::optional<Value> to = model_.step(states_.at(static_cast<std::uint32_t>(state)), ops_[op]);
      if (!to) return models::StepCache::kNoSuccessor;
      return states_.intern(*to);
    });
  }

  std::string describe_state(StateId state) const override {
    return states_.at(static_cast<std::uint32_t>(state)).to_edn();
  }

  std::size_t memory_bytes() const override { return states_.memory_bytes() + cache_.memory_bytes(); }

 private:
  const StepModel& model_;
  std::vector<Operation> ops_;
  models::ValueTable states_;
  models::StepCache cache_;
  StateId initial_ = 0;
};

}  // namespace

StepModel::StepModel(std::string name, Value initial, std::vector<std::string> operations)
    : name_(std::move(name)), initial_(std::move(initial)), operations_(std::move(operations)) {}

std::string StepModel::spec() const { return name_ + "(" + initial_.to_edn() + ")"; }

std::optional<std::string> StepModel::check_operation(const Operation& op) const {
  if (operations_.empty() || std::ranges::find(operations_, op.f) != operations_.end()) return std::nullopt;
  std::string message = name_ + ": unknown operation :" + shorten(op.f) + " (expected ";
  for (std::size_t i = 0; i < operations_.size(); ++i) {
    if (i > 0) message += i + 1 == operations_.size() ? " or " : ", ";
    message += ":" + operations_[i];
  }
  return message + ")";
}

std::string StepModel::describe_operation(const Operation& op) const {
  if (!op.value.is_nil()) return Model::describe_operation(op);
  return op.key.is_nil() ? op.f : op.f + " " + op.key.to_edn();
}

std::unique_ptr<CompiledModel> StepModel::compile(std::span<const Operation* const> ops) const {
  return std::make_unique<CompiledStepModel>(*this, ops);
}

}  // namespace ariadne
