// Sequential models: what a correct single-copy object would have answered.
//
// A Model is an immutable, thread-safe description (e.g. "cas-register starting at 0"):
// a built-in one by name (make_model, below), or a user-defined one, most simply a
// StepModel (below).
// To search, an engine compiles it for the operations of one (sub)history into a
// CompiledModel, which the engine owns alone. Compiled models name states by
// StateId; models whose states do not fit in 64 bits intern them, so that two equal
// states always get the same id and engines compare and hash states as integers.
//
// A step may depend only on the operation's f, value, key and status (never on its
// process or timing): engines rely on it to treat identical crashed ops as
// interchangeable.
//
// Unknown results: a crashed operation may take effect with any result the model
// allows, so its step may have several successors (a crashed dequeue from an
// unordered queue may remove any element) or none (a crashed cas whose expected
// value does not match: taking no effect is then the only option, and engines get
// that by not linearizing the op at all).
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/value.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ariadne {

using StateId = std::uint64_t;

class CompiledModel {
 public:
  virtual ~CompiledModel() = default;
  virtual StateId initial() = 0;
  // Appends to `next` every state that operation `op` (an index into the span the
  // model was compiled for) may lead to from `state`; appends nothing if the op
  // cannot take effect there with its recorded result. Pure in its meaning: the same
  // arguments always yield the same states (interning tables may grow).
  virtual void step(StateId state, std::uint32_t op, std::vector<StateId>& next) = 0;
  virtual std::string describe_state(StateId state) const = 0;
  // Bytes held by interning tables, counted against --memory-limit.
  virtual std::size_t memory_bytes() const { return 0; }

  // Optional facts that let a search give up on a configuration before trying its
  // orders; the defaults claim nothing, and a model that says more must say only
  // what holds for every op of the span it was compiled for.
  // resets(op): op's successor is the same from every state where it is legal (a
  // put, a plain write), so where it lands does not depend on what came before.
  virtual bool resets(std::uint32_t /*op*/) const { return false; }
  // may_become_legal(state, op, available): false only when op is not legal in
  // `state` and no sequence of distinct ops from `available` that do not reset leads
  // from `state` to a state where it is (a kv get whose string is not the key's string
  // followed by appends available). Each entry stands for `count` ops that step alike
  // (as op `op` does), each of which may be stepped once; op itself may be listed,
  // and does not count.
  struct Available {
    std::uint32_t op;  // an index like op's
    std::uint32_t count;
  };
  virtual bool may_become_legal(StateId /*state*/, std::uint32_t /*op*/, std::span<const Available> /*available*/) {
    return true;
  }
  // forget(state, window): a state that stands for `state` once nothing ahead can
  // tell them apart. The search promises that from here until it steps an op that
  // resets, it steps only crashed ops and ops listed in `window`. The model may then
  // return a state F, the same for every state it forgets, such that each such
  // sequence is legal from F exactly when it is legal from `state`, and one that ends
  // with a reset lands on the same state from both (a kv key's string that no get in
  // the window starts with: until a put, only appends can follow, and nothing reads
  // what they make). Configurations that differ only in states forgotten alike are
  // then one configuration. With an empty window any state may be forgotten: a model
  // that returns nothing then is taken to forget nothing, and searches do not work out
  // windows for it.
  virtual std::optional<StateId> forget(StateId /*state*/, std::span<const std::uint32_t> /*window*/) {
    return std::nullopt;
  }
  // The state as a value Model::starting_from() takes, so that a search can go on
  // from it in another compilation: `check --follow` carries a key's state from one
  // stretch of a growing history to the next, and drops the stretch behind. nullopt
  // (the default): the model cannot say, and the history behind is kept.
  virtual std::optional<Value> state_value(StateId /*state*/) const { return std::nullopt; }
};

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  // The model as written in expected.tsv files, e.g. "cas-register(0)".
  virtual std::string spec() const = 0;
  // Checks an operation's f and value shape. Returns a message such as
  // "expected [old new] for :cas, got 3" when the op does not fit the model. Reading
  // a large history calls it from several threads at once, so it must change nothing.
  virtual std::optional<std::string> check_operation(const Operation& op) const = 0;
  // Whether a :fail pair is an observation the model must explain (the etcd model's
  // failed cas: "the register did not hold the expected value") rather than an op
  // that never happened and is dropped.
  virtual bool failed_is_observation(const Operation& /*op*/) const { return false; }
  // Keyed models check each key on its own (locality, [HerlihyWing90]).
  virtual bool is_partitioned() const { return false; }
  virtual Value partition_key(const Operation& /*op*/) const { return {}; }
  virtual std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const = 0;
  // The model of partition `key`'s ops (nil for an unpartitioned model) starting from
  // `state`, a CompiledModel::state_value() of this model compiled for that
  // partition's ops. nullptr (the default): the model cannot start elsewhere.
  virtual std::unique_ptr<Model> starting_from(const Value& /*key*/, const Value& /*state*/) const { return nullptr; }
  // Human description of an op, e.g. "write 3" or "cas 1->2". Explanations and reports
  // quote it, so the default cuts each name and value past 80 bytes ("x…y").
  virtual std::string describe_operation(const Operation& op) const;
};

// The easy way to a user-defined model, in the manner of Porcupine's: an initial
// state and a step function, both in terms of Values, so that a counter or a bank
// account takes ten lines (examples/user_model/main.cpp has a counter). The library
// interns the states into StateIds and caches steps (models/user_model.cpp); the
// model needs no CompiledModel of its own.
//
// A step has one successor or none. A model in which a crashed op may lead to several
// states (a crashed dequeue from an unordered queue) implements Model and
// CompiledModel directly. The solver engines know nothing of a StepModel's meaning
// but its steps: they unroll it when it has at most 64 reachable states, and leave
// larger ones to the native search.
class StepModel : public Model {
 public:
  // `operations` are the op names (each op's f, without the colon) the model knows:
  // an op with any other name is bad input, so build_history() throws InputError at
  // its position instead of letting a typo become an op that never fits. An empty
  // list accepts every name.
  StepModel(std::string name, Value initial, std::vector<std::string> operations);

  // The state after `op` takes effect in `state`, or nullopt when it cannot: its
  // recorded result is impossible there. An :ok op carries the completion's value,
  // so a read compares op.value with the state. A crashed op (op.status is
  // OpStatus::crashed) carries its invocation's value and may have returned
  // anything: return the state after it takes effect whatever it returned, or
  // nullopt when it can only have taken no effect here (engines then leave it out).
  //
  // Engines call step() from several threads at once and expect the same answer for
  // the same arguments every time, so it must not change anything or throw, and it
  // must depend only on the op's f, value, key and status (never its process or
  // timing).
  virtual std::optional<Value> step(const Value& state, const Operation& op) const = 0;

  const Value& initial_state() const { return initial_; }
  std::string name() const override { return name_; }
  // The name and the initial state, e.g. "counter(0)".
  std::string spec() const override;
  // Rejects an op whose name is not one of `operations`. Override to vet values
  // too, calling this first.
  std::optional<std::string> check_operation(const Operation& op) const override;
  // A compiled model that calls step() and keeps a reference to this model, which
  // must outlive it (check() compiles and drops its compiled models before it
  // returns).
  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override;
  // As Model's, but an op without a value is its name alone: "increment", not
  // "increment nil".
  std::string describe_operation(const Operation& op) const override;

 private:
  std::string name_;
  Value initial_;
  std::vector<std::string> operations_;
};

// Model names: register, cas-register, multi-register, mutex, set, unordered-queue,
// fifo-queue, stack, kv, etcd (alias etcd-register-cas). `init` is the initial state
// (nil = the model's default). Throws UsageError for an unknown name or a bad init.
std::unique_ptr<Model> make_model(std::string_view name, const Value& init);
// "cas-register(0)", "multi-register({:x 0 :y 0})", "mutex()", "kv": the notation of
// expected.tsv files. Throws UsageError.
std::unique_ptr<Model> make_model_from_spec(std::string_view spec);
// The model `spec` names, started from `init` in place of the spec's own initial
// state, which is not read (the command line's --init): "register(5)" with init 0 is
// "register(0)". In "independent(MODEL)" every key's MODEL starts from `init`.
// Throws UsageError.
std::unique_ptr<Model> make_model_from_spec(std::string_view spec, const Value& init);
// A spec taken apart without making its model: "cas-register(0)" is the name
// "cas-register" and the argument "0", the EDN of the initial state; "kv" has no
// argument and "mutex()" an empty one; the argument of "independent(cas-register(0))"
// is the inner spec. Both are trimmed, and views into `spec`. Throws UsageError for a
// '(' without a ')' at the end.
struct ModelSpecParts {
  std::string_view name;
  std::optional<std::string_view> argument;
};
ModelSpecParts split_model_spec(std::string_view spec);
// Jepsen's jepsen.independent: every op's value is a tuple [key value], and each key
// is an object of its own, checked as a history of `inner` (locality, [HerlihyWing90]).
// check() checks the keys one by one and composes their answers as Jepsen does (any
// key not linearizable: not linearizable; else any unknown: unknown), listing each
// in CheckResult::keys. The spec is "independent(cas-register(0))", which
// make_model_from_spec() reads too. Throws UsageError when `inner` is null.
std::unique_ptr<Model> make_independent_model(std::unique_ptr<Model> inner);
// The model each key is checked with when `model` came from make_independent_model(),
// nullptr otherwise.
const Model* independent_inner_model(const Model& model);
// Names with a one-line description each, for --help.
std::vector<std::pair<std::string, std::string>> model_catalogue();

}  // namespace ariadne
