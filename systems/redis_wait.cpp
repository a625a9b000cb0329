#include "systems/redis_wait.hpp"

#include "systems/canonical_key.hpp"
#include "systems/design_text.hpp"

#include <algorithm>

namespace ariadne::systems {

namespace {

using Node = RedisWait::Node;
using State = RedisWait::State;

enum ActionKind : std::uint8_t { write, write_complete, read, replicate, ack, failover };
constexpr std::uint8_t kCoordinator = RedisWait::kNodes;  // actor index after the nodes

// Clients talk only to a node that believes it is the primary and is reachable.
bool client_can_reach_primary(const State& state, const RedisWait::Client& client) {
  const Node& node = state.nodes[static_cast<std::size_t>(client.node)];
  return node.primary == RedisWait::kNone && !node.isolated;
}

TraceEvent client_event(EventKind kind, int client, ClientOp op, Val value) {
  return TraceEvent{kind, static_cast<std::uint8_t>(op), client + 1, value, kNil};
}

void add_failover_stage(const State& state, std::vector<Successor<State>>& out) {
  Successor<State> next{state, {}};
  State& s = next.state;
  next.step.action = {failover, kCoordinator, static_cast<std::uint8_t>(state.phase)};
  switch (state.phase) {
    case FailoverPhase::normal: next.step.add(isolate_primary(s, kCoordinator)); break;
    case FailoverPhase::isolated: {
      int reachable = 0;
      int chosen = -1;
      for (int n = 0; n < RedisWait::kNodes; ++n) {
        const Node& node = s.nodes[static_cast<std::size_t>(n)];
        if (node.isolated) continue;
        ++reachable;
        if (chosen < 0 || node.offset >= s.nodes[static_cast<std::size_t>(chosen)].offset) chosen = n;
      }
      if (reachable < RedisWait::kNodes / 2 + 1) return;  // no majority: stuck
      s.phase = FailoverPhase::selected;
      s.coordinator_primary = static_cast<std::int8_t>(chosen);
      next.step.add(note_event(failover_2_select, kCoordinator, chosen));
      break;
    }
    case FailoverPhase::selected: {
      s.phase = FailoverPhase::informed_nodes;
      for (int n = 0; n < RedisWait::kNodes; ++n) {
        Node& node = s.nodes[static_cast<std::size_t>(n)];
        if (node.isolated) continue;
        node.primary = n == s.coordinator_primary ? RedisWait::kNone : s.coordinator_primary;
      }
      next.step.add(note_event(failover_3_inform_nodes, kCoordinator, s.coordinator_primary));
      break;
    }
    case FailoverPhase::informed_nodes: next.step.add(inform_clients(s, kCoordinator)); break;
  }
  out.push_back(next);
}

}  // namespace

RedisWait::State RedisWait::initial() const {
  State state;
  for (int n = 1; n < kNodes; ++n) state.nodes[static_cast<std::size_t>(n)].primary = 0;
  return state;
}

void RedisWait::successors(const State& state, std::vector<Successor<State>>& out) const {
  for (int c = 0; c < kClients; ++c) {
    const Client& client = state.clients[static_cast<std::size_t>(c)];
    if (!client_can_reach_primary(state, client)) continue;
    const auto node_index = static_cast<std::size_t>(client.node);
    const auto actor = static_cast<std::uint8_t>(c);
    if (client.waiting == 0) {
      Successor<State> next{state, {}};
      State& s = next.state;
      const Val value = s.next_value++;
      Node& node = s.nodes[node_index];
      node.reg = value;
      ++node.offset;
      s.clients[static_cast<std::size_t>(c)] = {client.node, value, node.offset};
      next.step.action = {write, actor, static_cast<std::uint8_t>(client.node)};
      next.step.add(client_event(EventKind::invoke, c, ClientOp::write, value));
      out.push_back(next);

      Successor<State> reading{state, {}};
      const Val seen = state.nodes[node_index].reg;
      reading.step.action = {read, actor, static_cast<std::uint8_t>(client.node)};
      reading.step.add(client_event(EventKind::invoke, c, ClientOp::read, kNil));
      reading.step.add(client_event(EventKind::ok, c, ClientOp::read, seen));
      out.push_back(reading);
    } else if (client.waiting <= majority_acked_offset(state.nodes[node_index], client.node)) {
      Successor<State> next{state, {}};
      next.state.clients[static_cast<std::size_t>(c)] = {client.node, kNil, 0};
      next.step.action = {write_complete, actor, static_cast<std::uint8_t>(client.node)};
      next.step.add(client_event(EventKind::ok, c, ClientOp::write, client.writing));
      out.push_back(next);
    }
  }
  for (int n = 0; n < kNodes; ++n) {
    const Node& node = state.nodes[static_cast<std::size_t>(n)];
    if (node.isolated || node.primary == kNone) continue;
    const auto primary_index = static_cast<std::size_t>(node.primary);
    if (state.nodes[primary_index].isolated) continue;
    const auto actor = static_cast<std::uint8_t>(n);
    const auto target = static_cast<std::uint8_t>(node.primary);

    Successor<State> copied{state, {}};
    copied.state.nodes[static_cast<std::size_t>(n)].reg = state.nodes[primary_index].reg;
    copied.state.nodes[static_cast<std::size_t>(n)].offset = state.nodes[primary_index].offset;
    copied.step.action = {replicate, actor, target};
    copied.step.add(note_event(replicate_from_primary, n, node.primary));
    out.push_back(copied);

    Successor<State> acked{state, {}};
    acked.state.nodes[primary_index].acked[static_cast<std::size_t>(n)] = node.offset;
    acked.step.action = {ack, actor, target};
    acked.step.add(note_event(ack_offset_to_primary, n, node.primary));
    out.push_back(acked);
  }
  add_failover_stage(state, out);
}

void RedisWait::canonical(const State& state, CanonicalKey& key) const {
  for (const Node& node : state.nodes) {
    key.value(node.reg);
    key.raw(static_cast<std::uint32_t>(node.primary + 1) | (node.isolated ? 0x100u : 0u) |
            (static_cast<std::uint32_t>(node.offset) << 16));
    key.raw(static_cast<std::uint32_t>(node.acked[0]) | (static_cast<std::uint32_t>(node.acked[1]) << 8) |
            (static_cast<std::uint32_t>(node.acked[2]) << 16));
  }
  for (const Client& client : state.clients) {
    key.value(client.writing);
    key.raw(static_cast<std::uint32_t>(client.node) | (static_cast<std::uint32_t>(client.waiting) << 8));
  }
  key.raw(static_cast<std::uint32_t>(state.phase) | (static_cast<std::uint32_t>(state.coordinator_primary + 1) << 8));
}

std::string RedisWait::describe_state(const State& state) const {
  DesignText text;
  text.line("coordinator",
            std::string(failover_phase_name(state.phase)) + ", primary " + node_or_none(state.coordinator_primary));
  for (int c = 0; c < kClients; ++c) {
    const Client& client = state.clients[static_cast<std::size_t>(c)];
    text.line("c" + std::to_string(c + 1),
              "node " + node_or_none(client.node) +
                  (client.waiting == 0 ? ", free"
                                       : ", writing " + value_text(client.writing) + ", awaiting offset " +
                                             std::to_string(client.waiting)));
  }
  for (int n = 0; n < kNodes; ++n) {
    const Node& node = state.nodes[static_cast<std::size_t>(n)];
    std::string acked;
    for (int other = 0; other < kNodes; ++other)
      if (other != n)
        acked += (acked.empty() ? "" : " ") + node_or_none(static_cast<std::int8_t>(other)) + " " +
                 std::to_string(node.acked[static_cast<std::size_t>(other)]);
    text.line(node_or_none(static_cast<std::int8_t>(n)),
              "register " + value_text(node.reg) + ", " +
                  (node.primary == kNone ? std::string("primary") : "replica of " + node_or_none(node.primary)) +
                  (node.isolated ? ", isolated" : "") + ", offset " + std::to_string(node.offset) + ", acked {" +
                  acked + "}");
  }
  return text.str();
}

std::string RedisWait::action_name(Action action) const {
  const std::string actor = action.kind <= read ? "c" + std::to_string(action.actor + 1) : actor_name(action.actor);
  switch (action.kind) {
    case write: return actor + " write";
    case write_complete: return actor + " write completes";
    case read: return actor + " read";
    case replicate: return actor + " replicate-from-primary";
    case ack: return actor + " ack-offset-to-primary";
    default: return "coord " + note_name(static_cast<std::uint8_t>(failover_1_isolate + action.target));
  }
}

std::string RedisWait::actor_name(std::uint8_t index) const {
  return index == kCoordinator ? "coord" : node_or_none(static_cast<std::int8_t>(index));
}

std::string RedisWait::note_name(std::uint8_t index) const { return failover_note_name(index); }

}  // namespace ariadne::systems
