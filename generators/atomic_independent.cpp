// Simulated independent(MODEL) objects: Jepsen's jepsen.independent, where each key
// 0, 1, ... N-1 is an object of MODEL of its own and every value travels as the
// tuple [key value].
//
// One object of MODEL per key does the work; this one only picks the key of each
// operation, takes the tuple apart before the key's object sees it and puts it back
// together after. Each key's operations are then a history of that key's atomic
// object, so the whole is linearizable by construction (each key's linearization
// points, interleaved as they happened, are one of the whole).
//
// The violation is MODEL's own pattern, run on one key chosen before the run: its
// argument holds on that key's subhistory, whatever the other keys' operations did,
// since they never touch that key's object (locality [HerlihyWing90]).
#include "generators/atomic_object.hpp"

#include <ariadne/errors.hpp>

#include <optional>
#include <vector>

namespace ariadne::generators {

namespace {

class IndependentObject final : public AtomicObject {
 public:
  IndependentObject(const ObjectContext& context, const Model& inner)
      : random_(context.random), next_key_(context.processes) {
    const std::size_t count = context.keys > 0 ? context.keys : kDefaultIndependentKeys;
    for (std::size_t key = 0; key < count; ++key) {
      // Each key's object starts from MODEL's own initial state; MODEL's keys, if it
      // has any (kv inside independent), are its defaults.
      keys_.push_back(make_atomic_object(
          {inner, context.init, context.processes, context.random, context.values, 0, context.empty_observations}));
    }
    pattern_key_ = random_.below(count);
  }

  AtomicOp next_op(std::size_t slot) override {
    const std::size_t key = key_for(slot);
    next_key_[slot].reset();
    return wrap(key, keys_[key]->next_op(slot));
  }

  void take_effect(AtomicOp& op) override {
    const std::size_t key = key_of(op);
    AtomicOp inner = unwrap(op);
    keys_[key]->take_effect(inner);
    op.result = tuple(key, std::move(inner.result));
    op.completion = inner.completion;
  }

  std::size_t pattern_size() const override { return keys_[pattern_key_]->pattern_size(); }

  AtomicOp pattern_op(std::size_t step) override { return wrap(pattern_key_, keys_[pattern_key_]->pattern_op(step)); }

  // MODEL's pattern breaks on unwrapped copies of the ops, whose results and
  // completions then go back into the tuples.
  std::string break_pattern(std::span<AtomicOp* const> pattern) override {
    std::vector<AtomicOp> inner;
    inner.reserve(pattern.size());
    for (const AtomicOp* op : pattern) inner.push_back(unwrap(*op));
    std::vector<AtomicOp*> pointers;
    for (AtomicOp& op : inner) pointers.push_back(&op);
    const std::string sentence = keys_[pattern_key_]->break_pattern(pointers);
    for (std::size_t i = 0; i < pattern.size(); ++i) {
      pattern[i]->result = tuple(pattern_key_, std::move(inner[i].result));
      pattern[i]->completion = inner[i].completion;
    }
    return "On independent key " + std::to_string(pattern_key_) +
           " (the other keys are linearizable by "
           "construction, and locality checks each key on its own): " +
           sentence;
  }

  bool effect_may_follow_crash() const override { return keys_.front()->effect_may_follow_crash(); }

  // Only the pattern key's operations can get in its way; the key of the slot's next
  // operation is chosen here, ahead of next_op, so the answer holds for that op.
  bool next_op_must_avoid_pattern(std::size_t slot) const override {
    return key_for(slot) == pattern_key_ && keys_[pattern_key_]->next_op_must_avoid_pattern(slot);
  }

  bool pattern_may_start() const override { return keys_[pattern_key_]->pattern_may_start(); }

 private:
  std::size_t key_for(std::size_t slot) const {
    if (!next_key_[slot]) next_key_[slot] = random_.below(keys_.size());
    return *next_key_[slot];
  }

  static Value tuple(std::size_t key, Value value) {
    return Value::vector({Value::integer(static_cast<std::int64_t>(key)), std::move(value)});
  }

  static std::size_t key_of(const AtomicOp& op) {
    return static_cast<std::size_t>(op.invoke_value.elements()[0].as_integer());
  }

  static AtomicOp wrap(std::size_t key, AtomicOp op) {
    op.invoke_value = tuple(key, std::move(op.invoke_value));
    return op;
  }

  // The op as the key's object made it: the invocation's value without the key, and
  // the result so far (nil before the linearization point) likewise.
  static AtomicOp unwrap(const AtomicOp& op) {
    AtomicOp inner = op;
    inner.invoke_value = op.invoke_value.elements()[1];
    inner.result = op.result.is_sequential() && op.result.elements().size() == 2 ? op.result.elements()[1] : Value();
    return inner;
  }

  SeededRandom& random_;
  std::vector<std::unique_ptr<AtomicObject>> keys_;
  std::size_t pattern_key_ = 0;
  // Per client slot: the key of its next operation, once chosen (mutable: choosing it
  // early, for next_op_must_avoid_pattern, does not change what the object is).
  mutable std::vector<std::optional<std::size_t>> next_key_;
};

}  // namespace

std::unique_ptr<AtomicObject> make_independent_object(const ObjectContext& context, const Model& inner) {
  return std::make_unique<IndependentObject>(context, inner);
}

}  // namespace ariadne::generators
