// The online checker against check(): on thousands of random register histories
// (reads, writes and cas over three values, reads of nil, :fail and :info completions,
// crashed processes coming back under new numbers), the online checker rejects an
// event exactly when the history up to that event is not linearizable by check(), and
// never rejects a linearizable history. And the canonical key renames values.
#include "explore/online_checker.hpp"
#include "systems/canonical_key.hpp"
#include "systems/redis_wait.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <random>

using namespace ariadne;
using explore::OnlineChecker;
using systems::ClientOp;
using systems::EventKind;
using systems::TraceEvent;

namespace {

struct RandomHistory {
  std::vector<TraceEvent> events;
};

RandomHistory random_history(std::mt19937_64& random, int processes, int steps) {
  RandomHistory out;
  struct Client {
    int process;
    bool busy = false;
    ClientOp op = ClientOp::read;
    systems::Val a = 0, b = 0;
  };
  std::vector<Client> clients;
  for (int p = 0; p < processes; ++p) clients.push_back({p + 1});
  const auto draw = [&](int n) { return static_cast<int>(random() % static_cast<std::uint64_t>(n)); };
  // Results mostly follow a register that changes when writes complete, so that both
  // verdicts are common; the rest are drawn at random.
  systems::Val current = systems::kNil;
  for (int s = 0; s < steps; ++s) {
    Client& client = clients[static_cast<std::size_t>(draw(processes))];
    if (!client.busy) {
      client.busy = true;
      client.op = static_cast<ClientOp>(draw(3));
      client.a = client.op == ClientOp::read ? systems::kNil : draw(3) + 1;
      client.b = client.op == ClientOp::cas ? draw(3) + 1 : systems::kNil;
      out.events.push_back(
          {EventKind::invoke, static_cast<std::uint8_t>(client.op), client.process, client.a, client.b});
      continue;
    }
    client.busy = false;
    const int outcome = draw(10);
    if (outcome == 0) {
      out.events.push_back({EventKind::info, static_cast<std::uint8_t>(client.op), client.process, client.a, client.b});
      client.process += processes;  // a crashed process comes back under a new number
    } else if (outcome == 1) {
      out.events.push_back({EventKind::fail, static_cast<std::uint8_t>(client.op), client.process, client.a, client.b});
    } else {
      if (client.op == ClientOp::write) current = client.a;
      if (client.op == ClientOp::cas && current == client.a) current = client.b;
      // 0 is a read of nil
      const systems::Val result = client.op != ClientOp::read ? client.a : draw(10) < 7 ? current : draw(4);
      out.events.push_back({EventKind::ok, static_cast<std::uint8_t>(client.op), client.process, result, client.b});
    }
  }
  return out;
}

EventLog as_log(const std::vector<TraceEvent>& events, std::size_t count) {
  EventLog log{"random", {}};
  for (std::size_t i = 0; i < count; ++i) {
    const TraceEvent& e = events[i];
    Event event;
    event.process = Value::integer(e.process);
    event.type = e.kind == EventKind::invoke ? EventType::invoke
                 : e.kind == EventKind::ok   ? EventType::ok
                 : e.kind == EventKind::fail ? EventType::fail
                                             : EventType::info;
    const auto value = [](systems::Val v) { return v == systems::kNil ? Value() : Value::integer(v); };
    const auto op = static_cast<ClientOp>(e.what);
    event.f = op == ClientOp::read ? "read" : op == ClientOp::write ? "write" : "cas";
    event.value = op == ClientOp::cas ? Value::vector({value(e.value), value(e.value2)}) : value(e.value);
    event.pos = {static_cast<std::uint32_t>(i + 1), 1};
    log.events.push_back(std::move(event));
  }
  return log;
}

Verdict verdict_of(const std::vector<TraceEvent>& events, std::size_t count, const Model& model) {
  return check(build_history(as_log(events, count), model), model, CheckOptions{.engine = Engine::wgl, .jobs = 1})
      .verdict;
}

}  // namespace

TEST_CASE("online checker: rejects exactly the first event after which check() finds no linearization") {
  const auto model = make_model_from_spec("cas-register(nil)");
  const std::uint64_t seed = 20261130;
  MESSAGE("seed " << seed);
  std::mt19937_64 random(seed);
  int refuted = 0;
  for (int round = 0; round < 3000; ++round) {
    const RandomHistory history = random_history(random, 2 + round % 2, 6 + round % 14);
    OnlineChecker checker;
    std::optional<std::size_t> rejected;
    for (std::size_t i = 0; i < history.events.size() && !rejected; ++i)
      if (!checker.feed(history.events[i])) rejected = i;
    const std::size_t total = history.events.size();
    if (!rejected) {
      REQUIRE_MESSAGE(verdict_of(history.events, total, *model) == Verdict::linearizable, "round " << round);
      continue;
    }
    ++refuted;
    REQUIRE_MESSAGE(verdict_of(history.events, *rejected + 1, *model) == Verdict::not_linearizable, "round " << round);
    REQUIRE_MESSAGE(verdict_of(history.events, *rejected, *model) == Verdict::linearizable, "round " << round);
  }
  // Both verdicts must be well represented, or the comparison shows little.
  MESSAGE(refuted << " of 3000 histories refuted");
  CHECK(refuted > 500);
  CHECK(refuted < 2500);
}

TEST_CASE("canonical key: states equal up to renaming values share a key, others do not") {
  const systems::RedisWait design;
  systems::RedisWait::State a = design.initial();
  a.nodes[0].reg = 7;
  a.nodes[1].reg = 9;
  a.clients[0].writing = 7;
  systems::RedisWait::State b = a;
  b.nodes[0].reg = 3;
  b.nodes[1].reg = 5;
  b.clients[0].writing = 3;
  b.next_value = 100;  // mints values only: not part of the key
  systems::CanonicalKey key_a;
  systems::CanonicalKey key_b;
  design.canonical(a, key_a);
  design.canonical(b, key_b);
  CHECK(key_a.words() == key_b.words());
  CHECK(key_a.hash() == key_b.hash());

  systems::RedisWait::State c = a;
  c.clients[0].writing = 9;  // the same values, but tied differently
  systems::CanonicalKey key_c;
  design.canonical(c, key_c);
  CHECK(key_a.words() != key_c.words());

  // The checker's configurations are renamed with the same names.
  OnlineChecker checker_a;
  OnlineChecker checker_b;
  CHECK(checker_a.feed({EventKind::invoke, 1, 1, 7, 0}));
  CHECK(checker_b.feed({EventKind::invoke, 1, 1, 3, 0}));
  checker_a.canonical(key_a);
  checker_b.canonical(key_b);
  CHECK(key_a.words() == key_b.words());
}
