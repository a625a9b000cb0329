// The register family's compiled form, shared by register, cas-register and etcd:
// the state is the interned index of the register's value, and each op is one of the
// steps below. What differs between the models is how they read an op into a step
// (their translate()), never what a step does.
#pragma once

#include "models/value_table.hpp"

#include <ariadne/model.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ariadne::models {

enum class RegisterStep : std::uint8_t {
  any,          // legal anywhere, changes nothing (a read that learned nothing)
  read,         // legal when the state is a
  write,        // sets a
  cas,          // legal when the state is a; sets b
  cas_failed,   // a failed cas observed: legal when the state is not a (etcd)
  cas_unknown,  // a crashed cas: sets b where the state is a, else changes nothing (etcd)
  never,        // legal nowhere
};

struct RegisterOp {
  RegisterStep kind = RegisterStep::any;
  std::uint32_t a = 0;  // read: the value read; write: the value written; cas: old
  std::uint32_t b = 0;  // cas: new
};

class CompiledRegister final : public CompiledModel {
 public:
  // `absent`: the interned value that means "no value" (etcd's missing key), which
  // states describe as "absent"; nullopt where every state is a value.
  CompiledRegister(ValueTable values, std::vector<RegisterOp> ops, std::uint32_t initial,
                   std::optional<std::uint32_t> absent = std::nullopt)
      : values_(std::move(values)), ops_(std::move(ops)), initial_(initial), absent_(absent) {
    for (const RegisterOp& o : ops_)
      any_cas_ = any_cas_ || o.kind == RegisterStep::cas || o.kind == RegisterStep::cas_unknown;
  }

  StateId initial() override { return initial_; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    const RegisterOp& o = ops_[op];
    switch (o.kind) {
      case RegisterStep::any: next.push_back(state); break;
      case RegisterStep::read:
        if (state == o.a) next.push_back(state);
        break;
      case RegisterStep::write: next.push_back(o.a); break;
      case RegisterStep::cas:
        if (state == o.a) next.push_back(o.b);
        break;
      case RegisterStep::cas_failed:
        if (state != o.a) next.push_back(state);
        break;
      case RegisterStep::cas_unknown: next.push_back(state == o.a ? o.b : state); break;
      case RegisterStep::never: break;
    }
  }

  // A write lands on its value from every state. Between writes only a cas moves the
  // register, from its old value to its new one: a read of a, or a cas from a, can
  // become legal in state s only if s is a, or a chain of available cas ops leads
  // from s to a (a cas's own move starts at a, so listing it changes nothing).
  bool resets(std::uint32_t op) const override { return ops_[op].kind == RegisterStep::write; }

  bool may_become_legal(StateId state, std::uint32_t op, std::span<const Available> available) override {
    const RegisterOp& o = ops_[op];
    if ((o.kind != RegisterStep::read && o.kind != RegisterStep::cas) || state == o.a) return true;
    if (!any_cas_) return false;
    if (values_.size() > 64 || state >= values_.size()) return true;  // beyond the bitset: claim nothing
    // The values reachable from state through available cas ops (allowing each to be
    // used more than once only finds more: still a sound answer).
    std::array<std::uint64_t, 64> moves{};
    for (const Available& a : available) {
      const RegisterOp& c = ops_[a.op];
      if (c.kind == RegisterStep::cas || c.kind == RegisterStep::cas_unknown) moves[c.a] |= std::uint64_t{1} << c.b;
    }
    std::uint64_t reached = std::uint64_t{1} << state;
    for (std::uint64_t frontier = reached; frontier != 0;) {
      std::uint64_t next = 0;
      for (std::uint64_t f = frontier; f != 0; f &= f - 1) next |= moves[static_cast<unsigned>(std::countr_zero(f))];
      frontier = next & ~reached;
      reached |= next;
    }
    return ((reached >> o.a) & 1) != 0;
  }

  std::string describe_state(StateId state) const override {
    if (absent_ && state == *absent_) return "absent";
    return values_.at(static_cast<std::uint32_t>(state)).to_edn();
  }

  std::size_t memory_bytes() const override { return values_.memory_bytes(); }

  // etcd's absent key has no value a model could start from.
  std::optional<Value> state_value(StateId state) const override {
    if (absent_ && state == *absent_) return std::nullopt;
    return values_.at(static_cast<std::uint32_t>(state));
  }

 private:
  ValueTable values_;
  std::vector<RegisterOp> ops_;
  bool any_cas_ = false;  // a cas among the ops: reads may become legal without a write
  std::uint32_t initial_;
  std::optional<std::uint32_t> absent_;
};

}  // namespace ariadne::models
