// What the built-in models' operations mean, in the terms the encoder reasons in.
//
// The encoder (encoder/) turns a history into ordering constraints without running
// the model's step function: for a register it needs to know "this op reads 3 from
// key 0 and writes 4", not a state machine. Each built-in model therefore describes
// its ops here once, next to its step function, so the two readings of the model
// live in one file and the differential tests compare them. Models that do not
// describe themselves (user-defined ones) fall back to the encoder's bounded
// unrolling, which only needs step().
#pragma once

#include <ariadne/model.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::models {

// The families of objects the encoder has a direct encoding for.
enum class Theory : std::uint8_t {
  registers,        // register, cas-register, etcd, multi-register, kv
  mutex,            // mutex
  unordered_queue,  // unordered-queue
  fifo_queue,       // fifo-queue
  stack,            // stack
  set,              // set (grow-only)
  priority_queue,   // priority-queue, max-priority-queue
};

// One effect or observation of an op on one register of a `registers` object.
struct RegisterAccess {
  enum class Kind : std::uint8_t {
    read,             // the register held `value` just before the op
    read_other_than,  // it did not hold `value` (etcd's failed cas)
    write,            // the op left `value` in the register
    append,           // the op appended the string text[value] to the register
  };
  Kind kind = Kind::read;
  std::uint32_t key = 0;    // register index, dense from 0
  std::uint32_t value = 0;  // value id
};

enum class Effect : std::uint8_t {
  none,        // changes and observes nothing (a read of nil, a crashed read, a :fail)
  impossible,  // cannot take effect with its recorded result anywhere
  registers,   // see `accesses`
  acquire,     // mutex
  release,     // mutex
  insert,      // enqueue, push: adds `element`
  remove,      // dequeue, pop: removes and returns `element`
  remove_any,  // a crashed dequeue or pop: removes whatever the model allows
  // a completed dequeue or pop that returned :empty (models/container_op.hpp): an
  // observation, legal only where the container holds nothing, changing nothing. It
  // must take effect like any completed op, so engines may not leave it out.
  remove_empty,
  // a priority queue's completed peek: observes that `element` is in the queue with
  // the top priority, changing nothing
  peek,
  add,       // set: adds `element`
  read_set,  // set: the whole set was exactly `elements`
};

struct OpMeaning {
  Effect effect = Effect::none;
  // Completed ops (and :fail observations) took effect; crashed ops may or may not.
  bool must_take_effect = true;
  // registers: every read observes the state before the op, every write or append
  // leaves the state after it; at most one write or append per key.
  std::vector<RegisterAccess> accesses;
  std::uint32_t element = 0;  // insert, remove, add, peek
  // priority_queue inserts: the entry's priority as an urgency, the larger the sooner
  // out (Semantics::initial_urgency says how).
  std::int64_t urgency = 0;
  std::vector<std::uint32_t> elements;  // read_set: sorted, without repeats
};

// Whether the op can never change the state: it changes nothing at all, or only
// observes (reads, a failed cas's read of another value, a set's read). Engines and
// encodings may leave such an op out wherever it need not take effect.
bool observes_only(const OpMeaning& meaning);

struct Semantics {
  Theory theory = Theory::registers;
  std::vector<OpMeaning> ops;  // one per op of the span described
  // registers: each key's initial value id. Containers and sets: the initial
  // elements (front of a queue first, bottom of a stack first).
  std::vector<std::uint32_t> initial;
  // priority_queue: the urgency of each initial element, beside `initial`. An urgency
  // is the priority itself where the highest goes first (max-priority-queue) and its
  // bitwise complement ~p = -p - 1 where the lowest does (priority-queue), which
  // reverses the order without overflowing, so that every reader takes the largest.
  std::vector<std::int64_t> initial_urgency;
  std::size_t value_count = 0;
  // The value of every value id. Names for messages and the strings of appends are
  // taken from them when asked for, not for every value up front: a partition of a
  // kv history has as many distinct strings as reads, and a test that declines or an
  // answer that names no value never needs them.
  std::vector<Value> values;
  // registers whose values are strings that appends concatenate (kv): text() holds.
  bool strings = false;

  // EDN of a value id, for messages.
  std::string value_name(std::uint32_t id) const {
    return id < values.size() ? values[id].to_edn() : std::to_string(id);
  }
  // registers with appends: the string of a value id (appends concatenate).
  std::string_view text(std::uint32_t id) const { return values.at(id).text(); }
};

// Filled by each model: value ids from `values`, names taken at the end.
class ValueTable;
void name_values(Semantics& semantics, const ValueTable& values);

// Queues and stacks alike: `insert` adds its value; a completed `remove` takes its
// value (or, returning :empty, observes the container empty), a crashed one whatever
// the model allows; `initial` lists the elements.
Semantics describe_container(Theory theory, const Value& initial, std::string_view insert, std::string_view remove,
                             std::span<const Operation* const> ops);

// The meaning of `ops` under `model`, or nullopt when the model has none to offer
// (a model defined outside models/).
std::optional<Semantics> semantics_of(const Model& model, std::span<const Operation* const> ops);

// An op relaxed (refute/relaxed_history.hpp): a crashed op with its invocation's f,
// key and argument, which may take effect anywhere or never. Its interval and process
// are the caller's to set; its meaning (semantics_of) is what the relaxed op could do.
Operation relaxed_twin(const Operation& op);

// BuiltinModel::unique_values_out_of_reach for any model (nullopt for the others).
std::optional<std::string> unique_values_out_of_reach(const Model& model, std::span<const Operation* const> ops);

}  // namespace ariadne::models
