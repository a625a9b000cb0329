// The read/write register and the compare-and-set register, with the semantics of
// Knossos' knossos.model/register and cas-register: :write x sets x; :read x is legal
// when x equals the state, and a read of nil is legal anywhere because nil means the
// client never learned what it read; :cas [old new] is legal only when the state
// equals old, and then sets new. A failed cas is a :fail pair, dropped before search.
//
// The state fits in a StateId as the interned index of its value. Crashed ops: a read
// reveals nothing, so it is always legal; a write applies; a cas applies only where
// its expected value matches (elsewhere the op simply never took effect).
#include "models/builtin_model.hpp"
#include "models/compiled_register.hpp"
#include "models/model_factories.hpp"
#include "models/value_table.hpp"

namespace ariadne::models {

namespace {

// Histories up to this many ops get unique_values_out_of_reach()'s glance.
constexpr std::size_t kGlanceOps = 4096;

class RegisterModel final : public BuiltinModel {
 public:
  RegisterModel(std::string_view name, bool with_cas, Value init)
      : BuiltinModel(name), with_cas_(with_cas), init_(std::move(init)) {}

  std::string spec() const override { return spec_with_init(name(), init_); }

  std::unique_ptr<Model> starting_from(const Value& /*key*/, const Value& state) const override {
    return std::make_unique<RegisterModel>(name(), with_cas_, state);
  }

  std::optional<std::string> check_operation(const Operation& op) const override {
    if (is_f(op, "read") || is_f(op, "write")) return std::nullopt;
    if (with_cas_ && is_f(op, "cas")) {
      if (value_matters(op) && !is_pair(op.value)) return bad_value(op, "[old new]");
      return std::nullopt;
    }
    if (with_cas_) return unknown_operation(op, {"read", "write", "cas"});
    return unknown_operation(op, {"read", "write"});
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    ValueTable values;
    const std::uint32_t initial = values.intern(init_);
    std::vector<RegisterOp> compiled;
    compiled.reserve(ops.size());
    for (const Operation* op : ops) compiled.push_back(translate(*op, values));
    return std::make_unique<CompiledRegister>(std::move(values), std::move(compiled), initial);
  }

  // The unique-value test declines a register history in which a value is written
  // twice (search/unique_register.cpp, classify()); most of Knossos' are such, and
  // describing every op (semantics()) only to learn that cost a small history a fifth
  // of its check. The same decline at a glance: the first op, in op order, whose
  // written value an earlier op wrote too (crashed writes count, failed ops do not),
  // named as the test names it. nullopt when the glance cannot tell: no value written
  // twice, or an op translate() would make impossible, which the test would refute.
  std::optional<std::string> unique_values_out_of_reach(std::span<const Operation* const> ops) const override {
    // A large history is what the test is for, and nearly always has its values
    // written once: a glance would be a second pass over it.
    if (ops.size() > kGlanceOps) return std::nullopt;
    ValueTable written;
    for (const Operation* op : ops) {
      const Value* value = written_value(*op);
      if (value == nullptr) {
        if (translate_kind(*op) == RegisterStep::never) return std::nullopt;
        continue;
      }
      const std::size_t before = written.size();
      if (written.intern(*value); written.size() == before) {
        return "value " + test_name(ops, *value) + " is written twice";
      }
    }
    return std::nullopt;
  }

  // The same reading as translate(), in the encoder's terms.
  std::optional<Semantics> semantics(std::span<const Operation* const> ops) const override {
    using Kind = RegisterAccess::Kind;
    ValueTable values;
    Semantics s;
    s.ops.reserve(ops.size());  // one meaning per op: never moved again
    s.theory = Theory::registers;
    s.initial = {values.intern(init_)};
    for (const Operation* op : ops) {
      OpMeaning& m = s.ops.emplace_back();
      m.must_take_effect = op->status == OpStatus::ok;
      const RegisterOp o = translate(*op, values);
      switch (o.kind) {
        case RegisterStep::any: m.effect = Effect::none; break;
        case RegisterStep::never: m.effect = Effect::impossible; break;
        case RegisterStep::read:
          m.effect = Effect::registers;
          m.accesses = {{Kind::read, 0, o.a}};
          break;
        case RegisterStep::write:
          m.effect = Effect::registers;
          m.accesses = {{Kind::write, 0, o.a}};
          break;
        case RegisterStep::cas:
          m.effect = Effect::registers;
          m.accesses = {{Kind::read, 0, o.a}, {Kind::write, 0, o.b}};
          break;
        case RegisterStep::cas_failed:
        case RegisterStep::cas_unknown:
          // etcd's steps: translate() never makes them here (a failed cas is dropped,
          // a crashed one is a cas that may take effect).
          m.effect = Effect::impossible;
          break;
      }
    }
    name_values(s, values);
    return s;
  }

 private:
  RegisterOp translate(const Operation& op, ValueTable& values) const {
    switch (const RegisterStep kind = translate_kind(op)) {
      case RegisterStep::read:
      case RegisterStep::write: return {kind, values.intern(op.value)};
      case RegisterStep::cas: {
        const auto& old_new = op.value.elements();
        return {kind, values.intern(old_new[0]), values.intern(old_new[1])};
      }
      default: return {kind};
    }
  }

  // The kind translate() gives `op`, without interning anything.
  RegisterStep translate_kind(const Operation& op) const {
    // A :fail pair never happened; should an engine still be handed one, taking no
    // effect anywhere is its meaning. A crashed read, or a read of nil, reveals nothing.
    if (op.status == OpStatus::failed) return RegisterStep::any;
    if (is_f(op, "read"))
      return op.status == OpStatus::crashed || op.value.is_nil() ? RegisterStep::any : RegisterStep::read;
    if (is_f(op, "write")) return RegisterStep::write;
    if (with_cas_ && is_f(op, "cas") && is_pair(op.value)) return RegisterStep::cas;
    // check_operation rejects the rest before any search; an unvetted one cannot happen.
    return RegisterStep::never;
  }

  // The value `op` writes in translate()'s reading, or nullptr.
  const Value* written_value(const Operation& op) const {
    switch (translate_kind(op)) {
      case RegisterStep::write: return &op.value;
      case RegisterStep::cas: return &op.value.elements()[1];
      default: return nullptr;
    }
  }

  // How the unique-value test names `value` (Semantics::value_name): by the first value
  // equal to it that semantics() interns, in its order ([1 2] and (1 2) are equal).
  std::string test_name(std::span<const Operation* const> ops, const Value& value) const {
    if (init_ == value) return init_.to_edn();
    for (const Operation* op : ops) {
      switch (translate_kind(*op)) {
        case RegisterStep::read:
        case RegisterStep::write:
          if (op->value == value) return op->value.to_edn();
          break;
        case RegisterStep::cas:
          for (const Value& part : op->value.elements()) {
            if (part == value) return part.to_edn();
          }
          break;
        default: break;
      }
    }
    return value.to_edn();
  }

  bool with_cas_;
  Value init_;
};

}  // namespace

std::unique_ptr<Model> make_register(const Value& init) {
  return std::make_unique<RegisterModel>("register", false, init);
}

std::unique_ptr<Model> make_cas_register(const Value& init) {
  return std::make_unique<RegisterModel>("cas-register", true, init);
}

}  // namespace ariadne::models
