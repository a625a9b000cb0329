// A grow-only set, as Knossos' knossos.model/set: :add x adds x; :read s is legal
// only when s equals the whole current set. Knossos compares the read with a Clojure
// set; we also accept a vector or list as the set of its elements, because JSON has
// no set literal. A completed :read must carry a collection. A read listing an
// element twice matches no set (Knossos and Porcupine reject it too): it can never
// take effect.
//
// A state is the sorted list of its elements' interned value ids (sorted by id, which
// is canonical since equal values share an id), interned by content in a ContentTable.
// Each read's set is interned at compile time too, so checking a read is comparing two
// ids. Crashed ops: an add applies; a read reveals nothing and changes nothing.
#include "models/builtin_model.hpp"
#include "models/content_table.hpp"
#include "models/model_factories.hpp"
#include "models/step_cache.hpp"
#include "models/value_table.hpp"

#include <algorithm>

namespace ariadne::models {

namespace {

enum class SetStep : std::uint8_t { any, add, read, never };

struct SetOp {
  SetStep kind = SetStep::any;
  std::uint32_t arg = 0;  // add: value id; read: state id of the set read
};

bool is_collection(const Value& v) { return v.is_set() || v.is_sequential(); }

class CompiledSet final : public CompiledModel {
 public:
  CompiledSet(const Value& init, std::span<const Operation* const> ops) {
    initial_ = intern_set(init);
    ops_.reserve(ops.size());
    for (const Operation* op : ops) ops_.push_back(translate(*op));
  }

  StateId initial() override { return initial_; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    const SetOp& o = ops_[op];
    switch (o.kind) {
      case SetStep::any: next.push_back(state); break;
      case SetStep::read:
        if (state == o.arg) next.push_back(state);
        break;
      case SetStep::add:
        cache_.append_successor(state, op, next, [&] { return add(static_cast<std::uint32_t>(state), o.arg); });
        break;
      case SetStep::never: break;
    }
  }

  std::string describe_state(StateId state) const override {
    std::vector<Value> elements;
    for (std::uint32_t id : states_.at(static_cast<std::uint32_t>(state))) elements.push_back(values_.at(id));
    return Value::set(std::move(elements)).to_edn();
  }

  std::size_t memory_bytes() const override {
    return values_.memory_bytes() + states_.memory_bytes() + cache_.memory_bytes() +
           scratch_.capacity() * sizeof(std::uint32_t);
  }

 private:
  SetOp translate(const Operation& op) {
    // A :fail pair never happened: no effect, legal anywhere.
    if (op.status == OpStatus::failed) return {SetStep::any};
    if (op.f == "add") return {SetStep::add, values_.intern(op.value)};
    if (op.f == "read") {
      if (op.status == OpStatus::crashed) return {SetStep::any};
      if (is_collection(op.value)) {
        bool repeated = false;
        const std::uint32_t read = intern_set(op.value, &repeated);
        return repeated ? SetOp{SetStep::never} : SetOp{SetStep::read, read};
      }
    }
    return {SetStep::never};  // rejected by check_operation beforehand
  }

  // With `repeated`, whether the collection lists some element twice.
  std::uint32_t intern_set(const Value& collection, bool* repeated = nullptr) {
    scratch_.clear();
    if (!collection.is_nil()) {
      for (const Value& element : collection.elements()) scratch_.push_back(values_.intern(element));
    }
    std::ranges::sort(scratch_);
    const auto listed = scratch_.size();
    scratch_.erase(std::unique(scratch_.begin(), scratch_.end()), scratch_.end());
    if (repeated) *repeated = scratch_.size() != listed;
    return states_.intern(scratch_);
  }

  std::uint32_t add(std::uint32_t state, std::uint32_t element) {
    const auto elements = states_.at(state);
    const auto position = std::ranges::lower_bound(elements, element);
    if (position != elements.end() && *position == element) return state;
    scratch_.assign(elements.begin(), position);
    scratch_.push_back(element);
    scratch_.insert(scratch_.end(), position, elements.end());
    return states_.intern(scratch_);
  }

  ValueTable values_;
  ContentTable<std::uint32_t> states_;
  StepCache cache_;
  std::vector<SetOp> ops_;
  std::vector<std::uint32_t> scratch_;
  std::uint32_t initial_ = 0;
};

// The ids of a collection's elements, sorted, without repeats; with `repeated`,
// whether it listed some element twice.
std::vector<std::uint32_t> element_ids(const Value& collection, ValueTable& values, bool* repeated = nullptr) {
  std::vector<std::uint32_t> ids;
  for (const Value& element : collection.elements()) ids.push_back(values.intern(element));
  std::ranges::sort(ids);
  const auto listed = ids.size();
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (repeated) *repeated = ids.size() != listed;
  return ids;
}

class SetModel final : public BuiltinModel {
 public:
  explicit SetModel(Value init) : BuiltinModel("set"), init_(std::move(init)) {}

  std::string spec() const override { return spec_with_init(name(), init_); }

  std::optional<std::string> check_operation(const Operation& op) const override {
    if (op.f == "add") return std::nullopt;
    if (op.f == "read") {
      // Only a completed read reports a set; a crashed one carries its invocation's nil.
      if (op.status == OpStatus::ok && !is_collection(op.value)) {
        return bad_value(op, "a set such as #{1 2} (or a vector of its elements)");
      }
      return std::nullopt;
    }
    return unknown_operation(op, {"add", "read"});
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    return std::make_unique<CompiledSet>(init_, ops);
  }

  // The same reading as CompiledSet::translate(), in the encoder's terms. The initial
  // elements and each read's elements come out sorted by id, without repeats.
  std::optional<Semantics> semantics(std::span<const Operation* const> ops) const override {
    ValueTable values;
    Semantics s;
    s.ops.reserve(ops.size());  // one meaning per op: never moved again
    s.theory = Theory::set;
    s.initial = element_ids(init_, values);
    for (const Operation* op : ops) {
      OpMeaning& m = s.ops.emplace_back();
      m.must_take_effect = op->status == OpStatus::ok;
      if (op->status == OpStatus::failed) {
        m.effect = Effect::none;
      } else if (op->f == "add") {
        m.effect = Effect::add;
        m.element = values.intern(op->value);
      } else if (op->f == "read" && op->status == OpStatus::crashed) {
        m.effect = Effect::none;  // a crashed read reveals nothing
      } else if (op->f == "read" && is_collection(op->value)) {
        bool repeated = false;
        m.elements = element_ids(op->value, values, &repeated);
        m.effect = repeated ? Effect::impossible : Effect::read_set;  // no set lists an element twice
      } else {
        m.effect = Effect::impossible;
      }
    }
    name_values(s, values);
    return s;
  }

 private:
  Value init_;  // always a set, so spec() prints one canonical form
};

}  // namespace

std::unique_ptr<Model> make_set(const Value& init) {
  if (init.is_nil()) return std::make_unique<SetModel>(Value::set({}));
  if (!is_collection(init)) reject_init("set", "a set such as #{1 2} (or a vector)", init);
  return std::make_unique<SetModel>(Value::set(init.elements()));
}

}  // namespace ariadne::models
