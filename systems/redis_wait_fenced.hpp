// Redis WAIT with failover repaired by terms (epochs), the way consensus protocols
// fence an old primary [OngaroOusterhout14]: the same three nodes, two clients and
// coordinator as redis_wait.hpp, with these changes.
//
//   - The coordinator selects the new primary with a new term. It picks the reachable
//     node whose data is most up to date by (term of its last write, offset), and
//     needs a majority to do so, as before.
//   - Every node learns the new term when the coordinator informs it. A replica only
//     copies from a primary whose term is at least its own, and a primary only counts
//     acknowledgements from replicas holding data of its own term.
//   - A new primary starts its term with an empty write (a no-op that bumps its
//     offset), so that it can learn when everything it holds is on a majority.
//   - Reads are served only when everything the primary holds is acknowledged by a
//     majority in its term: a read can no longer see a write a failover may lose.
//   - A client waits for (term, offset), not an offset alone; once its node is in
//     another term it rejects the acknowledgement and gives up instead, reporting the
//     write as indeterminate (:info) and coming back as a new process, as Jepsen's
//     clients do. Such a write may have taken effect or not, and the checker allows
//     both.
//
// Everything else, including the generous instantaneous steps, is as in Knossos'
// model, so the difference in verdicts is the fencing alone.
#pragma once

#include "systems/failover_coordinator.hpp"
#include "systems/system_design.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ariadne::systems {

class RedisWaitFenced {
 public:
  static constexpr int kNodes = 3;
  static constexpr int kClients = 2;
  static constexpr std::int8_t kNone = -1;

  struct Node {
    Val reg = kNil;
    std::int8_t primary = kNone;
    bool isolated = false;
    std::uint8_t term = 1;       // the term the node knows
    std::uint8_t data_term = 1;  // the term in which its last write was made
    std::uint8_t offset = 0;
    std::array<std::uint8_t, kNodes> acked{};  // on a primary: offsets acked in its term
  };
  struct Client {
    std::int8_t node = 0;
    Val writing = kNil;
    std::uint8_t waiting = 0;       // offset awaited; 0 when free
    std::uint8_t waiting_term = 0;  // the term of that offset
    std::uint8_t generation = 0;    // times it gave up: its process is 1 + index + 2 * generation
  };
  using Phase = FailoverPhase;
  struct State {
    std::array<Node, kNodes> nodes{};
    std::array<Client, kClients> clients{};
    Phase phase = FailoverPhase::normal;
    std::int8_t coordinator_primary = 0;
    std::uint8_t coordinator_term = 1;
    Val next_value = 1;
  };

  static std::string_view name() { return "redis-wait-fenced"; }
  static std::string_view summary() {
    return "the same with terms: fenced replication and acks, reads only of majority-acked data";
  }

  State initial() const;
  void successors(const State& state, std::vector<Successor<State>>& out) const;
  void canonical(const State& state, CanonicalKey& key) const;
  std::string describe_state(const State& state) const;
  std::string action_name(Action action) const;
  std::string actor_name(std::uint8_t index) const;
  std::string note_name(std::uint8_t index) const;
  void tally(const State&, Tally&) const {}
};

}  // namespace ariadne::systems
