// Test helpers for models: build operations by hand, compile a model for them, and
// step it by op index. Successor lists come back sorted so tests can compare them.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ariadne::model_tests {

inline Value i(std::int64_t n) { return Value::integer(n); }
inline Value kw(std::string name) { return Value::keyword(std::move(name)); }
inline Value str(std::string s) { return Value::string(std::move(s)); }
inline Value vec(std::vector<Value> xs) { return Value::vector(std::move(xs)); }

inline Operation op(std::string f, Value value, OpStatus status = OpStatus::ok, Value key = {}) {
  Operation o;
  o.f = std::move(f);
  o.value = value;
  o.invoke_value = std::move(value);
  o.status = status;
  o.key = std::move(key);
  return o;
}

inline Operation crashed(std::string f, Value value, Value key = {}) {
  return op(std::move(f), std::move(value), OpStatus::crashed, std::move(key));
}

inline Operation failed(std::string f, Value value) { return op(std::move(f), std::move(value), OpStatus::failed); }

class Harness {
 public:
  Harness(const Model& model, std::vector<Operation> ops) : ops_(std::move(ops)) {
    for (const Operation& o : ops_) pointers_.push_back(&o);
    compiled_ = model.compile(pointers_);
  }

  CompiledModel& compiled() { return *compiled_; }
  StateId initial() { return compiled_->initial(); }

  std::vector<StateId> successors(StateId state, std::uint32_t op) {
    std::vector<StateId> next;
    compiled_->step(state, op, next);
    std::ranges::sort(next);
    return next;
  }

  // The state after applying `ops` in order from the initial state, each of which
  // must have at most one successor; nullopt as soon as one has none.
  std::optional<StateId> run(std::initializer_list<std::uint32_t> ops) { return run_from(initial(), ops); }

  std::optional<StateId> run_from(StateId state, std::initializer_list<std::uint32_t> ops) {
    for (std::uint32_t o : ops) {
      const auto next = successors(state, o);
      if (next.empty()) return std::nullopt;
      if (next.size() != 1) throw std::logic_error("run(): op " + std::to_string(o) + " branches");
      state = next[0];
    }
    return state;
  }

  bool legal(StateId state, std::uint32_t op) { return !successors(state, op).empty(); }

  std::string describe(std::optional<StateId> state) {
    return state ? compiled_->describe_state(*state) : std::string("<illegal>");
  }

 private:
  std::vector<Operation> ops_;
  std::vector<const Operation*> pointers_;
  std::unique_ptr<CompiledModel> compiled_;
};

}  // namespace ariadne::model_tests
