// Porcupine's etcd register (porcupine_test.go, etcdModel), the model of the Jepsen
// etcd histories that [HornKroening15] published: a register that starts absent,
// with the ops :read, :write and :cas [old new].
//
// It differs from Knossos' cas-register in two ways. A read of nil is not a wildcard:
// it observed the register absent. And a cas that failed (:fail) is evidence, not a
// non-event: the register did not hold `old` at that moment, so the op stays in the
// history and is legal only where the state differs from `old` (absent counts as
// different), leaving it unchanged. Failed reads timed out and are dropped.
//
// The state is the interned index of its value, nil standing for absent. Porcupine
// uses integers only; any value works here. Crashed ops: a read is always legal, a
// write applies, and a cas applies where `old` matches and changes nothing elsewhere,
// exactly Porcupine's step for an unknown output.
#include "models/builtin_model.hpp"
#include "models/compiled_register.hpp"
#include "models/model_factories.hpp"
#include "models/value_table.hpp"

namespace ariadne::models {

namespace {

class EtcdModel final : public BuiltinModel {
 public:
  explicit EtcdModel(Value init) : BuiltinModel("etcd"), init_(std::move(init)) {}

  // Bare "etcd" for the usual absent start, as Porcupine's corpus writes it.
  std::string spec() const override { return init_.is_nil() ? name() : spec_with_init(name(), init_); }

  std::optional<std::string> check_operation(const Operation& op) const override {
    if (op.f == "read" || op.f == "write") return std::nullopt;
    if (op.f == "cas") {
      if (value_matters(op) && !is_pair(op.value)) return bad_value(op, "[old new]");
      return std::nullopt;
    }
    return unknown_operation(op, {"read", "write", "cas"});
  }

  bool failed_is_observation(const Operation& op) const override { return op.f == "cas"; }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    ValueTable values;
    const std::uint32_t absent = values.intern(Value());
    const std::uint32_t initial = values.intern(init_);
    std::vector<RegisterOp> compiled;
    compiled.reserve(ops.size());
    for (const Operation* op : ops) compiled.push_back(translate(*op, values));
    return std::make_unique<CompiledRegister>(std::move(values), std::move(compiled), initial, absent);
  }

  // The same reading as translate(), in the encoder's terms: absent is the value nil.
  std::optional<Semantics> semantics(std::span<const Operation* const> ops) const override {
    using Kind = RegisterAccess::Kind;
    ValueTable values;
    values.intern(Value());
    Semantics s;
    s.ops.reserve(ops.size());  // one meaning per op: never moved again
    s.theory = Theory::registers;
    s.initial = {values.intern(init_)};
    for (const Operation* op : ops) {
      OpMeaning& m = s.ops.emplace_back();
      // A failed cas is an observation and must be explained like a completed op.
      m.must_take_effect = op->status != OpStatus::crashed;
      const RegisterOp o = translate(*op, values);
      m.effect = Effect::registers;
      switch (o.kind) {
        case RegisterStep::any:
          m.effect = Effect::none;
          if (op->status == OpStatus::failed) m.must_take_effect = false;
          break;
        case RegisterStep::never: m.effect = Effect::impossible; break;
        case RegisterStep::read: m.accesses = {{Kind::read, 0, o.a}}; break;
        case RegisterStep::write: m.accesses = {{Kind::write, 0, o.a}}; break;
        // A crashed cas that found another value changed nothing, which is the same as
        // not having taken effect: only the matching case needs describing.
        case RegisterStep::cas:
        case RegisterStep::cas_unknown: m.accesses = {{Kind::read, 0, o.a}, {Kind::write, 0, o.b}}; break;
        case RegisterStep::cas_failed: m.accesses = {{Kind::read_other_than, 0, o.a}}; break;
      }
    }
    name_values(s, values);
    return s;
  }

 private:
  static RegisterOp translate(const Operation& op, ValueTable& values) {
    const bool crashed = op.status == OpStatus::crashed;
    if (op.f == "cas" && is_pair(op.value)) {
      const auto& old_new = op.value.elements();
      const std::uint32_t old_value = values.intern(old_new[0]);
      const std::uint32_t new_value = values.intern(old_new[1]);
      switch (op.status) {
        case OpStatus::ok: return {RegisterStep::cas, old_value, new_value};
        case OpStatus::failed: return {RegisterStep::cas_failed, old_value, new_value};
        case OpStatus::crashed: return {RegisterStep::cas_unknown, old_value, new_value};
      }
    }
    // Failed reads and writes never happened (the model drops them); should an
    // engine still be handed one, taking no effect is its meaning.
    if (op.status == OpStatus::failed) return {RegisterStep::any};
    if (op.f == "read") {
      if (crashed) return {RegisterStep::any};
      return {RegisterStep::read, values.intern(op.value)};
    }
    if (op.f == "write") return {RegisterStep::write, values.intern(op.value)};
    // check_operation rejects these before any search; an unvetted one cannot happen.
    return {RegisterStep::never};
  }

  Value init_;
};

}  // namespace

std::unique_ptr<Model> make_etcd(const Value& init) { return std::make_unique<EtcdModel>(init); }

}  // namespace ariadne::models
