// WGL, WGL in the textbook call order (make_wgl_in_call_order), WGL with its
// observers and lookahead at work from the start (make_wgl_eager),
// WGL whose memo-table hashes all collide (its keys are then all that tell
// configurations apart) and JIT against the brute-force oracle on thousands of random small histories per
// model.
// Every linearizable answer of either engine is also replayed by the certificate
// checker inside check(), which throws on a bad witness.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "search/search_engine.hpp"
#include "support/random_history.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace ariadne;

namespace {

using MakeSearch = std::unique_ptr<search::SearchEngine> (*)(const search::SubHistory&, const Model&,
                                                             search::MemoryBudget&, const search::StopSignal&);

// A search run directly (check() has no engine for it): WGL with required ops first,
// or WGL whose hashes all collide (make_wgl_with_colliding_hashes: the memo table's
// keys alone tell configurations apart). Its verdict, and a witness it finds must
// replay. Unpartitioned models only, where the whole history is one search.
Verdict direct_verdict(const History& h, const Model& model, MakeSearch make) {
  search::SubHistory sub;
  for (const Operation& op : h.ops) sub.ops.push_back(&op);
  search::MemoryBudget memory(1ULL << 30);
  search::StopSignal stop;
  auto engine = make(sub, model, memory, stop);
  const search::Outcome outcome = engine->run(UINT64_MAX);
  if (outcome == search::Outcome::linearizable) {
    std::vector<std::uint32_t> order;
    for (const std::uint32_t local : engine->linearization()) order.push_back(sub.ops[local]->id);
    const auto problem = verify_linearization(h, model, order);
    INFO(problem.value_or(""));
    REQUIRE_FALSE(problem);
    return Verdict::linearizable;
  }
  return outcome == search::Outcome::not_linearizable ? Verdict::not_linearizable : Verdict::unknown;
}

// WGL with observers and lookahead from the first configuration (make_wgl_eager), one
// search per key for a partitioned model, each on its key's ops alone: the lookahead
// claims things for one kv key that it does not for several.
Verdict eager_verdict(const History& h, const Model& model) {
  std::vector<History> keys;
  std::vector<Value> key_values;
  for (const Operation& op : h.ops) {
    const Value key = model.is_partitioned() ? model.partition_key(op) : Value();
    auto at = std::find(key_values.begin(), key_values.end(), key);
    if (at == key_values.end()) {
      key_values.push_back(key);
      keys.push_back(History{.source = h.source, .event_count = h.event_count, .ops = {}});
      at = key_values.end() - 1;
    }
    keys[static_cast<std::size_t>(at - key_values.begin())].ops.push_back(op);
  }
  for (const History& key : keys) {
    if (direct_verdict(key, model, search::make_wgl_eager) == Verdict::not_linearizable) {
      return Verdict::not_linearizable;
    }
  }
  return Verdict::linearizable;
}

// Runs `compare` (which checks a history and returns its verdict) on `count` random
// histories of `spec`; both verdicts must come up, or the comparison proves little.
template <typename Compare>
void on_random_histories(const std::string& spec, const testing::RandomHistoryShape& shape, int count,
                         std::mt19937_64& rng, Compare compare) {
  auto model = make_model_from_spec(spec);
  int linearizable = 0, refuted = 0;
  for (int i = 0; i < count; ++i) {
    EventLog log = testing::random_history(spec, shape, rng);
    History h = build_history(log, *model);
    INFO("model ", spec, ", history #", i);
    (compare(h, *model) == Verdict::linearizable ? linearizable : refuted)++;
  }
  MESSAGE(spec, ": ", linearizable, " linearizable, ", refuted, " not");
  CHECK(linearizable > 0);
  CHECK(refuted > 0);
}

struct Tally {
  int linearizable = 0;
  int not_linearizable = 0;
};

Tally compare_engines(const std::string& spec, int histories, const testing::RandomHistoryShape& shape,
                      std::uint64_t seed) {
  auto model = make_model_from_spec(spec);
  std::mt19937_64 rng(seed);
  Tally tally;
  CheckOptions wgl{.engine = Engine::wgl, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  CheckOptions jit{.engine = Engine::jit, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  for (int i = 0; i < histories; ++i) {
    EventLog log = testing::random_history(spec, shape, rng);
    History h = build_history(log, *model);
    CheckResult a = check(h, *model, wgl);
    CheckResult b = check(h, *model, brute);
    CheckResult c = check(h, *model, jit);
    INFO("model ", spec, ", seed ", seed, ", history #", i);
    REQUIRE(a.verdict != Verdict::unknown);
    REQUIRE(b.verdict != Verdict::unknown);
    REQUIRE(c.verdict != Verdict::unknown);
    REQUIRE(verdict_name(a.verdict) == verdict_name(b.verdict));
    REQUIRE(verdict_name(c.verdict) == verdict_name(b.verdict));
    REQUIRE(verdict_name(eager_verdict(h, *model)) == verdict_name(b.verdict));
    if (!model->is_partitioned()) {
      REQUIRE(verdict_name(direct_verdict(h, *model, search::make_wgl_in_call_order)) == verdict_name(b.verdict));
      REQUIRE(verdict_name(direct_verdict(h, *model, search::make_wgl_with_colliding_hashes)) ==
              verdict_name(b.verdict));
    }
    (a.verdict == Verdict::linearizable ? tally.linearizable : tally.not_linearizable)++;
  }
  return tally;
}

}  // namespace

TEST_SUITE("slow") {
  TEST_CASE("WGL and JIT agree with brute force on random histories of every model") {
    const std::uint64_t seed = 20261130;
    MESSAGE("differential test seed: ", seed);
    for (const std::string& spec : testing::random_history_models()) {
      for (int ops : {3, 5, 7, 9}) {
        testing::RandomHistoryShape shape;
        shape.operations = ops;
        shape.processes = ops <= 5 ? 3 : 4;
        Tally t = compare_engines(spec, 600, shape, seed + ops);
        MESSAGE(spec, " with ", ops, " ops: ", t.linearizable, " linearizable, ", t.not_linearizable, " not");
        // Both outcomes must be exercised, or the comparison proves little.
        CHECK(t.linearizable > 0);
        CHECK(t.not_linearizable > 0);
      }
    }
  }

  // Crashed ops are where WGL's refinements (subsumption, symmetry, no-op skipping)
  // act, so histories dense with them get a run of their own.
  TEST_CASE("WGL and JIT agree with brute force on crash-heavy random histories") {
    const std::uint64_t seed = 4242;
    MESSAGE("crash-heavy differential test seed: ", seed);
    for (const std::string& spec : testing::random_history_models()) {
      testing::RandomHistoryShape shape;
      shape.operations = 8;
      shape.processes = 6;
      shape.crash_probability = 0.45;
      shape.fail_probability = 0.05;
      Tally t = compare_engines(spec, 500, shape, seed);
      MESSAGE(spec, " crash-heavy: ", t.linearizable, " linearizable, ", t.not_linearizable, " not");
      CHECK(t.linearizable > 0);
      CHECK(t.not_linearizable > 0);
    }
  }
}

TEST_SUITE("search") {
  // Empty observations (a dequeue or pop that returned :empty, issue 49): only the
  // containers have them, alone or as independent keys ([key :empty]). Crashed
  // removals are what may empty a container in time for one, so a third of the ops
  // crash.
  TEST_CASE("WGL and JIT agree with brute force on containers with empty observations") {
    const std::uint64_t seed = 20261206;
    for (const std::string spec :
         {"fifo-queue()", "stack()", "unordered-queue()", "independent(stack())", "independent(unordered-queue())"}) {
      Tally all;
      for (int ops : {4, 6, 8}) {
        testing::RandomHistoryShape shape;
        shape.operations = ops;
        shape.processes = ops <= 4 ? 3 : 4;
        shape.crash_probability = 0.3;
        shape.empty_probability = 0.35;
        const Tally t = compare_engines(spec, 700, shape, seed + static_cast<std::uint64_t>(ops));
        all.linearizable += t.linearizable;
        all.not_linearizable += t.not_linearizable;
      }
      MESSAGE(spec, " with empty observations: ", all.linearizable, " linearizable, ", all.not_linearizable, " not");
      CHECK(all.linearizable > 300);
      CHECK(all.not_linearizable > 300);
    }
  }

  // Crash storms: most ops crashed, so that crashed ops of different classes (a write
  // of 1, a cas 0->1) often reach one state from one configuration, where the memo
  // table's crashed part (class counts) must tell them apart.
  TEST_CASE("WGL agrees with brute force on crash storms of the register family") {
    std::mt19937_64 rng(20261205);
    const testing::RandomHistoryShape shape{.operations = 10, .processes = 3, .crash_probability = 0.5};
    for (const std::string spec : {"cas-register(0)", "etcd", "register(0)"}) {
      on_random_histories(spec, shape, 400, rng, [](const History& h, const Model& model) {
        CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
        const Verdict expected = check(h, model, brute).verdict;
        for (MakeSearch make : {MakeSearch{search::make_wgl}, MakeSearch{search::make_wgl_eager},
                                MakeSearch{search::make_wgl_in_call_order}}) {
          REQUIRE(verdict_name(direct_verdict(h, model, make)) == verdict_name(expected));
        }
        return expected;
      });
    }
  }

  // One kv key's string forgotten (CompiledModel::forget) once no get of the window
  // starts with it: histories of two keys, each searched alone, where most puts and
  // appends crashed, so that forgotten strings meet crashed appends and puts, and gets
  // of strings made by appends that a put erased.
  TEST_CASE("WGL agrees with brute force on crash storms of kv keys") {
    std::mt19937_64 rng(20261206);
    const testing::RandomHistoryShape shape{.operations = 18, .processes = 4, .crash_probability = 0.45};
    on_random_histories("kv", shape, 500, rng, [](const History& h, const Model& model) {
      CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
      const Verdict expected = check(h, model, brute).verdict;
      REQUIRE(verdict_name(eager_verdict(h, model)) == verdict_name(expected));
      return expected;
    });
  }

  // corpus/regressions/wgl-crashed-counts-keyed-before-the-step.edn: two crashed ops
  // of different classes reach one state, and only the second one tried leads on.
  TEST_CASE("WGL keys a configuration by the crashed ops it used, the last one included") {
    auto model = make_model_from_spec("cas-register(0)");
    const History h = read_history(
        std::string(ARIADNE_SOURCE_DIR) + "/corpus/regressions/wgl-crashed-counts-keyed-before-the-step.edn", *model);
    for (MakeSearch make : {MakeSearch{search::make_wgl}, MakeSearch{search::make_wgl_eager},
                            MakeSearch{search::make_wgl_in_call_order}}) {
      CHECK(verdict_name(direct_verdict(h, *model, make)) == verdict_name(Verdict::linearizable));
    }
  }

  // The frontier key (wgl.cpp) on histories long and concurrent enough for windows of
  // several ops and for frontiers that move far: WGL whose hashes all collide against
  // WGL with its hashes, which tell configurations apart whatever the keys say.
  TEST_CASE("WGL's memo-table keys alone tell configurations apart") {
    std::mt19937_64 rng(20261205);
    const testing::RandomHistoryShape shape{.operations = 14, .processes = 5, .crash_probability = 0.15};
    for (const std::string spec : {"register(0)", "cas-register(0)", "fifo-queue()", "multi-register({:x 0 :y 0})"}) {
      on_random_histories(spec, shape, 300, rng, [](const History& h, const Model& model) {
        const Verdict colliding = direct_verdict(h, model, search::make_wgl_with_colliding_hashes);
        const Verdict hashed = direct_verdict(h, model, search::make_wgl);
        REQUIRE(verdict_name(colliding) == verdict_name(hashed));
        return hashed;
      });
    }
  }
}
