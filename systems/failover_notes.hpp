// What the Knossos-style Redis designs (redis_wait.hpp, redis_wait_fenced.hpp) share:
// the coordinator's four failover phases and the names of the internal steps they
// record, which are the :f keywords of Knossos' Redis model [Kingsbury13].
#pragma once

#include <array>
#include <cstdint>
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
  static constexpr std::array<std::string_view, 6> names = {
      "replicate-from-primary",  "ack-offset-to-primary",   "failover-1-isolate",
      "failover-2-select",       "failover-3-inform-nodes", "failover-4-inform-clients"};
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

}  // namespace ariadne::systems
