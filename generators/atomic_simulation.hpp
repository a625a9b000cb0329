// Running clients against a simulated atomic object (atomic_object.hpp) and recording
// what they saw. A step of the simulation picks a client at random and advances it by
// one phase: invoke, take effect (the linearization point, where the object really
// changes or is really read), complete. Random interleaving of those phases gives
// operations that overlap in every possible way while each still takes effect inside
// its own interval, which is the definition of a linearizable history [HerlihyWing90];
// crash_storm.cpp simulates its register the same way.
#pragma once

#include "generators/atomic_object.hpp"
#include "generators/seeded_random.hpp"

#include <ariadne/history.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ariadne::generators {

struct SimulationShape {
  std::size_t operations = 40;
  std::size_t processes = 4;
  double crash_rate = 0.1;
  bool violation = false;  // run the object's pattern once, in the middle-to-late part
};

struct SimulatedRun {
  std::vector<AtomicOp> ops;         // in invocation order
  std::vector<std::size_t> pattern;  // indices into ops, in step order; empty without a violation

  // The events in real-time order: an op's invocation, or its completion (whatever
  // ops[op].completion says when the log is written, so break_pattern can change it).
  struct EventRef {
    std::size_t op = 0;
    bool invocation = true;
  };
  std::vector<EventRef> events;

  std::size_t crashed = 0;               // ops that crashed
  std::size_t never_completed = 0;       // of those, crashed after the last invocation: no :info
  std::size_t effects_before_crash = 0;  // crashed ops that took effect before their :info
  std::size_t effects_after_crash = 0;   // ... and after it

  // The pattern's ops, in step order, for AtomicObject::break_pattern.
  std::vector<AtomicOp*> pattern_ops();
  // The recorded events as a log: invocations and crashes carry the invocation's value,
  // :ok and :fail completions the result.
  EventLog event_log(std::string source) const;
};

// Runs `shape.operations` invocations by `shape.processes` clients. A crashed client
// is retired and its slot continues under process number old + processes, Jepsen's
// convention. The same shape and random state give the same run on every platform.
// With a violation, shape.operations must be at least the object's pattern size.
SimulatedRun simulate(const SimulationShape& shape, AtomicObject& object, SeededRandom& random);

}  // namespace ariadne::generators
