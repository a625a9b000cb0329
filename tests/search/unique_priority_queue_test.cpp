// The unique-value priority-queue engine (search/unique_priority_queue.cpp) against
// brute force on thousands of random small histories of a simulated priority queue
// (crashed inserts, polls and peeks, peeks, empty observations, an initial state, and
// results changed to near misses): wherever it answers, brute force answers the same,
// every order it gives is replayed by the certificate checker inside check(), and
// every violation it names is refuted on its own and with every other op relaxed,
// which is what the race's confirmation and the core search rely on. Then the shapes
// it declines, the proofs it gives, and generated histories of every size up to tens
// of thousands of ops, which it decides without declining.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "generators/atomic_history.hpp"
#include "models/semantics.hpp"
#include "search/unique_values.hpp"
#include "support/history_builder.hpp"
#include "support/unique_differential.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>

using namespace ariadne;
using testing::EventScript;
using testing::I;
using testing::unique_engine_verdict;

namespace {

struct Client {
  std::int64_t process = 0;
  enum class Stage { idle, invoked, effected, abandoned } stage = Stage::idle;
  enum class Kind { insert, poll, peek } kind = Kind::insert;
  std::int64_t value = 0;  // insert: its value (its own priority); poll, peek: what it saw
  bool empty = false;      // a poll or peek that found the queue empty
  bool crashes = false;    // completes with :info (or never, if the history ends first)
  bool takes_effect = true;
};

// A simulated max-priority-queue of integers, each inserted once, that are their own
// priorities, or with `levels` > 0 have one of that many priorities (`:insert [p x]`,
// ties common); some results are then changed to another value inserted, to :empty,
// or to a value never inserted.
EventLog random_priority_queue_history(std::mt19937_64& rng, int operations, const std::vector<std::int64_t>& initial,
                                       std::int64_t levels = 0) {
  EventScript s;
  std::vector<std::pair<std::int64_t, std::int64_t>> queue;  // (priority, element)
  for (const std::int64_t v : initial) queue.emplace_back(v, v);
  std::vector<Client> clients(3);
  for (std::size_t c = 0; c < clients.size(); ++c) clients[c].process = static_cast<std::int64_t>(c);
  std::int64_t next_process = static_cast<std::int64_t>(clients.size());
  std::uniform_int_distribution<int> percent(0, 99);
  std::vector<std::int64_t> fresh(static_cast<std::size_t>(operations));
  for (std::size_t i = 0; i < fresh.size(); ++i) fresh[i] = 100 + static_cast<std::int64_t>(i);
  std::ranges::shuffle(fresh, rng);  // priorities in no particular order
  std::vector<std::int64_t> inserted = initial;
  const auto busy = [&] {
    return std::any_of(clients.begin(), clients.end(), [](const Client& c) {
      return c.stage == Client::Stage::invoked || c.stage == Client::Stage::effected;
    });
  };
  // With levels, each fresh element's priority is drawn once.
  std::map<std::int64_t, std::int64_t> priorities;
  const auto priority_of = [&](std::int64_t element) {
    if (levels == 0) return element;
    auto [it, fresh_one] = priorities.try_emplace(element, 0);
    if (fresh_one) it->second = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(levels));
    return it->second;
  };
  const auto entry = [&](std::int64_t element) {
    return levels == 0 ? I(element) : Value::vector({I(priority_of(element)), I(element)});
  };
  const auto name = [](const Client& c) {
    return c.kind == Client::Kind::insert ? "insert" : c.kind == Client::Kind::poll ? "poll" : "peek";
  };
  int invoked = 0;
  while (invoked < operations || busy()) {
    Client& c = clients[rng() % clients.size()];
    switch (c.stage) {
      case Client::Stage::abandoned: break;
      case Client::Stage::idle: {
        if (invoked == operations) break;
        c.stage = Client::Stage::invoked;
        const int draw = percent(rng);
        c.kind = draw < 45 ? Client::Kind::insert : draw < 80 ? Client::Kind::poll : Client::Kind::peek;
        c.empty = false;
        c.crashes = percent(rng) < 12;
        c.takes_effect = !c.crashes || percent(rng) < 60;
        if (c.kind == Client::Kind::insert) {
          c.value = fresh[static_cast<std::size_t>(invoked)];
          s.invoke(c.process, "insert", entry(c.value));
        } else {
          s.invoke(c.process, name(c));
        }
        ++invoked;
        break;
      }
      case Client::Stage::invoked:
        if (c.takes_effect) {
          if (c.kind == Client::Kind::insert) {
            queue.emplace_back(priority_of(c.value), c.value);
            inserted.push_back(c.value);
          } else if (queue.empty()) {
            c.empty = true;
          } else {
            // One of the top priority's elements, at random.
            const std::int64_t top = std::ranges::max_element(queue)->first;
            std::vector<std::size_t> tops;
            for (std::size_t i = 0; i < queue.size(); ++i) {
              if (queue[i].first == top) tops.push_back(i);
            }
            const std::size_t taken = tops[rng() % tops.size()];
            c.value = queue[taken].second;
            if (c.kind == Client::Kind::poll) queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(taken));
          }
        }
        c.stage = Client::Stage::effected;
        break;
      case Client::Stage::effected:
        if (c.crashes) {
          if (percent(rng) < 50) s.info(c.process, name(c));
          c.stage = Client::Stage::abandoned;
          clients.push_back({.process = next_process++});
          break;
        }
        if (c.kind != Client::Kind::insert) {
          const int miss = percent(rng);
          if (miss < 12 && !inserted.empty()) {
            c.empty = false;
            c.value = inserted[rng() % inserted.size()];
          } else if (miss < 15) {
            c.empty = !c.empty;
            if (!c.empty) c.value = inserted.empty() ? 7 : inserted[rng() % inserted.size()];
          } else if (miss < 16) {
            c.empty = false;
            c.value = 1;  // nobody inserts it
          }
        }
        if (c.kind == Client::Kind::insert) {
          s.ok(c.process, "insert", entry(c.value));
        } else {
          s.ok(c.process, name(c), c.empty ? Value::keyword("empty") : I(c.value));
        }
        c.stage = Client::Stage::idle;
        break;
    }
  }
  return s.log();
}

testing::UniqueTally compare(const std::string& spec, const std::vector<std::int64_t>& initial, int histories,
                             std::uint64_t seed, std::int64_t levels = 0) {
  return testing::compare_unique_with_brute_force(
      {.spec = spec,
       .histories = histories,
       .seed = seed,
       .generate = [&](std::mt19937_64& rng,
                       int h) { return random_priority_queue_history(rng, 3 + h % 6, initial, levels); },
       .on_decline =
           [&](const std::string& reason, const EventLog& log, Verdict oracle) {
             MESSAGE("declined, ", verdict_name(oracle), " by brute force: ", reason, "\n",
                     format_events(log, Format::edn));
           },
       .on_refuted =
           [&](std::span<const Operation* const> ops, const search::UniqueValueAnalysis& analysis) {
             testing::check_refuted_relaxed(ops, spec, analysis);
           }});
}

search::UniqueValueAnalysis analyse(const EventScript& script, const std::string& spec) {
  auto model = make_model_from_spec(spec);
  static History history;  // the ops must outlive the analysis' callers' use of them
  history = script.build(*model);
  std::vector<const Operation*> ops;
  for (const Operation& op : history.ops) ops.push_back(&op);
  return search::analyse_unique_priority_queue(ops, *models::semantics_of(*model, ops));
}

}  // namespace

TEST_SUITE("search") {
  TEST_CASE("the unique-value priority-queue engine agrees with brute force on random histories, declining few") {
    for (const auto& [spec, initial, histories, seed, levels] :
         {std::tuple{"max-priority-queue", std::vector<std::int64_t>{}, 3000, 71, std::int64_t{0}},
          {"max-priority-queue([50 150])", {50, 150}, 2000, 72, 0},
          {"max-priority-queue", {}, 3000, 73, 2},
          {"max-priority-queue", {}, 2000, 74, 1}}) {
      CAPTURE(levels);
      const auto tally = compare(spec, initial, histories, seed, levels);
      // The bounds only ask that both verdicts be common and declines rare.
      CHECK(tally.declined * 100 <= histories);
      CHECK(tally.linearizable > histories / 5);
      CHECK(tally.refuted > histories / 10);
    }
  }

  TEST_CASE("the unique-value priority-queue engine declines what it does not cover, saying why") {
    std::string reason;
    EventScript twice;
    twice.invoke(0, "insert", I(1)).ok(0, "insert", I(1));
    twice.invoke(1, "insert", I(1)).ok(1, "insert", I(1));
    CHECK(unique_engine_verdict(twice, "priority-queue", reason) == Verdict::unknown);
    CHECK(reason.find("inserted twice") != std::string::npos);

    // A crashed poll spent on the first value in the way (1, under the poll of 0) is the
    // one a later value in the way (5, over the poll of 3) needed; a later crashed poll
    // could have taken 1 in time. Spending crashed polls as early as it can, the sweep
    // is stuck at the poll of 3; spending them late, at the polls' returns, it gets
    // through.
    EventScript spent;
    spent.invoke(0, "insert", I(1)).invoke(1, "insert", I(0)).invoke(2, "insert", I(3));
    spent.ok(0, "insert", I(1)).ok(1, "insert", I(0));
    spent.invoke(1, "poll");                                // the poll of 0, returning last
    spent.invoke(3, "poll");                                // crashes
    spent.invoke(4, "insert", I(5)).ok(4, "insert", I(5));  // never polled by a completed poll
    spent.invoke(5, "poll").ok(5, "poll", I(3));
    spent.invoke(6, "poll");  // crashes
    spent.ok(1, "poll", I(0));
    CHECK(unique_engine_verdict(spent, "max-priority-queue", reason) == Verdict::linearizable);
    // Then, on values of their own: 21 is in the way of the poll of 20, and 22 arrives
    // (and stays) before that poll returns, so 21 must go while it is the top, early.
    // Spending early gets stuck above, spending late here: the test declines.
    EventScript both = spent;
    both.invoke(0, "insert", I(21)).ok(0, "insert", I(21));  // never polled
    both.invoke(0, "insert", I(20)).ok(0, "insert", I(20));
    both.invoke(7, "poll");  // crashes
    both.invoke(1, "poll");  // the poll of 20
    both.invoke(0, "insert", I(22)).ok(0, "insert", I(22));
    both.ok(1, "poll", I(20));
    both.invoke(1, "poll").ok(1, "poll", I(22));
    CHECK(unique_engine_verdict(both, "max-priority-queue", reason) == Verdict::unknown);
    CHECK(reason.find("choices") != std::string::npos);
    auto model = make_model_from_spec("max-priority-queue");
    CHECK(check(both.build(*model), *model, CheckOptions{.engine = Engine::brute, .jobs = 1}).verdict ==
          Verdict::linearizable);
  }

  TEST_CASE("a poll refuted by the held spans of higher values, which the violation names") {
    // The poll of 1 runs from event 4 to 9. 3 is in the queue from event 3 (its insert
    // returned) to 7 (its poll began), and 2 from 6 to 10: together they hold all of it.
    EventScript s;
    s.invoke(0, "insert", I(1)).ok(0, "insert", I(1));  // events 0, 1
    s.invoke(0, "insert", I(3)).ok(0, "insert", I(3));  // 2, 3
    s.invoke(1, "poll");                                // 4: polls 1
    s.invoke(3, "insert", I(2)).ok(3, "insert", I(2));  // 5, 6
    s.invoke(2, "poll").ok(2, "poll", I(3));            // 7, 8
    s.ok(1, "poll", I(1));                              // 9
    s.invoke(2, "poll").ok(2, "poll", I(2));            // 10, 11
    const search::UniqueValueAnalysis a = analyse(s, "max-priority-queue");
    REQUIRE(a.answer == search::UniqueValueAnalysis::Answer::not_linearizable);
    // Every op: insert 1, insert 3, the poll of 1, insert 2, the polls of 3 and 2.
    CHECK(a.violation == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5});
    CHECK(a.why.find("higher priority") != std::string::npos);
  }

  TEST_CASE("a value never polled holds until the first crashed poll is invoked") {
    // insert 2, never polled; insert 1, polled after insert 2 returned; no crashed poll:
    // the poll of 1 is refuted, and every poll invoked before it returned is named.
    EventScript none;
    none.invoke(0, "insert", I(2)).ok(0, "insert", I(2));
    none.invoke(0, "insert", I(1)).ok(0, "insert", I(1));
    none.invoke(1, "peek").ok(1, "peek", I(2));
    none.invoke(1, "poll").ok(1, "poll", I(1));
    const search::UniqueValueAnalysis a = analyse(none, "max-priority-queue");
    REQUIRE(a.answer == search::UniqueValueAnalysis::Answer::not_linearizable);
    CHECK(a.violation == std::vector<std::uint32_t>{0, 1, 2, 3});

    // A crashed poll invoked before the poll of 1 may have taken 2: linearizable.
    EventScript taken;
    taken.invoke(0, "insert", I(2)).ok(0, "insert", I(2));
    taken.invoke(0, "insert", I(1)).ok(0, "insert", I(1));
    taken.invoke(2, "poll").info(2, "poll");
    taken.invoke(1, "poll").ok(1, "poll", I(1));
    std::string reason;
    CHECK(unique_engine_verdict(taken, "max-priority-queue", reason) == Verdict::linearizable);

    // The same crashed poll invoked only after the poll of 1 returned: too late.
    EventScript late;
    late.invoke(0, "insert", I(2)).ok(0, "insert", I(2));
    late.invoke(0, "insert", I(1)).ok(0, "insert", I(1));
    late.invoke(1, "poll").ok(1, "poll", I(1));
    late.invoke(2, "poll").info(2, "poll");
    CHECK(unique_engine_verdict(late, "max-priority-queue", reason) == Verdict::not_linearizable);
  }

  TEST_CASE("a peeked value goes in before a higher one that would hold it until its peek returned") {
    // The peek of 1 can only be placed before insert 2 takes effect, inside insert 1's
    // interval: the engine inserts 1 early for it.
    EventScript s;
    s.invoke(0, "insert", I(1));
    s.invoke(1, "peek");
    s.invoke(2, "insert", I(2)).ok(2, "insert", I(2));
    s.ok(1, "peek", I(1));
    s.ok(0, "insert", I(1));
    s.invoke(2, "poll").ok(2, "poll", I(2));
    std::string reason;
    CHECK(unique_engine_verdict(s, "max-priority-queue", reason) == Verdict::linearizable);
  }

  TEST_CASE("peeked values that go in together are decided from the highest down") {
    // When insert 3 returns, 2 must go in first for its peek, which returns next, and
    // stays until its poll: 1's peek, which returns later, has its last place before
    // 2 goes in. Deciding 1 first, the engine saw only 3 in its way, which leaves at its
    // poll, and let 1 wait: its peek then found 2 on top (found in a 10^6-op history of
    // 10 processes, which the engine declined; WGL then took minutes).
    EventScript s;
    s.invoke(0, "insert", I(1));  // 0
    s.invoke(1, "peek");          // 1: sees 1
    s.invoke(2, "insert", I(2));  // 2
    s.invoke(3, "peek");          // 3: sees 2
    s.invoke(4, "insert", I(3));  // 4
    s.ok(4, "insert", I(3));      // 5
    s.ok(3, "peek", I(2));        // 6
    s.invoke(4, "poll");          // 7
    s.ok(4, "poll", I(3));        // 8
    s.ok(0, "insert", I(1));      // 9
    s.ok(2, "insert", I(2));      // 10
    s.ok(1, "peek", I(1));        // 11
    s.invoke(2, "poll").ok(2, "poll", I(2));
    s.invoke(0, "poll").ok(0, "poll", I(1));
    std::string reason;
    const Verdict verdict = unique_engine_verdict(s, "max-priority-queue", reason);
    INFO(reason);
    CHECK(verdict == Verdict::linearizable);
    const auto model = make_model_from_spec("max-priority-queue");
    CHECK(check(s.build(*model), *model, {.engine = Engine::brute, .jobs = 1}).verdict == Verdict::linearizable);
  }

  TEST_CASE("generated unique priority-queue histories of every size are decided, none declined") {
    for (const std::string spec : {"priority-queue", "max-priority-queue"}) {
      auto model = make_model_from_spec(spec);
      for (const int ops : {50, 500, 5000, 20000}) {
        for (const bool violation : {false, true}) {
          for (std::uint64_t seed = 1; seed <= (ops >= 5000 ? 2U : 10U); ++seed) {
            const generators::AtomicShape shape{.model_spec = spec,
                                                .operations = static_cast<std::size_t>(ops),
                                                .processes = ops >= 5000 ? 16U : 4U,
                                                .values = generators::kUniqueValues,
                                                .violation = violation,
                                                .seed = seed};
            const History history = build_history(generators::generate_atomic_history(shape).log, *model);
            const CheckResult r = check(history, *model, {.engine = Engine::unique, .jobs = 1, .minimal_core = false});
            INFO(spec, " ", ops, " ops, seed ", seed, violation ? ", violation" : "", ": ", r.reason);
            CHECK(r.verdict == (violation ? Verdict::not_linearizable : Verdict::linearizable));
          }
        }
      }
    }
  }
}  // TEST_SUITE
