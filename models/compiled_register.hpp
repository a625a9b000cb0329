// The register family's compiled form, shared by register, cas-register and etcd:
// the state is the interned index of the register's value, and each op is one of the
// steps below. What differs between the models is how they read an op into a step
// (their translate()), never what a step does.
#pragma once

#include "models/value_table.hpp"

#include <ariadne/model.hpp>

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
      : values_(std::move(values)), ops_(std::move(ops)), initial_(initial), absent_(absent) {}

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

  std::string describe_state(StateId state) const override {
    if (absent_ && state == *absent_) return "absent";
    return values_.at(static_cast<std::uint32_t>(state)).to_edn();
  }

  std::size_t memory_bytes() const override { return values_.memory_bytes(); }

 private:
  ValueTable values_;
  std::vector<RegisterOp> ops_;
  std::uint32_t initial_;
  std::optional<std::uint32_t> absent_;
};

}  // namespace ariadne::models
