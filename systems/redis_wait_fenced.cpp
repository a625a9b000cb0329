#include "systems/redis_wait_fenced.hpp"

#include "systems/canonical_key.hpp"
#include "systems/design_text.hpp"

#include <algorithm>
#include <functional>

namespace ariadne::systems {

namespace {

using Fenced = RedisWaitFenced;
using Node = Fenced::Node;
using Client = Fenced::Client;
using State = Fenced::State;

enum ActionKind : std::uint8_t { write, write_complete, read, give_up, replicate, ack, failover };
constexpr std::uint8_t kCoordinator = Fenced::kNodes;

std::size_t at(int index) { return static_cast<std::size_t>(index); }

bool reachable_primary(const State& state, const Client& client) {
  const Node& node = state.nodes[at(client.node)];
  return node.primary == Fenced::kNone && !node.isolated;
}

int process_of(int client, const Client& c) { return 1 + client + Fenced::kClients * c.generation; }

TraceEvent client_event(EventKind kind, int client, const Client& c, ClientOp op, Val value) {
  return TraceEvent{kind, static_cast<std::uint8_t>(op), process_of(client, c), value, kNil};
}

void add_client_steps(const State& state, int c, std::vector<Successor<State>>& out) {
  const Client& client = state.clients[at(c)];
  const auto actor = static_cast<std::uint8_t>(c);
  const auto target = static_cast<std::uint8_t>(client.node);
  const Node& node = state.nodes[at(client.node)];
  if (client.waiting != 0 && node.term != client.waiting_term) {
    // The acknowledgement could only come from another term: give up on the write.
    Successor<State> next{state, {}};
    next.step.action = {give_up, actor, target};
    next.step.add(client_event(EventKind::info, c, client, ClientOp::write, client.writing));
    Client& changed = next.state.clients[at(c)];
    changed = {client.node, kNil, 0, 0, static_cast<std::uint8_t>(client.generation + 1)};
    out.push_back(next);
    return;
  }
  if (!reachable_primary(state, client)) return;
  const bool all_acked = majority_acked_offset(node, client.node) >= node.offset;
  if (client.waiting == 0) {
    Successor<State> next{state, {}};
    State& s = next.state;
    const Val value = s.next_value++;
    Node& primary = s.nodes[at(client.node)];
    primary.reg = value;
    ++primary.offset;
    primary.data_term = primary.term;
    Client& writer = s.clients[at(c)];
    writer.writing = value;
    writer.waiting = primary.offset;
    writer.waiting_term = primary.term;
    next.step.action = {write, actor, target};
    next.step.add(client_event(EventKind::invoke, c, client, ClientOp::write, value));
    out.push_back(next);
    if (all_acked) {
      Successor<State> reading{state, {}};
      reading.step.action = {read, actor, target};
      reading.step.add(client_event(EventKind::invoke, c, client, ClientOp::read, kNil));
      reading.step.add(client_event(EventKind::ok, c, client, ClientOp::read, node.reg));
      out.push_back(reading);
    }
  } else if (client.waiting <= majority_acked_offset(node, client.node)) {
    Successor<State> next{state, {}};
    Client& done = next.state.clients[at(c)];
    done.writing = kNil;
    done.waiting = 0;
    done.waiting_term = 0;
    next.step.action = {write_complete, actor, target};
    next.step.add(client_event(EventKind::ok, c, client, ClientOp::write, client.writing));
    out.push_back(next);
  }
}

void add_replica_steps(const State& state, int n, std::vector<Successor<State>>& out) {
  const Node& node = state.nodes[at(n)];
  if (node.isolated || node.primary == Fenced::kNone) return;
  const Node& primary = state.nodes[at(node.primary)];
  if (primary.isolated) return;
  const auto actor = static_cast<std::uint8_t>(n);
  const auto target = static_cast<std::uint8_t>(node.primary);
  if (primary.term >= node.term) {  // never replicate from an older term
    Successor<State> copied{state, {}};
    Node& replica = copied.state.nodes[at(n)];
    replica.reg = primary.reg;
    replica.offset = primary.offset;
    replica.data_term = primary.data_term;
    replica.term = primary.term;
    copied.step.action = {replicate, actor, target};
    copied.step.add(note_event(replicate_from_primary, n, node.primary));
    out.push_back(copied);
  }
  if (node.data_term == primary.term) {  // acks count only for data of the primary's term
    Successor<State> acked{state, {}};
    acked.state.nodes[at(node.primary)].acked[at(n)] = node.offset;
    acked.step.action = {ack, actor, target};
    acked.step.add(note_event(ack_offset_to_primary, n, node.primary));
    out.push_back(acked);
  }
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
      for (int n = 0; n < Fenced::kNodes; ++n) {
        const Node& node = s.nodes[at(n)];
        if (node.isolated) continue;
        ++reachable;
        const auto newer = [&](const Node& other) {
          return std::pair(node.data_term, node.offset) >= std::pair(other.data_term, other.offset);
        };
        if (chosen < 0 || newer(s.nodes[at(chosen)])) chosen = n;
      }
      if (reachable < Fenced::kNodes / 2 + 1) return;
      s.phase = FailoverPhase::selected;
      s.coordinator_primary = static_cast<std::int8_t>(chosen);
      ++s.coordinator_term;
      next.step.add(note_event(failover_2_select, kCoordinator, chosen));
      break;
    }
    case FailoverPhase::selected: {
      s.phase = FailoverPhase::informed_nodes;
      for (int n = 0; n < Fenced::kNodes; ++n) {
        Node& node = s.nodes[at(n)];
        if (node.isolated) continue;
        node.term = s.coordinator_term;
        if (n == s.coordinator_primary) {
          // The new primary opens its term with a no-op write.
          node.primary = Fenced::kNone;
          node.acked = {};
          ++node.offset;
          node.data_term = node.term;
        } else {
          node.primary = s.coordinator_primary;
        }
      }
      next.step.add(note_event(failover_3_inform_nodes, kCoordinator, s.coordinator_primary));
      break;
    }
    case FailoverPhase::informed_nodes: next.step.add(inform_clients(s, kCoordinator)); break;
  }
  out.push_back(next);
}

}  // namespace

RedisWaitFenced::State RedisWaitFenced::initial() const {
  State state;
  for (int n = 1; n < kNodes; ++n) state.nodes[at(n)].primary = 0;
  return state;
}

void RedisWaitFenced::successors(const State& state, std::vector<Successor<State>>& out) const {
  for (int c = 0; c < kClients; ++c) add_client_steps(state, c, out);
  for (int n = 0; n < kNodes; ++n) add_replica_steps(state, n, out);
  add_failover_stage(state, out);
}

void RedisWaitFenced::canonical(const State& state, CanonicalKey& key) const {
  for (const Node& node : state.nodes) {
    key.value(node.reg);
    key.raw(static_cast<std::uint32_t>(node.primary + 1) | (node.isolated ? 0x100u : 0u) |
            (static_cast<std::uint32_t>(node.offset) << 16) | (static_cast<std::uint32_t>(node.term) << 24));
    key.raw(static_cast<std::uint32_t>(node.acked[0]) | (static_cast<std::uint32_t>(node.acked[1]) << 8) |
            (static_cast<std::uint32_t>(node.acked[2]) << 16) | (static_cast<std::uint32_t>(node.data_term) << 24));
  }
  for (const Client& client : state.clients) {
    key.value(client.writing);
    key.raw(static_cast<std::uint32_t>(client.node + 1) | (static_cast<std::uint32_t>(client.waiting) << 8) |
            (static_cast<std::uint32_t>(client.waiting_term) << 16) |
            (static_cast<std::uint32_t>(client.generation) << 24));
  }
  key.raw(static_cast<std::uint32_t>(state.phase) | (static_cast<std::uint32_t>(state.coordinator_primary + 1) << 8) |
          (static_cast<std::uint32_t>(state.coordinator_term) << 16));
}

std::string RedisWaitFenced::describe_state(const State& state) const {
  DesignText text;
  text.line("coordinator", std::string(failover_phase_name(state.phase)) + ", primary " +
                               node_or_none(state.coordinator_primary) + ", term " +
                               std::to_string(state.coordinator_term));
  for (int c = 0; c < kClients; ++c) {
    const Client& client = state.clients[at(c)];
    text.line("c" + std::to_string(c + 1) + " (process " + std::to_string(process_of(c, client)) + ")",
              "node " + node_or_none(client.node) +
                  (client.waiting == 0
                       ? ", free"
                       : ", writing " + value_text(client.writing) + ", awaiting term " +
                             std::to_string(client.waiting_term) + " offset " + std::to_string(client.waiting)));
  }
  for (int n = 0; n < kNodes; ++n) {
    const Node& node = state.nodes[at(n)];
    std::string acked;
    for (int other = 0; other < kNodes; ++other)
      if (other != n)
        acked += (acked.empty() ? "" : " ") + node_or_none(other) + " " + std::to_string(node.acked[at(other)]);
    text.line(node_or_none(n),
              "register " + value_text(node.reg) + ", " +
                  (node.primary == kNone ? std::string("primary") : "replica of " + node_or_none(node.primary)) +
                  (node.isolated ? ", isolated" : "") + ", term " + std::to_string(node.term) + ", data of term " +
                  std::to_string(node.data_term) + ", offset " + std::to_string(node.offset) + ", acked {" + acked +
                  "}");
  }
  return text.str();
}

std::string RedisWaitFenced::action_name(Action action) const {
  const std::string client = "c" + std::to_string(action.actor + 1);
  switch (action.kind) {
    case write: return client + " write";
    case write_complete: return client + " write completes";
    case read: return client + " read";
    case give_up: return client + " gives up on its write (another term)";
    case replicate: return actor_name(action.actor) + " replicate-from-primary";
    case ack: return actor_name(action.actor) + " ack-offset-to-primary";
    default: return "coord " + note_name(static_cast<std::uint8_t>(failover_1_isolate + action.target));
  }
}

std::string RedisWaitFenced::actor_name(std::uint8_t index) const {
  return index == kCoordinator ? "coord" : node_or_none(index);
}

std::string RedisWaitFenced::note_name(std::uint8_t index) const { return failover_note_name(index); }

}  // namespace ariadne::systems
