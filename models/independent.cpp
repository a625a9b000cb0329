// independent(MODEL): Jepsen's jepsen.independent, where every value is a tuple
// [key value] and each key is an object of its own. An op stands for the op of MODEL
// that its tuple's value describes, on the object its tuple's key names.
//
// Checking every key on its own is sound and complete by locality (Herlihy and Wing,
// "Linearizability: A Correctness Condition for Concurrent Objects", TOPLAS 1990,
// theorem 1): a history of several objects is linearizable exactly when each object's
// subhistory is. Crashed ops need nothing extra: a crashed op belongs to the key its
// invocation names, and whether it took effect is that key's question alone.
//
// The model is partitioned by key, so everything that works on a partitioned model
// (the certificate checker, the report's lanes and states) works on it as it is;
// check() goes further and checks each key's history with MODEL itself
// (portfolio/independent.cpp), so that every engine MODEL has applies.
#include "models/independent.hpp"

#include "models/builtin_model.hpp"

#include <ariadne/errors.hpp>

#include <utility>
#include <vector>

namespace ariadne {

namespace {

// A value of the op as recorded: a tuple [key value], or nil where a completion
// carried none (Jepsen's :info and :fail completions of a crash may).
struct Tuple {
  const Value* key = nullptr;
  const Value* value = nullptr;
};

std::optional<Tuple> as_tuple(const Value& v) {
  if (!models::is_pair(v)) return std::nullopt;
  return Tuple{&v.elements()[0], &v.elements()[1]};
}

class IndependentCompiled final : public CompiledModel {
 public:
  IndependentCompiled(const Model& inner, std::vector<Operation> unwrapped) : unwrapped_(std::move(unwrapped)) {
    pointers_.reserve(unwrapped_.size());
    for (const Operation& op : unwrapped_) pointers_.push_back(&op);
    inner_ = inner.compile(pointers_);
  }
  StateId initial() override { return inner_->initial(); }
  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override { inner_->step(state, op, next); }
  std::string describe_state(StateId state) const override { return inner_->describe_state(state); }
  std::size_t memory_bytes() const override { return inner_->memory_bytes(); }

 private:
  std::vector<Operation> unwrapped_;  // the inner model's ops; pointers_ and inner_ refer to them
  std::vector<const Operation*> pointers_;
  std::unique_ptr<CompiledModel> inner_;
};

class IndependentModel final : public Model {
 public:
  explicit IndependentModel(std::unique_ptr<Model> inner) : inner_(std::move(inner)) {}

  const Model& inner() const { return *inner_; }

  std::string name() const override { return "independent(" + inner_->name() + ")"; }
  std::string spec() const override { return "independent(" + inner_->spec() + ")"; }

  std::optional<std::string> check_operation(const Operation& op) const override {
    const auto invoked = as_tuple(op.invoke_value);
    if (!invoked) {
      return "independent(" + inner_->name() + "): expected a [key value] tuple for :" + shorten(op.f) + ", got " +
             shorten(op.invoke_value.to_edn());
    }
    // An :ok completion's value is the result; it must name the same key.
    if (op.status == OpStatus::ok) {
      const auto completed = as_tuple(op.value);
      if (!completed) {
        return "independent(" + inner_->name() +
               "): expected a [key value] tuple for the completion of :" + shorten(op.f) + ", got " +
               shorten(op.value.to_edn());
      }
      if (*completed->key != *invoked->key) {
        return "independent(" + inner_->name() + "): the completion names key " + shorten(completed->key->to_edn()) +
               " but its invocation named key " + shorten(invoked->key->to_edn());
      }
    }
    if (auto problem = inner_->check_operation(independent_unwrap(op))) {
      return "on key " + shorten(invoked->key->to_edn()) + ": " + *problem;
    }
    return std::nullopt;
  }

  bool failed_is_observation(const Operation& op) const override {
    return inner_->failed_is_observation(independent_unwrap(op));
  }

  bool is_partitioned() const override { return true; }
  // The tuple's key; with a keyed MODEL (kv), the pair of it and MODEL's own key.
  Value partition_key(const Operation& op) const override {
    Value key = independent_key(op);
    if (!inner_->is_partitioned()) return key;
    return Value::vector({std::move(key), inner_->partition_key(independent_unwrap(op))});
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    std::vector<Operation> unwrapped;
    unwrapped.reserve(ops.size());
    for (const Operation* op : ops) unwrapped.push_back(independent_unwrap(*op));
    return std::make_unique<IndependentCompiled>(*inner_, std::move(unwrapped));
  }

  // "write 3 on key 7": MODEL's words for the op, and the key it is on.
  std::string describe_operation(const Operation& op) const override {
    return inner_->describe_operation(independent_unwrap(op)) + " on key " + shorten(independent_key(op).to_edn());
  }

 private:
  std::unique_ptr<Model> inner_;
};

}  // namespace

Value independent_key(const Operation& op) {
  if (const auto tuple = as_tuple(op.invoke_value)) return *tuple->key;
  return {};
}

Operation independent_unwrap(const Operation& op) {
  Operation out = op;
  if (const auto invoked = as_tuple(op.invoke_value)) out.invoke_value = *invoked->value;
  if (const auto tuple = as_tuple(op.value)) {
    out.value = *tuple->value;
  } else if (op.status != OpStatus::ok) {
    out.value = out.invoke_value;
  }
  return out;
}

std::unique_ptr<Model> make_independent_model(std::unique_ptr<Model> inner) {
  if (!inner) throw UsageError("independent(): expected a model to check each key with");
  return std::make_unique<IndependentModel>(std::move(inner));
}

const Model* independent_inner_model(const Model& model) {
  if (const auto* independent = dynamic_cast<const IndependentModel*>(&model)) return &independent->inner();
  return nullptr;
}

}  // namespace ariadne
