// semantics_of(): the built-in models describe their own ops (builtin_model.hpp).
#include "models/semantics.hpp"

#include "models/builtin_model.hpp"
#include "models/container_op.hpp"
#include "models/value_table.hpp"

#include <algorithm>

namespace ariadne::models {

void name_values(Semantics& semantics, const ValueTable& values) {
  semantics.value_count = values.size();
  semantics.values.clear();
  semantics.values.reserve(values.size());
  for (std::uint32_t id = 0; id < values.size(); ++id) semantics.values.push_back(values.at(id));
}

Semantics describe_container(Theory theory, const Value& initial, std::string_view insert, std::string_view remove,
                             std::span<const Operation* const> ops) {
  ValueTable values;
  Semantics s;
  s.ops.reserve(ops.size());  // one meaning per op: never moved again
  s.theory = theory;
  for (const Value& element : initial.elements()) s.initial.push_back(values.intern(element));
  for (const Operation* op : ops) {
    OpMeaning& m = s.ops.emplace_back();
    m.must_take_effect = op->status == OpStatus::ok;
    if (op->status == OpStatus::failed) {
      m.effect = Effect::none;  // never happened
    } else if (op->f == insert) {
      m.effect = Effect::insert;
      m.element = values.intern(op->value);
    } else if (op->f == remove && op->status == OpStatus::crashed) {
      m.effect = Effect::remove_any;
    } else if (op->f == remove && is_empty_marker(op->value)) {
      m.effect = Effect::remove_empty;
    } else if (op->f == remove) {
      m.effect = Effect::remove;
      m.element = values.intern(op->value);
    } else {
      m.effect = Effect::impossible;  // check_operation rejects these beforehand
    }
  }
  name_values(s, values);
  return s;
}

std::optional<Semantics> semantics_of(const Model& model, std::span<const Operation* const> ops) {
  if (const auto* builtin = dynamic_cast<const BuiltinModel*>(&model)) return builtin->semantics(ops);
  return std::nullopt;
}

Operation relaxed_twin(const Operation& op) {
  Operation twin = op;
  twin.status = OpStatus::crashed;
  twin.value = twin.invoke_value;
  twin.ret = kNever;
  return twin;
}

std::optional<std::string> unique_values_out_of_reach(const Model& model, std::span<const Operation* const> ops) {
  if (const auto* builtin = dynamic_cast<const BuiltinModel*>(&model)) return builtin->unique_values_out_of_reach(ops);
  return std::nullopt;
}

bool observes_only(const OpMeaning& meaning) {
  switch (meaning.effect) {
    case Effect::none:
    case Effect::read_set:
    case Effect::peek:
    case Effect::remove_empty: return true;
    case Effect::registers:
      return std::ranges::all_of(meaning.accesses, [](const RegisterAccess& a) {
        return a.kind == RegisterAccess::Kind::read || a.kind == RegisterAccess::Kind::read_other_than;
      });
    default: return false;
  }
}

}  // namespace ariadne::models
