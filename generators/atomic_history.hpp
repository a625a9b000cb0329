// Atomic histories: seeded histories of one simulated, truly atomic object, for every
// built-in model, linearizable or (with a violation) not, the verdict known by
// construction.
//
// Clients invoke operations on the object; each operation takes effect at one point
// strictly inside its own interval, and its result is what the model's sequential
// state gives at that point. The points themselves are a linearization, so the history
// is linearizable by definition [HerlihyWing90]. A crashed operation (an :info
// completion, or none at all when the history ends first) takes effect at a random
// point after its invocation, possibly after its :info, or never: exactly the freedom
// Jepsen's and Knossos' semantics give it.
//
// A violation is a small model-specific pattern of operations, sequential in real time
// among themselves and using fresh values, whose results are changed after the
// simulation so that no order of the whole history explains them, whatever the other
// operations did (each object's file argues why). The rest of the history is the
// ordinary simulation, so the pattern is surrounded by concurrent and crashed
// operations, as a real anomaly would be.
//
// Where crash storms (crash_storm.hpp) stress one model hard, atomic histories cover
// all of them, so that one corpus cross-validates checkers (Knossos, Porcupine, ours)
// model by model.
#pragma once

#include "generators/generated_history.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ariadne::generators {

// `--values unique`: every written, added, enqueued or pushed value is fresh, which is
// the case [GibbonsKorach97] show polynomial for registers.
inline constexpr std::uint64_t kUniqueValues = 0;

struct AtomicShape {
  std::string model_spec;                // as make_model_from_spec reads it, e.g. "register(0)"
  std::size_t operations = 40;           // invocations, the violation's included
  std::size_t processes = 4;             // client processes running at once
  std::size_t keys = 0;                  // keyed models: how many keys; 0: the spec's, else 3
  std::uint64_t values = kUniqueValues;  // or K: values drawn from a domain of K (0..K-1)
  double crash_rate = 0.1;               // probability that an operation crashes
  bool violation = false;                // inject a pattern no order explains
  // unordered-queue, fifo-queue, stack: a removal that finds the container empty
  // completes :ok with :empty, an observation (models/container_op.hpp), instead of
  // :fail, and the violation is one that rests on such an observation
  // (generators/atomic_containers.hpp).
  bool empty_observations = false;
  std::uint64_t seed = 1;
};

// The most keys --keys takes.
inline constexpr std::size_t kMaxKeys = 1'000'000;

// The largest K for --values K: values and fresh values above K stay far from the
// limits of 64-bit integers.
inline constexpr std::uint64_t kMaxValueDomain = 1'000'000'000;

// Reads `--values`: "unique" or a whole number K from 1 to kMaxValueDomain. Throws
// UsageError naming the option otherwise.
std::uint64_t parse_value_domain(std::string_view text);
// "unique" or the decimal K, as parse_value_domain reads it back.
std::string value_domain_text(std::uint64_t values);
// A crash rate as the shortest text that reads back as the same double ("0.1"), so a
// file's `; generated:` command reproduces it exactly.
std::string format_crash_rate(double rate);

// The history of `shape`; the same shape gives the same history on every platform.
// The model spec keeps its own initial state (register(nil) reads nil until the first
// write). Throws UsageError for an unknown model, no operations or processes, a crash
// rate outside [0, 1], a value domain given to the mutex (whose ops carry no values),
// or a violation that needs more operations than --ops allows.
GeneratedHistory generate_atomic_history(const AtomicShape& shape);

}  // namespace ariadne::generators
