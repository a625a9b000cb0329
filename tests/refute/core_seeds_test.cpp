// Reads-from seeds for register cores (core_seeds.hpp): the read, every op that could
// write its value once relaxed, and the writes that came between its writes and the
// read; and each seed of a stale read is a core by the relaxed check itself.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "refute/core_seeds.hpp"
#include "refute/relaxed_check.hpp"
#include "refute/relevant_relaxed.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace ariadne;
using testing::EventScript;
using testing::I;

namespace {

struct Seeded {
  History history;
  std::vector<const Operation*> ops;
  std::vector<std::vector<std::uint32_t>> seeds;
  bool first_refuted = false;
};

Seeded seeds_of(const EventScript& script, const std::string& spec, std::uint32_t failing_op) {
  auto model = make_model_from_spec(spec);
  Seeded out{script.build(*model), {}, {}, false};
  for (const Operation& op : out.history.ops) out.ops.push_back(&op);
  const refute::RelaxedRelevance relevance(out.ops, *model);
  out.seeds = refute::reads_from_seeds(out.ops, relevance.semantics(), failing_op);
  if (!out.seeds.empty()) {
    search::StopSignal stop;
    refute::RelaxedChecker checker(out.ops, *model, stop, 1ULL << 30);
    std::vector<bool> keep(out.ops.size(), false);
    for (const std::uint32_t i : out.seeds.front()) keep[i] = true;
    out.first_refuted = checker.decide(keep).verdict == refute::RelaxedVerdict::not_linearizable;
  }
  return out;
}

// The one seed of `failing_op`'s read is `expected`, and the relaxed check refutes it.
void expect_refuted_seed(const EventScript& script, const std::string& spec, std::uint32_t failing_op,
                         const std::vector<std::uint32_t>& expected) {
  const Seeded seeded = seeds_of(script, spec, failing_op);
  REQUIRE(seeded.seeds.size() == 1);
  CHECK(seeded.seeds[0] == expected);
  CHECK(seeded.first_refuted);
}

}  // namespace

TEST_CASE("reads-from seed: a stale read, the write it read and the one that overwrote it") {
  // Ops in call order: 0 write 1, 1 write 2, 2 the read of 1 (after both), 3 a write
  // of 3 concurrent with the read.
  EventScript s;
  s.invoke(0, "write", I(1)).ok(0, "write", I(1));
  s.invoke(0, "write", I(2)).ok(0, "write", I(2));
  s.invoke(1, "read").invoke(2, "write", I(3)).ok(2, "write", I(3)).ok(1, "read", I(1));
  expect_refuted_seed(s, "register(0)", 2, {0, 1, 2});
}

TEST_CASE("reads-from seed: the initial value counts as a write, and any cas that could write the value joins") {
  // op 0: write 1; op 1: a crashed cas 5->0, which could write 0; op 2: a read of 0
  // after the write overwrote the initial 0. The cas could succeed only from 5, which
  // nothing wrote: a core.
  EventScript s;
  s.invoke(0, "write", I(1)).ok(0, "write", I(1));
  s.invoke(1, "cas", testing::pair(5, 0)).info(1, "cas", testing::pair(5, 0));
  s.invoke(2, "read").ok(2, "read", I(0));
  expect_refuted_seed(s, "cas-register(0)", 2, {0, 1, 2});
}

TEST_CASE("reads-from seed: none for a write, nor for models other than registers") {
  EventScript s;
  s.invoke(0, "write", I(1)).ok(0, "write", I(1));
  CHECK(seeds_of(s, "register(0)", 0).seeds.empty());
  EventScript q;
  q.invoke(0, "enqueue", I(1)).ok(0, "enqueue", I(1)).invoke(0, "dequeue").ok(0, "dequeue", I(1));
  CHECK(seeds_of(q, "fifo-queue", 1).seeds.empty());
}

TEST_CASE("reads-from seed: kv, a put that could begin the text read, and a put that could not, between") {
  // op 0: put "v3 "; op 1: append "v1 " (concurrent with nothing); op 2: put "v4 ";
  // op 3: a get of "v3 v1 " after all of them. Only the put of "v3 " begins the text
  // read with the rest made of appends; the put of "v4 " that follows it overwrites
  // it, and appends never change a text's beginning: a core without the append.
  const auto S = [](const char* text) { return Value::string(text); };
  const Value k = S("k");
  EventScript s;
  s.invoke(0, "put", S("v3 "), k).ok(0, "put", S("v3 "), k);
  s.invoke(0, "append", S("v1 "), k).ok(0, "append", S("v1 "), k);
  s.invoke(0, "put", S("v4 "), k).ok(0, "put", S("v4 "), k);
  s.invoke(1, "get", {}, k).ok(1, "get", S("v3 v1 "), k);
  expect_refuted_seed(s, "kv", 3, {0, 2, 3});
}

TEST_CASE("reads-from seed: kv, a text no put and appends make is a core alone") {
  const auto S = [](const char* text) { return Value::string(text); };
  const Value k = S("k");
  EventScript s;
  s.invoke(0, "put", S("v0 "), k).ok(0, "put", S("v0 "), k);
  s.invoke(0, "append", S("v1 "), k).ok(0, "append", S("v1 "), k);
  s.invoke(1, "get", {}, k).ok(1, "get", S("v1 v0 "), k);
  expect_refuted_seed(s, "kv", 2, {2});
}

TEST_CASE("pattern seed: a priority queue's poll that passed a more urgent element by") {
  // op 0 inserts 5 with priority 2, op 1 inserts 6 with priority 1, ahead of it in a
  // priority-queue; op 2 polls 5 while 6 is in, op 3 polls 6 after. In a
  // max-priority-queue 5 goes first, and the pattern does not apply.
  const auto entry = [](std::int64_t p, std::int64_t x) { return Value::vector({I(p), I(x)}); };
  EventScript s;
  s.invoke(0, "insert", entry(2, 5)).ok(0, "insert", entry(2, 5));
  s.invoke(0, "insert", entry(1, 6)).ok(0, "insert", entry(1, 6));
  s.invoke(1, "poll").ok(1, "poll", I(5)).invoke(1, "poll").ok(1, "poll", I(6));
  for (const char* spec : {"priority-queue", "max-priority-queue"}) {
    auto model = make_model_from_spec(spec);
    const History history = s.build(*model);
    std::vector<const Operation*> ops;
    for (const Operation& op : history.ops) ops.push_back(&op);
    const refute::RelaxedRelevance relevance(ops, *model);
    const auto seeds = refute::pattern_seeds(ops, relevance.semantics(), 10);
    INFO(spec);
    if (std::string(spec) == "max-priority-queue") {
      CHECK(seeds.empty());
      continue;
    }
    REQUIRE(seeds.size() == 1);
    CHECK(seeds[0] == std::vector<std::uint32_t>{0, 1, 2, 3});
    search::StopSignal stop;
    refute::RelaxedChecker checker(ops, *model, stop, 1ULL << 30);
    const std::vector<bool> keep(ops.size(), true);
    CHECK(checker.decide(keep).verdict == refute::RelaxedVerdict::not_linearizable);
  }
}
