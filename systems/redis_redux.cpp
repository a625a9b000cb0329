#include "systems/redis_redux.hpp"

#include "systems/canonical_key.hpp"
#include "systems/design_text.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace ariadne::systems {

namespace {

using Node = RedisRedux::Node;
using Client = RedisRedux::Client;
using State = RedisRedux::State;

enum NoteKind : std::uint8_t {
  resync_note,
  ack_note,
  partition_note,
  heal_note,
  elect_note,
  wait_note,
  write_note,  // the three client notes of measure-only runs
  write_ok_note,
  write_timeout_note,
};

// The checker keeps every timed-out write open for good (it may still take effect),
// and its configurations double with each one; it allows 16 open ops in all, three
// of which the clients' own writes may hold.
constexpr int kMaxTimeoutsAllowed = 12;
constexpr int kMaxRunSteps = 250;  // ariadne explore's --depth limit

// Side 0 is the minority {n1 n2} (with c1), side 1 the majority {n3 n4 n5} (with c2,
// c3 and the coordinator).
int node_side(int node) { return node < RedisRedux::kMinoritySize ? 0 : 1; }
int client_side(int client) { return client == 0 ? 0 : 1; }
bool talk(const State& state, int side_a, int side_b) { return !state.partitioned || side_a == side_b; }

std::size_t at(int index) { return static_cast<std::size_t>(index); }

// The highest offset that three of the five nodes, the primary included, are known to
// have reached: what WAIT 2 waits for.
std::uint8_t majority_acked_offset(const Node& primary, int self) {
  std::array<std::uint8_t, RedisRedux::kNodes> known = primary.acked;
  known[at(self)] = primary.offset;
  std::sort(known.begin(), known.end(), std::greater<>());
  return known[RedisRedux::kNodes / 2];
}

std::int32_t process_of(int client, const Client& state) {
  return client + 1 + RedisRedux::kClients * state.generation;
}

TraceEvent client_event(EventKind kind, int client, const Client& state, ClientOp op, Val value) {
  return TraceEvent{kind, static_cast<std::uint8_t>(op), process_of(client, state), value, kNil};
}

TraceEvent note(std::uint8_t what, int actor, Val argument) {
  return TraceEvent{EventKind::note, what, actor, argument, kNil};
}

Action action(RedisRedux::ActionKind kind, int actor, int target) {
  return Action{kind, static_cast<std::uint8_t>(actor), static_cast<std::uint8_t>(target)};
}

[[noreturn]] void bad_value(const DesignParameter& param, const std::string& expected) {
  throw UsageError("--param " + param.name + "=" + param.value + ": redis-redux expects " + expected);
}

bool parse_bool(const DesignParameter& param) {
  if (param.value == "true") return true;
  if (param.value == "false") return false;
  bad_value(param, "true or false");
}

int parse_int(const DesignParameter& param, int low, int high) {
  int value = 0;
  const char* end = param.value.data() + param.value.size();
  const auto [ptr, ec] = std::from_chars(param.value.data(), end, value);
  if (ec != std::errc() || ptr != end || value < low || value > high)
    bad_value(param, "a whole number from " + std::to_string(low) + " to " + std::to_string(high));
  return value;
}

double parse_fraction(const DesignParameter& param) {
  double value = 0;
  const char* end = param.value.data() + param.value.size();
  const auto [ptr, ec] = std::from_chars(param.value.data(), end, value);
  if (ec != std::errc() || ptr != end || !(value > 0 && value < 1)) bad_value(param, "a number F with 0 < F < 1");
  return value;
}

std::string log_text(const Node& node) {
  std::vector<Val> values;
  node.data.for_each([&](Val v) { values.push_back(v); });
  if (values.empty()) return "[]";
  // Long logs show their last few values: the tail is what differs between nodes.
  constexpr std::size_t kShown = 8;
  std::string out = "[";
  if (values.size() > kShown) out += "(" + std::to_string(values.size() - kShown) + " earlier) ";
  for (std::size_t i = values.size() > kShown ? values.size() - kShown : 0; i < values.size(); ++i)
    out += std::to_string(values[i]) + (i + 1 < values.size() ? " " : "");
  return out + "]";
}

}  // namespace

std::string RedisRedux::parameters() {
  return "    --param partition-fraction=F         script the nemesis (0<F<1): partition {n1 n2} | {n3 n4 n5} at\n"
         "                                         step round((1-F)/2*N), heal round(F*N) steps later (at least\n"
         "                                         2), each followed by the election; no other partitions.\n"
         "                                         Shrinking cannot move these steps: add --no-shrink or a\n"
         "                                         short --shrink-seconds\n"
         "    --param run-steps=N                  the N above (default 100); make it equal to --depth\n"
         "    --param reset-offset-on-promotion=B  true: a promoted node's offset restarts at 0, as in Redis\n"
         "                                         unstable (default false)\n"
         "    --param measure-only=B               true: clients only write, recorded as notes the checker skips\n"
         "                                         (writes alone are always linearizable), and writes may time\n"
         "                                         out without limit: for the lost-write counters (default false)\n"
         "    --param max-timeouts=K               writes that may time out per trajectory, 0 to 12 (default 12,\n"
         "                                         no limit with measure-only); each stays open in the history\n"
         "                                         for good, and the online checker holds 16 open ops at most\n";
}

RedisRedux::RedisRedux(const std::vector<DesignParameter>& params) {
  std::set<std::string> seen;
  for (const DesignParameter& param : params) {
    if (!seen.insert(param.name).second)
      throw UsageError("--param " + param.name + ": given twice for design 'redis-redux'");
    if (param.name == "partition-fraction")
      options_.partition_fraction = parse_fraction(param);
    else if (param.name == "run-steps")
      options_.run_steps = parse_int(param, 1, kMaxRunSteps);
    else if (param.name == "reset-offset-on-promotion")
      options_.reset_offset_on_promotion = parse_bool(param);
    else if (param.name == "measure-only")
      options_.measure_only = parse_bool(param);
    else if (param.name == "max-timeouts")
      options_.max_timeouts = parse_int(param, 0, kMaxTimeoutsAllowed);
    else
      throw UsageError("--param " + param.name +
                       ": design 'redis-redux' has no such parameter (it takes partition-fraction, run-steps, "
                       "reset-offset-on-promotion, measure-only, max-timeouts)");
  }
  // Unchecked, timed-out writes cost nothing; every value a trajectory can mint may time out.
  if (options_.measure_only && !seen.contains("max-timeouts")) options_.max_timeouts = kMaxValue;
  if (options_.partition_fraction > 0) {
    const double steps = options_.run_steps;
    partition_step_ = static_cast<int>(std::lround((1 - options_.partition_fraction) / 2 * steps));
    // Two steps at least, so that the election the partition calls for comes first.
    heal_step_ = partition_step_ + std::max(2, static_cast<int>(std::lround(options_.partition_fraction * steps)));
  }
}

RedisRedux::State RedisRedux::initial() const {
  State state;
  for (int n = 1; n < kNodes; ++n) state.nodes[at(n)].primary = 0;
  return state;
}

void RedisRedux::add_client_steps(const State& state, std::vector<Successor<State>>& out) const {
  // A write's event: for the checker, or with measure-only a note it skips, naming the
  // node written to.
  const auto write_event = [&](EventKind kind, int c, const Client& client, Val value, int node) {
    if (!options_.measure_only) return client_event(kind, c, client, ClientOp::write, value);
    const NoteKind what = kind == EventKind::invoke ? write_note
                          : kind == EventKind::ok   ? write_ok_note
                                                    : write_timeout_note;
    return note(what, kFirstClientActor + c, node);
  };
  for (int c = 0; c < kClients; ++c) {
    const Client& client = state.clients[at(c)];
    if (client.waiting == 0) {
      const Node& node = state.nodes[at(client.node)];
      if (!talk(state, client_side(c), node_side(client.node)) || node.primary != kNone) continue;
      if (state.next_value <= kMaxValue && node.offset < 255) {
        Successor<State> next{state, {}};
        State& s = next.state;
        const Val value = s.next_value++;
        Node& written = s.nodes[at(client.node)];
        written.data.insert(value);
        written.last = value;
        ++written.offset;
        Client& waiting = s.clients[at(c)];
        waiting.target = client.node;
        waiting.writing = value;
        waiting.waiting = written.offset;
        waiting.cut = false;
        next.step.action = action(write, c, client.node);
        next.step.add(write_event(EventKind::invoke, c, client, value, client.node));
        out.push_back(next);
      }
      if (!options_.measure_only) {
        Successor<State> reading{state, {}};
        reading.step.action = action(read, c, client.node);
        reading.step.add(client_event(EventKind::invoke, c, client, ClientOp::read, kNil));
        reading.step.add(client_event(EventKind::ok, c, client, ClientOp::read, node.last));
        out.push_back(reading);
      }
      continue;
    }
    const Node& target = state.nodes[at(client.target)];
    const bool reachable = talk(state, client_side(c), node_side(client.target));
    if (!client.cut && reachable && target.primary == kNone &&
        client.waiting <= majority_acked_offset(target, client.target)) {
      Successor<State> next{state, {}};
      Client& done = next.state.clients[at(c)];
      done.waiting = 0;
      done.target = kNone;
      done.writing = kNil;
      next.state.acknowledged.insert(client.writing);
      next.step.action = action(write_complete, c, client.target);
      next.step.add(write_event(EventKind::ok, c, client, client.writing, client.target));
      out.push_back(next);
    }
    const bool stranded =
        client.cut || !reachable || target.primary != kNone || (state.partitioned && node_side(client.target) == 0);
    if (stranded && state.timeouts < options_.max_timeouts) {
      Successor<State> next{state, {}};
      Client& gave_up = next.state.clients[at(c)];
      gave_up.waiting = 0;
      gave_up.target = kNone;
      gave_up.writing = kNil;
      gave_up.cut = false;
      ++gave_up.generation;
      ++next.state.timeouts;
      next.step.action = action(write_timeout, c, client.target);
      next.step.add(write_event(EventKind::info, c, client, client.writing, client.target));
      out.push_back(next);
    }
  }
}

void RedisRedux::add_replication_steps(const State& state, std::vector<Successor<State>>& out) const {
  for (int n = 0; n < kNodes; ++n) {
    const Node& node = state.nodes[at(n)];
    if (node.primary == kNone || !talk(state, node_side(n), node_side(node.primary))) continue;
    const Node& primary = state.nodes[at(node.primary)];
    if (!node.synced || node.offset != primary.offset || node.last != primary.last || !(node.data == primary.data)) {
      Successor<State> next{state, {}};
      Node& copy = next.state.nodes[at(n)];
      copy.data = primary.data;
      copy.last = primary.last;
      copy.offset = primary.offset;
      copy.synced = true;
      next.step.action = action(resync, n, node.primary);
      next.step.add(note(resync_note, n, node.primary));
      out.push_back(next);
    }
    if (node.synced && primary.acked[at(n)] != node.offset) {
      Successor<State> next{state, {}};
      next.state.nodes[at(node.primary)].acked[at(n)] = node.offset;
      next.step.action = action(ack, n, node.primary);
      next.step.add(note(ack_note, n, node.primary));
      out.push_back(next);
    }
  }
}

// Jepsen's elect! run by a coordinator on the majority side: among the nodes it can
// reach, promote the one with the highest offset (ties to the lowest-numbered),
// reparent the others to it, and point the clients it can reach at it.
void RedisRedux::add_election(const State& state, std::vector<Successor<State>>& out) const {
  Successor<State> next{state, {}};
  State& s = next.state;
  const auto reachable = [&](int n) { return talk(s, 1, node_side(n)); };
  int chosen = -1;
  for (int n = 0; n < kNodes; ++n)
    if (reachable(n) && (chosen < 0 || s.nodes[at(n)].offset > s.nodes[at(chosen)].offset)) chosen = n;
  Node& promoted = s.nodes[at(chosen)];
  if (promoted.primary != kNone) {
    promoted.primary = kNone;
    promoted.synced = true;
    promoted.acked = {};
    if (options_.reset_offset_on_promotion) promoted.offset = 0;
  }
  for (int n = 0; n < kNodes; ++n) {
    Node& node = s.nodes[at(n)];
    if (n == chosen || !reachable(n) || node.primary == chosen) continue;
    if (node.primary == kNone) {
      // A demoted primary drops its clients' connections: their WAITs can only time out.
      for (Client& client : s.clients)
        if (client.waiting != 0 && client.target == n) client.cut = true;
      node.acked = {};
    }
    node.primary = static_cast<std::int8_t>(chosen);
    node.synced = false;
    promoted.acked[at(n)] = 0;
  }
  for (int c = 0; c < kClients; ++c)
    if (talk(s, 1, client_side(c))) s.clients[at(c)].node = static_cast<std::int8_t>(chosen);
  if (!s.partitioned) {
    s.heal_elections = static_cast<std::uint8_t>(s.heal_elections + 1);
    if (chosen != s.coordinator_primary) s.heal_demotions = static_cast<std::uint8_t>(s.heal_demotions + 1);
  }
  s.coordinator_primary = static_cast<std::int8_t>(chosen);
  s.election_due = false;
  next.step.action = action(elect, kCoordinator, chosen);
  next.step.add(note(elect_note, kCoordinator, chosen));
  out.push_back(next);
}

void RedisRedux::successors(const State& state, std::vector<Successor<State>>& out) const {
  const std::size_t first = out.size();
  const auto nemesis = [&](bool partitioning) {
    Successor<State> next{state, {}};
    next.state.partitioned = partitioning;
    // The coordinator sits with the majority, so a partition calls for an election
    // only when its primary is cut off; a heal always does (all five nodes compete).
    next.state.election_due = partitioning ? node_side(state.coordinator_primary) == 0 : true;
    next.step.action = action(partitioning ? partition : heal, kNemesis, 0);
    next.step.add(note(partitioning ? partition_note : heal_note, kNemesis, kNoArgument));
    out.push_back(next);
  };
  if (scripted()) {
    if (!state.partitioned && state.step == partition_step_) {
      nemesis(true);
    } else if (state.partitioned && state.step == heal_step_) {
      nemesis(false);
    } else if (state.election_due) {
      add_election(state, out);
    } else {
      add_client_steps(state, out);
      add_replication_steps(state, out);
      if (out.size() == first) {
        // Nothing else can happen, but the nemesis' clock still runs to its next step.
        Successor<State> next{state, {}};
        next.step.action = action(idle, kNemesis, 0);
        next.step.add(note(wait_note, kNemesis, kNoArgument));
        out.push_back(next);
      }
    }
    // Past the heal's election the count no longer matters; capping it lets the
    // exhaustive search see equal states as equal.
    const auto step = static_cast<std::uint8_t>(std::min(state.step + 1, heal_step_ + 2));
    for (std::size_t i = first; i < out.size(); ++i) out[i].state.step = step;
    return;
  }
  add_client_steps(state, out);
  add_replication_steps(state, out);
  nemesis(!state.partitioned);
  if (state.election_due) add_election(state, out);
}

void RedisRedux::canonical(const State& state, CanonicalKey& key) const {
  for (const Node& node : state.nodes) {
    key.raw(static_cast<std::uint32_t>(node.data.size()));
    node.data.for_each([&](Val v) { key.value(v); });
    key.value(node.last);
    key.raw(static_cast<std::uint32_t>(node.offset) | static_cast<std::uint32_t>(node.primary + 1) << 8 |
            (node.synced ? 1u << 16 : 0u));
    std::uint32_t acked_low = 0;
    for (int n = 0; n < 4; ++n) acked_low |= static_cast<std::uint32_t>(node.acked[at(n)]) << (8 * n);
    key.raw(acked_low);
    key.raw(node.acked[4]);
  }
  for (const Client& client : state.clients) {
    key.value(client.writing);
    key.raw(static_cast<std::uint32_t>(client.node + 1) | static_cast<std::uint32_t>(client.target + 1) << 8 |
            static_cast<std::uint32_t>(client.waiting) << 16 | (client.cut ? 1u << 24 : 0u));
    key.raw(client.generation);
  }
  key.raw(static_cast<std::uint32_t>(state.acknowledged.size()));
  state.acknowledged.for_each([&](Val v) { key.value(v); });
  key.raw((state.partitioned ? 1u : 0u) | (state.election_due ? 2u : 0u) |
          static_cast<std::uint32_t>(state.coordinator_primary + 1) << 8 |
          static_cast<std::uint32_t>(state.timeouts) << 16 | static_cast<std::uint32_t>(state.step) << 24);
}

std::string RedisRedux::describe_state(const State& state) const {
  DesignText text;
  text.line("coordinator",
            "primary " + node_or_none(state.coordinator_primary) + (state.election_due ? ", election due" : ""));
  text.line("network", state.partitioned ? "partitioned {n1 n2 c1} | {n3 n4 n5 c2 c3 coord}" : "healed");
  if (scripted())
    text.line("nemesis", "step " + std::to_string(state.step) + " (partition at " + std::to_string(partition_step_) +
                             ", heal at " + std::to_string(heal_step_) + ")");
  for (int c = 0; c < kClients; ++c) {
    const Client& client = state.clients[at(c)];
    std::string about = "process " + std::to_string(process_of(c, client)) + ", node " + node_or_none(client.node);
    if (client.waiting == 0)
      about += ", free";
    else
      about += ", writing " + value_text(client.writing) + " to " + node_or_none(client.target) + ", awaiting offset " +
               std::to_string(client.waiting) + (client.cut ? " (connection cut)" : "");
    text.line("c" + std::to_string(c + 1), about);
  }
  for (int n = 0; n < kNodes; ++n) {
    const Node& node = state.nodes[at(n)];
    std::string about = node.primary == kNone ? std::string("primary") : "replica of " + node_or_none(node.primary);
    if (node.primary != kNone && !node.synced) about += " (not yet resynced)";
    about += ", offset " + std::to_string(node.offset) + ", log " + log_text(node);
    if (node.primary == kNone) {
      std::string acked;
      for (int other = 0; other < kNodes; ++other)
        if (other != n)
          acked += (acked.empty() ? "" : " ") + node_or_none(other) + " " + std::to_string(node.acked[at(other)]);
      about += ", acked {" + acked + "}";
    }
    text.line(node_or_none(n), about);
  }
  const int lost = state.acknowledged.minus(state.nodes[at(state.coordinator_primary)].data).size();
  const int acknowledged = state.acknowledged.size();
  text.line("acknowledged", std::to_string(acknowledged) + (acknowledged == 1 ? " write, " : " writes, ") +
                                std::to_string(lost) + " of them missing from " +
                                node_or_none(state.coordinator_primary) + "'s log");
  return text.str();
}

std::string RedisRedux::action_name(Action a) const {
  const std::string client = "c" + std::to_string(a.actor + 1);
  switch (a.kind) {
    case write: return client + " write to " + node_or_none(a.target);
    case write_complete: return client + " write completes";
    case write_timeout: return client + " write times out";
    case read: return client + " read from " + node_or_none(a.target);
    case resync: return actor_name(a.actor) + " resync-from-primary " + node_or_none(a.target);
    case ack: return actor_name(a.actor) + " ack-offset-to-primary " + node_or_none(a.target);
    case partition: return "nemesis partition {n1 n2} {n3 n4 n5}";
    case heal: return "nemesis heal";
    case elect: return "coord elect " + node_or_none(a.target);
    case idle: return "nemesis wait";
    default: return "?";
  }
}

std::string RedisRedux::actor_name(std::uint8_t index) const {
  if (index >= kFirstClientActor) return "c" + std::to_string(index - kFirstClientActor + 1);
  if (index == kNemesis) return "nemesis";
  if (index == kCoordinator) return "coord";
  return node_or_none(index);
}

std::string RedisRedux::note_name(std::uint8_t index) const {
  static constexpr std::array<std::string_view, 9> names = {
      "resync-from-primary", "ack-offset-to-primary", "partition", "heal", "elect", "wait", "write", "write-ok",
      "write-timeout"};
  return std::string(names.at(index));
}

void RedisRedux::tally(const State& state, Tally& tally) const {
  const ValueSet& survivors = state.nodes[at(state.coordinator_primary)].data;
  tally.add("acknowledged writes", static_cast<std::uint64_t>(state.acknowledged.size()));
  tally.add("acknowledged writes lost", static_cast<std::uint64_t>(state.acknowledged.minus(survivors).size()));
  tally.add("heal elections", state.heal_elections);
  tally.add("heal elections that demoted the primary", state.heal_demotions);
}

}  // namespace ariadne::systems
