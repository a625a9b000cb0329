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
#include "models/model_factories.hpp"
#include "models/value_table.hpp"

namespace ariadne::models {

namespace {

enum class EtcdStep : std::uint8_t { any, read, write, cas, cas_failed, cas_unknown, never };

struct EtcdOp {
  EtcdStep kind = EtcdStep::any;
  std::uint32_t a = 0;  // read: the value read (nil: absent); write: the value; cas: old
  std::uint32_t b = 0;  // cas: new
};

class CompiledEtcd final : public CompiledModel {
 public:
  CompiledEtcd(ValueTable values, std::vector<EtcdOp> ops, std::uint32_t initial, std::uint32_t absent)
      : values_(std::move(values)), ops_(std::move(ops)), initial_(initial), absent_(absent) {}

  StateId initial() override { return initial_; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    const EtcdOp& o = ops_[op];
    switch (o.kind) {
      case EtcdStep::any: next.push_back(state); break;
      case EtcdStep::read:
        if (state == o.a) next.push_back(state);
        break;
      case EtcdStep::write: next.push_back(o.a); break;
      case EtcdStep::cas:
        if (state == o.a) next.push_back(o.b);
        break;
      case EtcdStep::cas_failed:
        if (state != o.a) next.push_back(state);
        break;
      case EtcdStep::cas_unknown: next.push_back(state == o.a ? o.b : state); break;
      case EtcdStep::never: break;
    }
  }

  std::string describe_state(StateId state) const override {
    if (state == absent_) return "absent";
    return values_.at(static_cast<std::uint32_t>(state)).to_edn();
  }

  std::size_t memory_bytes() const override { return values_.memory_bytes(); }

 private:
  ValueTable values_;
  std::vector<EtcdOp> ops_;
  std::uint32_t initial_;
  std::uint32_t absent_;
};

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
    std::vector<EtcdOp> compiled;
    compiled.reserve(ops.size());
    for (const Operation* op : ops) compiled.push_back(translate(*op, values));
    return std::make_unique<CompiledEtcd>(std::move(values), std::move(compiled), initial, absent);
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
      const EtcdOp o = translate(*op, values);
      m.effect = Effect::registers;
      switch (o.kind) {
        case EtcdStep::any:
          m.effect = Effect::none;
          if (op->status == OpStatus::failed) m.must_take_effect = false;
          break;
        case EtcdStep::never: m.effect = Effect::impossible; break;
        case EtcdStep::read: m.accesses = {{Kind::read, 0, o.a}}; break;
        case EtcdStep::write: m.accesses = {{Kind::write, 0, o.a}}; break;
        // A crashed cas that found another value changed nothing, which is the same as
        // not having taken effect: only the matching case needs describing.
        case EtcdStep::cas:
        case EtcdStep::cas_unknown: m.accesses = {{Kind::read, 0, o.a}, {Kind::write, 0, o.b}}; break;
        case EtcdStep::cas_failed: m.accesses = {{Kind::read_other_than, 0, o.a}}; break;
      }
    }
    name_values(s, values);
    return s;
  }

 private:
  static EtcdOp translate(const Operation& op, ValueTable& values) {
    const bool crashed = op.status == OpStatus::crashed;
    if (op.f == "cas" && is_pair(op.value)) {
      const auto& old_new = op.value.elements();
      const std::uint32_t old_value = values.intern(old_new[0]);
      const std::uint32_t new_value = values.intern(old_new[1]);
      switch (op.status) {
        case OpStatus::ok: return {EtcdStep::cas, old_value, new_value};
        case OpStatus::failed: return {EtcdStep::cas_failed, old_value, new_value};
        case OpStatus::crashed: return {EtcdStep::cas_unknown, old_value, new_value};
      }
    }
    // Failed reads and writes never happened (the model drops them); should an
    // engine still be handed one, taking no effect is its meaning.
    if (op.status == OpStatus::failed) return {EtcdStep::any};
    if (op.f == "read") {
      if (crashed) return {EtcdStep::any};
      return {EtcdStep::read, values.intern(op.value)};
    }
    if (op.f == "write") return {EtcdStep::write, values.intern(op.value)};
    // check_operation rejects these before any search; an unvetted one cannot happen.
    return {EtcdStep::never};
  }

  Value init_;
};

}  // namespace

std::unique_ptr<Model> make_etcd(const Value& init) { return std::make_unique<EtcdModel>(init); }

}  // namespace ariadne::models
