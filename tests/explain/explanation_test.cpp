// The explanation names the core's ops, the real-time facts that bind them and the
// dead ends every order runs into, in words a reader can check against the history.
#include <ariadne/check.hpp>

#include "explain/dead_ends.hpp"
#include "explain/explanation.hpp"
#include "explain/real_time_facts.hpp"
#include "generators/atomic_history.hpp"
#include "refute/relevant_relaxed.hpp"
#include "support/core_rows.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace ariadne;

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The check result (with its minimal core and explanation) of the refuted file of
// `family` whose name contains `name`.
CheckResult refuted_file(const std::string& family, const std::string& name) {
  auto rows = testing::refuted_rows(kSourceDir + "/corpus/" + family);
  const auto row = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return contains(r.name, name); });
  REQUIRE(row != rows.end());
  return row->result;
}

}  // namespace

TEST_CASE("the lecture's example 3 is explained by its facts and its dead end") {
  const CheckResult r = refuted_file("classic", "lecture-example-3");
  CHECK(r.core == std::vector<std::uint32_t>{0, 1, 3, 5});
  CHECK(r.core_minimal);
  const std::string& text = r.explanation;
  INFO(text);
  CHECK(contains(text, "Minimal core: 4 of the 4 operations"));
  CHECK(contains(text, "write 1 (op 0, process 0) completed before write 2 (op 3, process 0) began."));
  CHECK(contains(text, "read 2 (op 1, process 1) completed before read 1 (op 5, process 2) began."));
  CHECK(contains(text, "Why no order works"));
  CHECK(contains(text, "the state is 2, in which read 1 (op 5, process 2) cannot take effect."));
  CHECK(contains(text, "Everything before event 7 can be linearized"));
}

TEST_CASE("dead ends go through the ops outside the core that may take effect") {
  // corpus/regressions/explanation-ignored-relaxed-push.edn: the core is the two pops
  // of 5; the push of 5 is outside it, relaxed, and must appear in the dead ends.
  const CheckResult r = refuted_file("regressions", "explanation-ignored-relaxed-push");
  CHECK(r.core == std::vector<std::uint32_t>{2, 3});
  const std::string& text = r.explanation;
  INFO(text);
  CHECK(contains(text, "ops marked 'outside the core' may take effect anywhere, or never"));
  CHECK(contains(text, "(op 6, outside the core)"));
  // The words list three dead ends; the search behind them finds the one through the
  // relaxed push of 5, which the words used to leave out.
  const auto rows = testing::refuted_rows(kSourceDir + "/corpus/regressions");
  const auto row = std::find_if(rows.begin(), rows.end(),
                                [](const auto& x) { return contains(x.name, "explanation-ignored-relaxed-push"); });
  REQUIRE(row != rows.end());
  std::vector<const Operation*> core;
  std::vector<const Operation*> partition;
  for (const Operation& op : row->history.ops) {
    partition.push_back(&op);
    if (op.id == 2 || op.id == 3) core.push_back(&op);
  }
  const refute::RelaxedRelevance relevance(partition, *row->model);
  const explain::DeadEnds found = explain::find_dead_ends(*row->model, core, partition, relevance,
                                                          std::chrono::steady_clock::time_point::max(), nullptr);
  const bool through_push = std::any_of(found.ends.begin(), found.ends.end(), [&](const explain::DeadEnd& end) {
    return found.ops.recorded[end.blocked]->id == 2 && end.state == "[]" &&
           std::any_of(end.path.begin(), end.path.end(),
                       [&](std::uint32_t i) { return found.ops.recorded[i]->id == 0 && !found.ops.relaxed.kept[i]; });
  });
  CHECK(through_push);
}

TEST_CASE("real-time facts are transitively reduced") {
  auto model = make_model_from_spec("register(0)");
  testing::EventScript s;
  using testing::I;
  s.invoke(0, "write", I(1)).ok(0, "write", I(1));
  s.invoke(0, "write", I(2)).ok(0, "write", I(2));
  s.invoke(1, "read").ok(1, "read", I(1));
  const History h = s.build(*model);
  std::vector<const Operation*> ops;
  for (const Operation& op : h.ops) ops.push_back(&op);
  const auto facts = explain::real_time_facts(ops);
  // 0 -> 2 -> 4; 0 -> 4 follows from the other two.
  REQUIRE(facts.size() == 2);
  CHECK(facts[0].before == 0);
  CHECK(facts[0].after == 2);
  CHECK(facts[1].before == 2);
  CHECK(facts[1].after == 4);
}

TEST_CASE("a read of a value nobody wrote is explained by its initial state alone") {
  auto model = make_model_from_spec("register(0)");
  testing::EventScript s;
  using testing::I;
  s.invoke(0, "write", I(1)).ok(0, "write", I(1));
  s.invoke(1, "read").ok(1, "read", I(7));
  const History h = s.build(*model);
  const CheckResult r = check(h, *model, CheckOptions{.jobs = 1});
  REQUIRE(r.verdict == Verdict::not_linearizable);
  CHECK(r.core == std::vector<std::uint32_t>{2});
  INFO(r.explanation);
  CHECK(contains(r.explanation, "Minimal core: 1 of the 2 operations"));
  CHECK(contains(r.explanation, "at the start, the state is 0, in which read 7 (op 2, process 1) cannot take effect."));
  CHECK(contains(r.explanation, "no operation of the history writes 7, and the register does not start with it."));
}

TEST_CASE("a stale read is explained in reads-from terms: its only write was overwritten") {
  auto model = make_model_from_spec("register(0)");
  testing::EventScript s;
  using testing::I;
  s.invoke(0, "write", I(1)).ok(0, "write", I(1));
  s.invoke(0, "write", I(2)).ok(0, "write", I(2));
  s.invoke(1, "read").ok(1, "read", I(1));
  s.invoke(2, "write", I(1));  // begins after the read: cannot be its source
  s.ok(2, "write", I(1));
  const History h = s.build(*model);
  const CheckResult r = check(h, *model, CheckOptions{.jobs = 1});
  REQUIRE(r.verdict == Verdict::not_linearizable);
  CHECK(r.core == std::vector<std::uint32_t>{0, 2, 4, 6});
  INFO(r.explanation);
  CHECK(contains(r.explanation, "read 1 (op 4, process 1) has no write of 1 left to read from:"));
  CHECK(contains(r.explanation, "write 1 (op 6, process 2): began after the read completed."));
  CHECK(contains(r.explanation,
                 "write 1 (op 0, process 0): overwritten by write 2 (op 2, process 0) before the read began."));
}

TEST_CASE("the dead-end search stops at the check's deadline and says so") {
  // corpus/fuzz/dead-end-search-past-timeout.edn, found by fuzz_check_events: a core of
  // one pop of nil, whose dead ends run through 27 other ops. Listing them ignored the
  // deadline and took a `--timeout 0.1` check to 0.3-0.45 s.
  const auto model = make_model_from_spec("stack");
  const History h = build_history(read_events(kSourceDir + "/corpus/fuzz/dead-end-search-past-timeout.edn"), *model);
  const CheckResult r = check(h, *model, {.jobs = 1});
  REQUIRE(r.verdict == Verdict::not_linearizable);
  std::vector<const Operation*> core;
  std::vector<const Operation*> all;
  for (const Operation& op : h.ops) {
    all.push_back(&op);
    if (std::binary_search(r.core.begin(), r.core.end(), op.id)) core.push_back(&op);
  }
  explain::CoreSummary summary;
  summary.core = core;
  summary.partition_ops = all;
  summary.minimal = r.core_minimal;
  summary.facts = r.core_real_time;
  const std::string unhurried = explain::explain_core(*model, summary);
  INFO(unhurried);
  CHECK_FALSE(contains(unhurried, "time ran out"));
  summary.deadline = std::chrono::steady_clock::now();
  const std::string hurried = explain::explain_core(*model, summary);
  INFO(hurried);
  CHECK(contains(hurried, "Why no order works: the check's time ran out before the dead ends"));
}

TEST_CASE("identical relaxed ops do not multiply the dead ends: each is met once") {
  // A failed cas 3->4 after a write of 3 needs another value first; the 16 other
  // writes, all of 3, matter to the search (a failed cas reads "anything but 3") yet
  // cannot help. Searched as 16 distinct relaxed ops they gave 2^16 orders, and the
  // search stopped at its cap, listing thousands of dead ends that differ only in
  // which of the identical writes came first; as twins, two dead ends in all.
  auto model = make_model_from_spec("etcd");
  testing::EventScript s;
  using testing::I;
  for (int p = 1; p <= 16; ++p) s.invoke(p, "write", I(3));
  s.invoke(0, "write", I(3)).ok(0, "write", I(3));
  s.invoke(0, "cas", Value::vector({I(3), I(4)})).fail(0, "cas", Value::vector({I(3), I(4)}));
  for (int p = 1; p <= 16; ++p) s.ok(p, "write", I(3));
  const History h = s.build(*model);
  const CheckResult r = check(h, *model, CheckOptions{.jobs = 1});
  REQUIRE(r.verdict == Verdict::not_linearizable);
  CHECK(r.core == std::vector<std::uint32_t>{16, 18});
  INFO(r.explanation);
  CHECK(contains(r.explanation, "every order real time allows runs into a dead end"));
  CHECK_FALSE(contains(r.explanation, "too many orders"));
  CHECK(contains(r.explanation,
                 "after write 3 (op 16): the state is 3, in which cas 3->4 (failed) (op 18, process 0) "
                 "cannot take effect."));
  // The run through a relaxed twin is the one more: not one per subset of 16 twins.
  CHECK(contains(r.explanation, "and 1 more run into dead ends"));
}

TEST_CASE("a partition left whole is explained in a few lines, whatever its size") {
  // A 20,000-op unique-value register with a stale read, checked with --no-core: the
  // unique-value test refutes it in milliseconds, and the explanation then listed
  // all 20,000 ops and read each against all the others for reads-from reasons
  // (quadratic: 20 s past --timeout on 50,000 ops; corpus/regressions/README.md).
  generators::AtomicShape shape;
  shape.model_spec = "register(0)";
  shape.operations = 20'000;
  shape.processes = 10;
  shape.crash_rate = 0.02;
  shape.violation = true;
  const generators::GeneratedHistory generated = generators::generate_atomic_history(shape);
  const auto model = make_model_from_spec(generated.model_spec);
  const History h = build_history(generated.log, *model);
  const CheckResult r = check(h, *model, CheckOptions{.timeout_seconds = 60, .jobs = 1, .minimal_core = false});
  REQUIRE(r.verdict == Verdict::not_linearizable);
  CHECK(r.engine == "unique");
  INFO(r.explanation.substr(0, 2000));
  CHECK(contains(r.explanation, "not shrunk to a core: --no-core"));
  CHECK(contains(r.explanation, "more (the JSON's core lists every one)"));
  CHECK_FALSE(contains(r.explanation, "In reads-from terms"));
  CHECK(r.explanation.size() < 20'000);
}
