// What the Knossos-style Redis designs (redis_wait.hpp, redis_wait_fenced.hpp) share:
// the coordinator's four failover phases, the two stages they run alike (isolating the
// primary, informing the clients), and the names of the internal steps they record,
// which are the :f keywords of Knossos' Redis model [Kingsbury13].
#pragma once

#include "systems/system_design.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ariadne::systems {

// The coordinator runs one failover stage at a time, in this order, then is normal again.
enum class FailoverPhase : std::uint8_t { normal, isolated, selected, informed_nodes };

enum FailoverNote : std::uint8_t {
  replicate_from_primary,
  ack_offset_to_primary,
  failover_1_isolate,
  failover_2_select,
  failover_3_inform_nodes,
  failover_4_inform_clients,
};

inline std::string failover_note_name(std::uint8_t note) {
  static constexpr std::array<std::string_view, 6> names = {"replicate-from-primary",  "ack-offset-to-primary",
                                                            "failover-1-isolate",      "failover-2-select",
                                                            "failover-3-inform-nodes", "failover-4-inform-clients"};
  return note < names.size() ? std::string(names[note]) : "?";
}

inline std::string_view failover_phase_name(FailoverPhase phase) {
  switch (phase) {
    case FailoverPhase::normal: return "normal";
    case FailoverPhase::isolated: return "isolated the primary";
    case FailoverPhase::selected: return "selected";
    case FailoverPhase::informed_nodes: return "informed the nodes";
  }
  return "?";
}

// WAIT's test: the highest offset that a majority of nodes, the primary itself
// included, is known to have. `Node` has offset and acked[] (what each replica
// reported; the primary's own entry is unused).
template <class Node>
std::uint8_t majority_acked_offset(const Node& primary, int self) {
  auto known = primary.acked;
  known[static_cast<std::size_t>(self)] = primary.offset;
  std::sort(known.begin(), known.end(), std::greater<>());
  return known[known.size() / 2];
}

// An internal step's event, e.g. {:process :coord, :type :info, :f :failover-2-select, :value :n2}.
inline TraceEvent note_event(std::uint8_t what, int actor, Val argument) {
  return TraceEvent{EventKind::note, what, actor, argument, kNil};
}

// Stage 1: the coordinator isolates the primary, at once and for good (the model's
// generous magic: no message can be lost or late). `State` has nodes[].isolated, phase
// and coordinator_primary.
template <class State>
TraceEvent isolate_primary(State& state, int coordinator) {
  const auto old_primary = state.coordinator_primary;
  state.phase = FailoverPhase::isolated;
  state.coordinator_primary = -1;
  state.nodes[static_cast<std::size_t>(old_primary)].isolated = true;
  return note_event(failover_1_isolate, coordinator, old_primary);
}

// Stage 4: every client now talks to the new primary; the coordinator is normal again.
template <class State>
TraceEvent inform_clients(State& state, int coordinator) {
  state.phase = FailoverPhase::normal;
  for (auto& client : state.clients) client.node = state.coordinator_primary;
  return note_event(failover_4_inform_clients, coordinator, state.coordinator_primary);
}

}  // namespace ariadne::systems
