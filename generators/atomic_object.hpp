// The contract between the atomic simulation (atomic_simulation.hpp), which runs
// clients, crashes and real time, and the simulated objects, one per family of models
// (atomic_registers.cpp, atomic_keyed.cpp, atomic_containers.cpp, atomic_mutex.cpp,
// atomic_priority_queue.cpp), which choose operations, compute their results at their
// linearization points, and know how to break their violation pattern. The simulation never looks inside an
// operation's values; an object never sees time.
#pragma once

#include "generators/seeded_random.hpp"

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>

namespace ariadne::generators {

// One operation of the simulated object, as the simulation records it.
struct AtomicOp {
  std::string f;
  Value key;  // kv's :key; nil for every other model
  Value invoke_value;
  // The :ok or :fail completion's value, set at the linearization point (and by
  // break_pattern). Crashed ops complete with their invocation's value instead.
  Value result;
  EventType completion = EventType::ok;  // :ok or :fail; :info once crashed
  bool crashed = false;                  // decided at invocation; never a pattern op
  std::size_t slot = 0;                  // the client slot running it
  std::int64_t process = 0;
  std::size_t invoke_event = 0;             // its invocation's position in the log: the op id
  std::optional<std::size_t> pattern_step;  // its place in the violation pattern, if any
  bool took_effect = false;                 // reached its linearization point (crashed ops: maybe never)
};

// "op 17", the way `ariadne check` names operations (invocation positions).
std::string op_name(const AtomicOp& op);

// The values written, added, enqueued or pushed. With a domain of K values they are
// drawn from 0..K-1 and repeat; without one every value is fresh. Fresh values are
// never drawn twice and avoid the domain and every integer in the initial state, so a
// violation pattern can rely on being the only one to use them.
class ValueSource {
 public:
  ValueSource(std::uint64_t domain, std::set<std::int64_t> reserved);

  bool unique() const { return domain_ == 0; }
  std::int64_t draw(SeededRandom& random) {
    return unique() ? fresh() : static_cast<std::int64_t>(random.below(domain_));
  }
  std::int64_t fresh();

 private:
  std::uint64_t domain_;
  std::set<std::int64_t> reserved_;
  std::int64_t next_;
};

// A simulated atomic object. Operations reach it one at a time, at their linearization
// points, so its state is always the model's sequential state.
class AtomicObject {
 public:
  virtual ~AtomicObject() = default;

  // The next operation client `slot` invokes: f, key and invoke_value.
  virtual AtomicOp next_op(std::size_t slot) = 0;
  // The linearization point: changes the state and, for an operation that will
  // complete, sets result and completion (:ok, or :fail when the model's semantics say
  // the op did not happen, e.g. a cas that found another value). Crashed operations
  // come here too, when and if they take effect; what a crashed client never learns
  // must not change what that slot's next operations assume.
  virtual void take_effect(AtomicOp& op) = 0;

  // The violation pattern: how many operations it has, and step `step` of it, invoked
  // once step - 1 has completed (the simulation never crashes them).
  virtual std::size_t pattern_size() const = 0;
  virtual AtomicOp pattern_op(std::size_t step) = 0;
  // After the run: changes the pattern's results (ops in step order) so that no order
  // of the history explains them, and returns the sentence saying which operations
  // form the violation and why it cannot be linearized.
  virtual std::string break_pattern(std::span<AtomicOp* const> pattern) = 0;

  // Whether a crashed operation may take effect after its :info, as well as before.
  // The mutex says no: a lock taken by a client that no longer exists would stay
  // taken for the rest of the history.
  virtual bool effect_may_follow_crash() const { return true; }
  // Whether client `slot`'s next operation must not overlap the pattern in real time
  // (the mutex's releases). Such operations are not in flight when the pattern starts,
  // are not invoked until it ends, and do not crash before it ends, since a crashed
  // operation stays open to the end of the history.
  virtual bool next_op_must_avoid_pattern(std::size_t /*slot*/) const { return false; }
  // Whether now is a good moment for the pattern's first step (the mutex: the lock is
  // free, so the first acquire really takes it). The simulation waits for one while
  // other operations may still be invoked, and starts the pattern regardless after.
  virtual bool pattern_may_start() const { return true; }
};

// What an object is built from. The references outlive the object.
struct ObjectContext {
  const Model& model;
  Value init;  // the model's initial state as its spec gives it; nil for the default
  std::size_t processes = 1;
  SeededRandom& random;
  ValueSource& values;
  std::size_t keys = 0;             // keyed models: how many keys (k0, k1 ...); 0: the init's, else 3
                                    // independent(MODEL): how many independent keys
  bool empty_observations = false;  // containers: ContainerOptions::empty_observations
};

// The object for `context.model`; throws UsageError for a model without one.
std::unique_ptr<AtomicObject> make_atomic_object(const ObjectContext& context);

// The families, one file each.
std::unique_ptr<AtomicObject> make_register_object(const ObjectContext& context);  // register, cas-register, etcd
std::unique_ptr<AtomicObject> make_multi_register_object(const ObjectContext& context);
std::unique_ptr<AtomicObject> make_kv_object(const ObjectContext& context);
std::unique_ptr<AtomicObject> make_set_object(const ObjectContext& context);
std::unique_ptr<AtomicObject> make_priority_queue_object(const ObjectContext& context);  // both orders
std::unique_ptr<AtomicObject> make_mutex_object(const ObjectContext& context);
// independent(MODEL): one object of `inner` per key, context.keys of them, else
// kDefaultIndependentKeys.
inline constexpr std::size_t kDefaultIndependentKeys = 10;
std::unique_ptr<AtomicObject> make_independent_object(const ObjectContext& context, const Model& inner);

}  // namespace ariadne::generators
