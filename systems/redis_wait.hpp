// Redis WAIT with a failover coordinator, as Knossos modelled antirez's proposal
// [Kingsbury13]: three nodes (n1 the primary, n2 and n3 replicas), two clients and a
// coordinator that promotes the reachable replica with the highest replication
// offset. Every transition is as generous as the original model: replication, acks
// and each failover stage are instantaneous, and an isolated node never returns.
//
// Transitions (each listed for every client or node it applies to):
//   write           a free client whose node is a non-isolated primary writes a fresh
//                   value; the primary applies it at once and bumps its offset, and the
//                   client waits for that offset (WAIT)
//   write-complete  the client's primary has a majority, counting itself, at or past
//                   the offset the client awaits: the write returns ok
//   read            a free client reads its primary's register, invocation and
//                   completion in one step
//   replicate       a non-isolated replica copies register and offset from its
//                   non-isolated primary
//   ack             a non-isolated replica tells its non-isolated primary its offset
//   failover 1-4    isolate the primary; select the non-isolated node with the highest
//                   offset if a majority is reachable (ties go to the later node, as
//                   Clojure's max-key does); tell the nodes; tell the clients
//
// Reads of writes no majority has yet are allowed, which is the flaw: a read can see a
// write that a failover then loses. redis_wait_fenced.hpp is the repaired design.
#pragma once

#include "systems/failover_coordinator.hpp"
#include "systems/system_design.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ariadne::systems {

class RedisWait {
 public:
  static constexpr int kNodes = 3;
  static constexpr int kClients = 2;
  static constexpr std::int8_t kNone = -1;

  struct Node {
    Val reg = kNil;
    std::int8_t primary = kNone;  // the node it replicates from; kNone on a primary
    bool isolated = false;
    std::uint8_t offset = 0;
    std::array<std::uint8_t, kNodes> acked{};  // offsets the others reported (own entry unused)
  };
  struct Client {
    std::int8_t node = 0;
    Val writing = kNil;        // the value of the write in flight
    std::uint8_t waiting = 0;  // the offset awaited; 0 when free (writes start at offset 1)
  };
  using Phase = FailoverPhase;
  struct State {
    std::array<Node, kNodes> nodes{};
    std::array<Client, kClients> clients{};
    Phase phase = FailoverPhase::normal;
    std::int8_t coordinator_primary = 0;
    Val next_value = 1;  // mints unique write values; not part of the canonical key
  };

  static std::string_view name() { return "redis-wait"; }
  static std::string_view summary() {
    return "Redis WAIT + offset-based failover coordinator (Knossos' model): not linearizable";
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
