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

#include <unordered_map>
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

// MODEL compiled for the ops of one key, or of several. Several keys are compiled only
// when a history is decided whole (sequential consistency is not local,
// consistency.hpp): the state is then the tuple of every key's state, interned, and
// an op steps its own key's part.
class IndependentCompiled final : public CompiledModel {
 public:
  IndependentCompiled(const Model& inner, std::vector<Operation> unwrapped, const std::vector<Value>& keys)
      : unwrapped_(std::move(unwrapped)) {
    std::unordered_map<Value, std::uint32_t, ValueHash> key_index;
    std::vector<std::vector<const Operation*>> per_key;
    local_.resize(unwrapped_.size());
    for (std::size_t i = 0; i < unwrapped_.size(); ++i) {
      const auto [it, inserted] = key_index.try_emplace(keys[i], static_cast<std::uint32_t>(per_key.size()));
      if (inserted) {
        per_key.emplace_back();
        key_names_.push_back(keys[i]);
      }
      local_[i] = Local{it->second, static_cast<std::uint32_t>(per_key[it->second].size())};
      per_key[it->second].push_back(&unwrapped_[i]);
    }
    pointers_ = std::move(per_key);
    for (const auto& ops : pointers_) inner_.push_back(inner.compile(ops));
  }
  StateId initial() override {
    if (inner_.size() == 1) return inner_[0]->initial();
    std::vector<StateId> tuple;
    for (const auto& compiled : inner_) tuple.push_back(compiled->initial());
    return intern(std::move(tuple));
  }
  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    const Local where = local_[op];
    if (inner_.size() == 1) return inner_[0]->step(state, where.index, next);
    scratch_.clear();
    inner_[where.key]->step(tuples_[state][where.key], where.index, scratch_);
    for (const StateId s : scratch_) {
      std::vector<StateId> tuple = tuples_[state];
      tuple[where.key] = s;
      next.push_back(intern(std::move(tuple)));
    }
  }
  std::optional<Value> state_value(StateId state) const override {
    if (inner_.size() == 1) return inner_[0]->state_value(state);
    return std::nullopt;
  }

  std::string describe_state(StateId state) const override {
    if (inner_.size() == 1) return inner_[0]->describe_state(state);
    std::string out = "{";
    for (std::size_t k = 0; k < inner_.size(); ++k) {
      out += (k ? ", " : "") + shorten(key_names_[k].to_edn()) + " " + inner_[k]->describe_state(tuples_[state][k]);
    }
    return out + "}";
  }
  std::size_t memory_bytes() const override {
    std::size_t bytes = tuples_.size() * (inner_.size() * sizeof(StateId) + 64);
    for (const auto& compiled : inner_) bytes += compiled->memory_bytes();
    return bytes;
  }

 private:
  struct Local {
    std::uint32_t key = 0;    // index into inner_
    std::uint32_t index = 0;  // the op's index among its key's ops
  };
  struct TupleHash {
    std::size_t operator()(const std::vector<StateId>& t) const {
      std::size_t h = t.size();
      for (const StateId s : t) h = h * 0x9e3779b97f4a7c15ULL ^ (s + (h >> 7));
      return h;
    }
  };
  StateId intern(std::vector<StateId> tuple) {
    const auto [it, inserted] = ids_.try_emplace(tuple, tuples_.size());
    if (inserted) tuples_.push_back(std::move(tuple));
    return it->second;
  }

  std::vector<Operation> unwrapped_;  // the inner model's ops; pointers_ and inner_ refer to them
  std::vector<Local> local_;
  std::vector<Value> key_names_;
  std::vector<std::vector<const Operation*>> pointers_;  // per key
  std::vector<std::unique_ptr<CompiledModel>> inner_;    // per key
  std::vector<std::vector<StateId>> tuples_;             // several keys: each state's tuple
  std::unordered_map<std::vector<StateId>, StateId, TupleHash> ids_;
  std::vector<StateId> scratch_;
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

  // A key's model (and with a keyed MODEL, the key of it the partition names).
  std::unique_ptr<Model> starting_from(const Value& key, const Value& state) const override {
    const Value inner_key =
        inner_->is_partitioned() && key.is_sequential() && key.elements().size() == 2 ? key.elements()[1] : Value();
    std::unique_ptr<Model> inner = inner_->starting_from(inner_key, state);
    if (!inner) return nullptr;
    return std::make_unique<IndependentModel>(std::move(inner));
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    std::vector<Operation> unwrapped;
    std::vector<Value> keys;
    unwrapped.reserve(ops.size());
    keys.reserve(ops.size());
    for (const Operation* op : ops) {
      unwrapped.push_back(independent_unwrap(*op));
      keys.push_back(partition_key(*op));
    }
    return std::make_unique<IndependentCompiled>(*inner_, std::move(unwrapped), keys);
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
