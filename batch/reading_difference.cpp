#include "batch/reading_difference.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ariadne::batch {

namespace {

// A model read as Knossos reads crashed operations: a crashed op takes effect with its
// invocation's value as its result (history::complete leaves an :info op the value it
// was invoked with, and the model steps it with that), or not at all. The engines
// still treat the op as crashed (they read its status from the history, and may
// leave it out); only its steps change, since they are compiled from a twin of the op
// completed with that value. Not a BuiltinModel, so no engine applies a theory of its
// own to it: every engine steps it through compile().
class AsInvokedCompiled final : public CompiledModel {
 public:
  AsInvokedCompiled(const Model& inner, std::span<const Operation* const> ops) {
    twins_.reserve(ops.size());
    for (const Operation* op : ops) {
      twins_.push_back(*op);
      if (twins_.back().status == OpStatus::crashed) twins_.back().status = OpStatus::ok;
    }
    for (const Operation& twin : twins_) pointers_.push_back(&twin);
    inner_ = inner.compile(pointers_);
  }
  StateId initial() override { return inner_->initial(); }
  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override { inner_->step(state, op, next); }
  std::string describe_state(StateId state) const override { return inner_->describe_state(state); }
  std::size_t memory_bytes() const override { return inner_->memory_bytes(); }

 private:
  std::vector<Operation> twins_;
  std::vector<const Operation*> pointers_;
  std::unique_ptr<CompiledModel> inner_;
};

class CrashedAsInvoked final : public Model {
 public:
  explicit CrashedAsInvoked(const Model& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name() + " (crashed ops as invoked)"; }
  std::string spec() const override { return inner_.spec(); }
  std::optional<std::string> check_operation(const Operation& op) const override { return inner_.check_operation(op); }
  bool failed_is_observation(const Operation& op) const override { return inner_.failed_is_observation(op); }
  bool is_partitioned() const override { return inner_.is_partitioned(); }
  Value partition_key(const Operation& op) const override { return inner_.partition_key(op); }
  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    return std::make_unique<AsInvokedCompiled>(inner_, ops);
  }
  std::string describe_operation(const Operation& op) const override { return inner_.describe_operation(op); }

 private:
  const Model& inner_;
};

// Lists at most `shown` of the ops, "4 (dequeue nil), ...", and how many more.
std::string list_ops(const Model& model, const std::vector<const Operation*>& ops, std::size_t shown = 4) {
  std::string text;
  for (std::size_t i = 0; i < ops.size() && i < shown; ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(ops[i]->id) + " (" + model.describe_operation(*ops[i]) + ")";
  }
  if (ops.size() > shown) text += " and " + std::to_string(ops.size() - shown) + " more";
  return text;
}

// The crashed ops of `order` (one partition's part of a witness, in order) that
// cannot take effect where the witness has them if their result must be their
// invocation's value. The witness is replayed as the certificate checker does, as the
// set of states it may reach (a crashed op may have several successors); a crashed op
// is listed when, from none of those states, its twin (the same op completed with its
// invocation's value) has a successor.
std::vector<const Operation*> needing_another_result(const Model& model, const std::vector<const Operation*>& order) {
  std::vector<Operation> twins;
  for (const Operation* op : order) {
    if (op->status != OpStatus::crashed) continue;
    Operation twin = *op;
    twin.status = OpStatus::ok;
    twins.push_back(std::move(twin));
  }
  std::vector<const Operation*> span = order;
  for (const Operation& twin : twins) span.push_back(&twin);
  const std::unique_ptr<CompiledModel> compiled = model.compile(span);
  std::vector<StateId> states{compiled->initial()};
  std::vector<StateId> next;
  std::vector<const Operation*> listed;
  std::uint32_t twin_index = static_cast<std::uint32_t>(order.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    if (order[i]->status == OpStatus::crashed) {
      next.clear();
      for (const StateId state : states) compiled->step(state, twin_index, next);
      if (next.empty()) listed.push_back(order[i]);
      ++twin_index;
    }
    next.clear();
    for (const StateId state : states) compiled->step(state, i, next);
    std::ranges::sort(next);
    next.erase(std::unique(next.begin(), next.end()), next.end());
    states.swap(next);
    if (states.empty()) return {};  // not a witness after all: claim nothing
  }
  return listed;
}

// Linearizable for ariadne; not when crashed ops are read as Knossos reads them.
std::string crashed_ops_as_invoked(const History& history, const Model& model, const CheckOptions& options) {
  if (std::ranges::none_of(history.ops, [](const Operation& op) { return op.status == OpStatus::crashed; })) return {};
  const CrashedAsInvoked as_invoked(model);
  if (check(history, as_invoked, options).verdict != Verdict::not_linearizable) return {};
  std::string text =
      "read as Knossos reads a crashed op (it takes effect with its invocation's value as its result, or never), "
      "ariadne finds the history not linearizable too";
  // Which crashed ops ariadne's own witness needs with another result, to name some.
  const CheckResult witness = check(history, model, options);
  if (witness.verdict != Verdict::linearizable) return text;
  std::map<std::uint32_t, const Operation*> by_id;
  for (const Operation& op : history.ops) by_id.emplace(op.id, &op);
  std::map<Value, std::vector<const Operation*>> parts;  // each key's ops are a model of their own
  for (const std::uint32_t id : witness.linearization) {
    const Operation* op = by_id.at(id);
    parts[model.is_partitioned() ? model.partition_key(*op) : Value()].push_back(op);
  }
  std::vector<const Operation*> listed;
  for (const auto& [key, order] : parts) {
    for (const Operation* op : needing_another_result(model, order)) listed.push_back(op);
  }
  std::ranges::sort(listed, {}, &Operation::id);
  if (!listed.empty()) {
    text += "; ariadne's witness has crashed " + std::string(listed.size() == 1 ? "op " : "ops ") +
            list_ops(model, listed) + " take effect with another result";
  }
  return text;
}

std::string non_client_events(const History& history) {
  if (history.ignored.empty()) return {};
  std::size_t events = 0;
  std::string processes;
  for (const IgnoredEvents& ignored : history.ignored) {
    events += ignored.events;
    processes += (processes.empty() ? "" : ", ") + ignored.process.to_edn();
  }
  return "ariadne left out " + std::to_string(events) + " client-like events of " + processes +
         ", which is no client process; a checker that takes them as operations checks another history";
}

// Completed set reads written as a vector. Knossos' set model compares a read with its
// state by Clojure's =, under which a vector is never a set ([1] is not #{1}); ariadne
// reads a vector as the set of its elements, since JSON has no sets. A completed op
// must take effect, and such a read can take effect in no state, so for Knossos the
// history is not linearizable whatever the rest of it: seeing the read is the proof.
std::string set_reads_as_vectors(const History& history, const Model& model) {
  if (model.name() != "set") return {};
  std::vector<const Operation*> reads;
  for (const Operation& op : history.ops) {
    if (op.status == OpStatus::ok && op.f == "read" && op.value.is_sequential()) reads.push_back(&op);
  }
  if (reads.empty()) return {};
  const bool one = reads.size() == 1;
  return "the completed " + std::string(one ? "read " : "reads ") + list_ops(model, reads) +
         (one ? " gives its set as a vector" : " give their sets as vectors") +
         "; ariadne reads a vector as the set of its elements, Knossos compares it with its set state by "
         "Clojure's =, which never holds, so for Knossos the history is not linearizable";
}

}  // namespace

std::string find_reading_difference(const History& history, const Model& model, Verdict ours,
                                    const CheckOptions& options) {
  if (std::string ignored = non_client_events(history); !ignored.empty()) return ignored;
  if (ours == Verdict::linearizable) {
    if (std::string vectors = set_reads_as_vectors(history, model); !vectors.empty()) return vectors;
    if (std::string crashed = crashed_ops_as_invoked(history, model, options); !crashed.empty()) return crashed;
  }
  return "no difference in reading that ariadne tries (crashed ops, set reads written as vectors, non-client "
         "events) explains it";
}

}  // namespace ariadne::batch
