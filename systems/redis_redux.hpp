// Redis WAIT with offset-based failover under a partition that heals, as Jepsen's
// "Redis redux" tested it [Kingsbury13b]: five nodes (n1 the primary, n2-n5 its
// replicas), three clients and a coordinator that runs Jepsen's elect!: promote the
// reachable node with the highest replication offset and reparent every other
// reachable node to it. The nemesis cuts {n1 n2} from {n3 n4 n5}; client c1 sits with
// the minority, c2 and c3 with the majority, and so does the coordinator.
//
// The article's point is that an election after the heal can lose writes a majority
// acknowledged: while partitioned, n1 keeps accepting writes that time out (WAIT 2
// cannot reach three nodes) but still raise its offset; the majority promotes n3,
// whose writes are acknowledged; when the partition heals, the coordinator sees n1's
// higher offset, keeps n1 and demotes n3, and the replicas' full resync from n1
// discards everything n3 acknowledged. tally() counts those writes.
//
// Transitions (each listed for every client or node it applies to):
//   write           a free client whose node is reachable and a primary writes a fresh
//                   value: the node appends it and bumps its offset; the client waits
//                   for that offset (WAIT 2: three of five nodes)
//   write-complete  the node the client wrote to is still a reachable primary and
//                   knows that three nodes, itself included, reached the offset
//   write-timeout   the write cannot complete now (its node is a primary on the
//                   minority side, or no longer a primary, or out of reach): :info,
//                   and the client comes back under a new process number
//   read            a free client reads its primary's last value (invoke and ok in
//                   one step)
//   resync          a replica on the same side as its primary copies the primary's
//                   whole log and offset (a full resync, so a demoted node loses what
//                   the new primary lacks)
//   ack             a synced replica reports its offset to its primary
//   partition/heal  the nemesis, freely or at scripted steps (partition-fraction)
//   elect           the coordinator's election, once per partition that cuts off its
//                   primary and once after each heal (then among all five nodes)
//
// Steps that would change nothing (a resync of a replica that is already a copy, an
// ack the primary already has) are left out, so random trajectories spend their steps
// on moves that matter.
#pragma once

#include "systems/system_design.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::systems {

class RedisRedux {
 public:
  static constexpr int kNodes = 5;
  static constexpr int kClients = 3;
  static constexpr int kMinoritySize = 2;  // n1 and n2 are cut off; c1 is with them
  static constexpr std::int8_t kNone = -1;
  // Values are minted 1, 2, 3, ...; a trajectory writes at most this many.
  static constexpr Val kMaxValue = 255;

  // A set of write values 1..255, 32 bytes. Every node's log holds values in
  // increasing order (a primary appends only fresh values, the largest yet, and a
  // resync copies a whole log), so the set alone gives the log and its order.
  class ValueSet {
   public:
    bool has(Val v) const { return (words_[static_cast<std::size_t>(v) >> 6] >> (v & 63) & 1u) != 0; }
    void insert(Val v) { words_[static_cast<std::size_t>(v) >> 6] |= std::uint64_t{1} << (v & 63); }
    int size() const {
      int n = 0;
      for (const std::uint64_t w : words_) n += std::popcount(w);
      return n;
    }
    // The values of this set that `other` lacks.
    ValueSet minus(const ValueSet& other) const {
      ValueSet out;
      for (std::size_t i = 0; i < words_.size(); ++i) out.words_[i] = words_[i] & ~other.words_[i];
      return out;
    }
    // Calls f(v) for each value, in increasing order (log order).
    template <class F>
    void for_each(F f) const {
      for (std::size_t i = 0; i < words_.size(); ++i)
        for (std::uint64_t w = words_[i]; w != 0; w &= w - 1)
          f(static_cast<Val>(i * 64 + static_cast<std::size_t>(std::countr_zero(w))));
    }
    friend bool operator==(const ValueSet&, const ValueSet&) = default;

   private:
    std::array<std::uint64_t, 4> words_{};
  };

  struct Node {
    ValueSet data;                             // the log's values
    Val last = kNil;                           // the last value appended: what a read returns
    std::uint8_t offset = 0;                   // replication offset: one per write applied
    std::int8_t primary = kNone;               // the node it replicates from; kNone on a primary
    bool synced = true;                        // has resynced since it was last reparented
    std::array<std::uint8_t, kNodes> acked{};  // offsets its replicas reported (own entry unused)
  };
  struct Client {
    std::int8_t node = 0;         // the node it believes is the primary
    std::int8_t target = kNone;   // the node its write in flight went to
    Val writing = kNil;           // that write's value
    std::uint8_t waiting = 0;     // the offset it awaits; 0 when free
    bool cut = false;             // its node changed role: the WAIT can only time out
    std::uint8_t generation = 0;  // timeouts so far: process number c+1 + 3*generation
  };
  struct State {
    std::array<Node, kNodes> nodes{};
    std::array<Client, kClients> clients{};
    ValueSet acknowledged;  // writes that completed ok
    bool partitioned = false;
    bool election_due = false;
    std::int8_t coordinator_primary = 0;  // the node the coordinator last promoted
    std::uint8_t timeouts = 0;            // writes timed out so far (bounded by max-timeouts)
    std::uint8_t step = 0;                // steps taken; kept only with a scripted nemesis
    Val next_value = 1;                   // mints unique write values; not part of the canonical key
    // For tally() only, and so not part of the canonical key either: elections after a
    // heal, and those that demoted the coordinator's primary in favour of another node.
    std::uint8_t heal_elections = 0;
    std::uint8_t heal_demotions = 0;
  };

  // Parameters, as --param NAME=VALUE; see parameters().
  struct Options {
    double partition_fraction = 0;  // 0: free nemesis
    int run_steps = 100;
    bool reset_offset_on_promotion = false;
    bool measure_only = false;
    int max_timeouts = 12;  // with measure_only, no limit unless given
  };

  static std::string_view name() { return "redis-redux"; }
  static std::string_view summary() {
    return "Jepsen's Redis redux: WAIT 2 on 5 nodes, offset-based elections after a healed partition lose "
           "acknowledged writes";
  }
  static std::string parameters();

  RedisRedux() = default;
  // Throws UsageError for an unknown parameter or a bad value.
  explicit RedisRedux(const std::vector<DesignParameter>& params);

  const Options& options() const { return options_; }
  // With a scripted nemesis: the step at which the partition starts and the one at
  // which it heals (steps counted from 0); both -1 with a free nemesis.
  int partition_step() const { return partition_step_; }
  int heal_step() const { return heal_step_; }

  State initial() const;
  void successors(const State& state, std::vector<Successor<State>>& out) const;
  void canonical(const State& state, CanonicalKey& key) const;
  std::string describe_state(const State& state) const;
  std::string action_name(Action action) const;
  std::string actor_name(std::uint8_t index) const;
  std::string note_name(std::uint8_t index) const;
  // "acknowledged writes" and "acknowledged writes lost": the ok writes missing from
  // the log of the node the coordinator last promoted, which every replica converges
  // to. Also "heal elections" and "heal elections that demoted the primary".
  void tally(const State& state, Tally& tally) const;

  // Action numbers, for tests that replay a fixed scenario.
  enum ActionKind : std::uint8_t {
    write,
    write_complete,
    write_timeout,
    read,
    resync,
    ack,
    partition,
    heal,
    elect,
    idle,
  };
  static constexpr std::uint8_t kNemesis = kNodes;               // actor index after the nodes
  static constexpr std::uint8_t kCoordinator = kNodes + 1;       // and after the nemesis
  static constexpr std::uint8_t kFirstClientActor = kNodes + 2;  // c1, c2, c3 in measure-only notes

 private:
  void add_client_steps(const State& state, std::vector<Successor<State>>& out) const;
  void add_replication_steps(const State& state, std::vector<Successor<State>>& out) const;
  void add_election(const State& state, std::vector<Successor<State>>& out) const;
  bool scripted() const { return partition_step_ >= 0; }

  Options options_;
  int partition_step_ = -1;
  int heal_step_ = -1;
};

}  // namespace ariadne::systems
