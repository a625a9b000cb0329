// Gibbons and Korach's test (search/unique_register.cpp) against brute force on
// thousands of random small register histories whose written values are unique,
// crashed reads and writes mixed in: wherever it answers, brute force answers the
// same; every order it gives is replayed by the certificate checker inside check();
// every refutation's violation is refuted by brute force on its own; and on these
// histories it declines nothing. The histories with a repeated value, a cas or an
// etcd failed cas are declined, with the reason.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "models/semantics.hpp"
#include "search/unique_values.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace ariadne;
using testing::EventScript;
using testing::I;

namespace {

// Processes invoke and complete reads and writes in a random interleaving. Each write
// writes a fresh value; a read returns the initial 0, a value some write writes
// (earlier or later), or one nobody writes. Some ops crash (:info, or never complete).
EventLog random_unique_history(std::mt19937_64& rng, int operations) {
  EventScript s;
  struct Open {
    std::int64_t process = 0;  // a crashed client comes back with a fresh id, as in Jepsen
    bool busy = false;
    bool write = false;
    std::int64_t value = 0;
  };
  std::vector<Open> procs(3);
  for (std::size_t p = 0; p < procs.size(); ++p) procs[p].process = static_cast<std::int64_t>(p);
  std::int64_t next_process = static_cast<std::int64_t>(procs.size());
  std::uniform_int_distribution<int> percent(0, 99);
  int invoked = 0;
  std::int64_t next_value = 1;
  const int total = operations;
  while (invoked < total || std::any_of(procs.begin(), procs.end(), [](const Open& o) { return o.busy; })) {
    const std::size_t p = rng() % procs.size();
    Open& o = procs[p];
    if (!o.busy) {
      if (invoked == total) continue;
      ++invoked;
      o.busy = true;
      o.write = percent(rng) < 50;
      if (o.write) {
        o.value = next_value++;
        s.invoke(o.process, "write", I(o.value));
      } else {
        s.invoke(o.process, "read");
      }
      continue;
    }
    o.busy = false;
    const int roll = percent(rng);
    if (roll < 10) {  // crashed
      s.info(o.process, o.write ? "write" : "read", o.write ? I(o.value) : Value());
      o.process = next_process++;
      continue;
    }
    if (o.write) {
      s.ok(o.process, "write", I(o.value));
    } else {
      const int pick = percent(rng);
      const std::int64_t value = pick < 15 ? 0 : pick < 20 ? 1000 : 1 + static_cast<std::int64_t>(rng() % (total / 2 + 1));
      s.ok(o.process, "read", I(value));
    }
  }
  return s.log();
}

struct Tally {
  int linearizable = 0;
  int refuted = 0;
  int declined = 0;
};

Tally compare(const std::string& spec, int histories, std::uint64_t seed) {
  auto model = make_model_from_spec(spec);
  std::mt19937_64 rng(seed);
  Tally tally;
  const CheckOptions unique{.engine = Engine::unique, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  const CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  for (int h = 0; h < histories; ++h) {
    const History history = build_history(random_unique_history(rng, 3 + h % 9), *model);
    INFO(spec, ", seed ", seed, ", history #", h);
    const CheckResult fast = check(history, *model, unique);
    const CheckResult oracle = check(history, *model, brute);
    REQUIRE(oracle.verdict != Verdict::unknown);
    if (fast.verdict == Verdict::unknown) {
      ++tally.declined;
      continue;
    }
    REQUIRE(verdict_name(fast.verdict) == verdict_name(oracle.verdict));
    if (fast.verdict == Verdict::linearizable) {
      ++tally.linearizable;
      continue;
    }
    ++tally.refuted;
    // The violation alone is refuted too.
    std::vector<const Operation*> ops;
    for (const Operation& op : history.ops) ops.push_back(&op);
    const auto semantics = models::semantics_of(*model, ops);
    REQUIRE(semantics);
    const search::UniqueValueAnalysis analysis = search::analyse_unique_register(ops, *semantics);
    REQUIRE(analysis.answer == search::UniqueValueAnalysis::Answer::not_linearizable);
    REQUIRE_FALSE(analysis.violation.empty());
    History alone;
    for (const std::uint32_t i : analysis.violation) alone.ops.push_back(history.ops[i]);
    INFO(analysis.why);
    CHECK(check(alone, *model, brute).verdict == Verdict::not_linearizable);
  }
  return tally;
}

Verdict unique_verdict(const EventScript& script, const std::string& spec, std::string& reason) {
  auto model = make_model_from_spec(spec);
  const CheckResult r = check(script.build(*model), *model, CheckOptions{.engine = Engine::unique, .jobs = 1});
  reason = r.reason;
  return r.verdict;
}

}  // namespace

TEST_SUITE("search") {

TEST_CASE("Gibbons and Korach's test agrees with brute force on unique-value registers, declining none") {
  for (const auto& [spec, seed] : {std::pair{"register(0)", 51}, {"cas-register(0)", 52}}) {
    const Tally tally = compare(spec, 3000, seed);
    MESSAGE(std::string(spec), ": ", tally.linearizable, " linearizable, ", tally.refuted, " refuted, ", tally.declined,
            " declined");
    CHECK(tally.declined == 0);
    CHECK(tally.linearizable > 300);
    CHECK(tally.refuted > 300);
  }
}

TEST_CASE("Gibbons and Korach's test declines what it does not cover, saying why") {
  std::string reason;
  EventScript twice;
  twice.invoke(0, "write", I(1)).ok(0, "write", I(1));
  twice.invoke(1, "write", I(1)).ok(1, "write", I(1));
  CHECK(unique_verdict(twice, "register(0)", reason) == Verdict::unknown);
  CHECK(reason.find("written twice") != std::string::npos);

  EventScript initial;
  initial.invoke(0, "write", I(0)).ok(0, "write", I(0));
  CHECK(unique_verdict(initial, "register(0)", reason) == Verdict::unknown);
  CHECK(reason.find("initial value") != std::string::npos);

  EventScript cas;
  cas.invoke(0, "cas", Value::vector({I(0), I(1)})).ok(0, "cas", Value::vector({I(0), I(1)}));
  CHECK(unique_verdict(cas, "cas-register(0)", reason) == Verdict::unknown);
  CHECK(reason.find("compare-and-set") != std::string::npos);

  EventScript failed_cas;
  failed_cas.invoke(0, "cas", Value::vector({I(3), I(4)})).fail(0, "cas", Value::vector({I(3), I(4)}));
  CHECK(unique_verdict(failed_cas, "etcd", reason) == Verdict::unknown);
  CHECK(reason.find("failed compare-and-set") != std::string::npos);
}

TEST_CASE("the race asks Gibbons and Korach's test first, and it wins on unique-value registers") {
  auto model = make_model_from_spec("register(0)");
  EventScript stale;  // write 1, write 2, then a read of 1: stale
  stale.invoke(0, "write", I(1)).ok(0, "write", I(1));
  stale.invoke(0, "write", I(2)).ok(0, "write", I(2));
  stale.invoke(1, "read").ok(1, "read", I(1));
  const CheckResult r = check(stale.build(*model), *model, CheckOptions{.jobs = 1});
  CHECK(r.verdict == Verdict::not_linearizable);
  CHECK(r.engine == "unique");
  CHECK(r.core == std::vector<std::uint32_t>{0, 2, 4});
  CHECK(r.core_minimal);

  EventScript fine;
  fine.invoke(0, "write", I(1)).ok(0, "write", I(1));
  fine.invoke(1, "read").ok(1, "read", I(1));
  const CheckResult f = check(fine.build(*model), *model, CheckOptions{.jobs = 1});
  CHECK(f.verdict == Verdict::linearizable);
  CHECK(f.engine == "unique");
}

}  // TEST_SUITE
