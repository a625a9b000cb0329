// Systems under design: the small state machines `ariadne explore` walks through.
//
// A design (a replication protocol, a failover scheme) is written as a plain value
// type State plus a step function that lists every successor of a state, the way
// Knossos modelled Redis WAIT [Kingsbury13]. Each successor carries the Step that led
// to it: which action fired (so a trajectory can be replayed and shrunk by action)
// and the events the action adds to the history: client invocations and completions,
// which the explorer checks for linearizability, and :info notes for internal steps
// (replication, failover), which only make the history readable.
//
// A design is any type meeting the SystemDesign concept below. The explorer is a
// template over it (explore/), so a step costs a few state copies and no virtual
// calls: the target is 100,000 fifteen-step trajectories a second.
//
// Values are opaque: designs may only compare them for equality and mint fresh ones
// (unique write values, as the Knossos model does). That lets the exhaustive search
// rename values canonically (canonical_key.hpp), so states that differ only in which
// unique numbers were written count as one.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::systems {

class CanonicalKey;
class Tally;

using Val = std::int32_t;  // a register value; kNil is nil, the registers' initial value
inline constexpr Val kNil = 0;

// Operations clients run against the object the design implements (a register).
enum class ClientOp : std::uint8_t { read, write, cas };

enum class EventKind : std::uint8_t {
  invoke,  // a client starts an op
  ok,      // the op completed with its result
  fail,    // the op certainly did not take effect
  info,    // the client gave up on the op: it may or may not have taken effect
  note,    // an internal step, recorded as {:process :<actor>, :type :info, :f :<note>, :value <arg>}
};

struct TraceEvent {
  EventKind kind = EventKind::note;
  // Client events: ClientOp. Notes: an index into the design's note_name().
  std::uint8_t what = 0;
  // Client events: the client's process number (1, 2, ...; a client that gave up on an
  // op comes back under a new number, as in Jepsen). Notes: an index into actor_name().
  std::int32_t process = 0;
  // Client events: the op's value (write: the value; read: nil at invocation, the value
  // read at completion; cas: the expected value, with value2 the new one).
  // Notes: an argument, an index into actor_name() or kNoArgument.
  Val value = kNil;
  Val value2 = kNil;
};
inline constexpr Val kNoArgument = -1;

// Which action fired, independent of the values it wrote, so that a shortened
// trajectory can replay "c1 writes" even though the value written is now another one.
struct Action {
  std::uint8_t kind = 0;    // the design's action number
  std::uint8_t actor = 0;   // the client or node that acts
  std::uint8_t target = 0;  // the node acted upon, when the action names one
  friend bool operator==(const Action&, const Action&) = default;
};

struct Step {
  Action action;
  std::uint8_t event_count = 0;
  std::array<TraceEvent, 2> events{};
  void add(const TraceEvent& event) { events[event_count++] = event; }
};

template <class State>
struct Successor {
  State state;
  Step step;
};

// Measurements a design reports about a trajectory's final state (acknowledged writes,
// how many were lost), summed over all trajectories by the explorer.
class Tally {
 public:
  void add(std::string_view counter, std::uint64_t amount);
  const std::vector<std::pair<std::string, std::uint64_t>>& counters() const { return counters_; }
  void merge(const Tally& other);

 private:
  std::vector<std::pair<std::string, std::uint64_t>> counters_;
};

// A design parameter given as --param NAME=VALUE.
struct DesignParameter {
  std::string name;
  std::string value;
};

template <class D>
concept SystemDesign = requires(const D& design, const typename D::State& state,
                                std::vector<Successor<typename D::State>>& successors, CanonicalKey& key, Action action,
                                std::uint8_t index, Tally& tally) {
  { design.initial() } -> std::same_as<typename D::State>;
  // Appends every state one step away (none at a dead end). Never mutates `state`.
  design.successors(state, successors);
  // Writes every field that matters for the future (never counters that only mint
  // fresh values), passing values through key.value() so they are renamed.
  design.canonical(state, key);
  { design.describe_state(state) } -> std::convertible_to<std::string>;
  { design.action_name(action) } -> std::convertible_to<std::string>;
  { design.actor_name(index) } -> std::convertible_to<std::string>;
  { design.note_name(index) } -> std::convertible_to<std::string>;
  // Counters about a final state (may add nothing).
  design.tally(state, tally);
};

}  // namespace ariadne::systems
