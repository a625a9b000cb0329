// The unique-value tests for fifo-queue, set and unordered-queue (search/unique_queue.cpp,
// unique_set.cpp, unique_bag.cpp) against brute force, on thousands of random small
// histories with unique values and crashed ops: wherever a test answers, brute force
// answers the same; every order it gives is replayed by the certificate checker inside
// check(); every violation is refuted by brute force on its own; and how often each
// declines is printed and bounded.
//
// The histories come from a simulated object: each op takes effect at a random moment
// of its interval (a crashed one maybe never), and some results are then corrupted, so
// both verdicts are common and the refuted ones are near misses, not noise.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "models/semantics.hpp"
#include "search/unique_values.hpp"
#include "support/history_builder.hpp"
#include "support/random_history.hpp"
#include "support/unique_differential.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <set>

using namespace ariadne;
using testing::EventScript;
using testing::I;
using testing::unique_engine_verdict;

namespace {

enum class Kind { fifo_queue, set, bag };

// One simulated object: a queue (front first), a set, or a bag, of integers.
struct SimulatedContainer {
  Kind kind;
  std::deque<std::int64_t> items;

  // The removal's result, or nullopt when empty (the op then fails).
  std::optional<std::int64_t> remove(std::mt19937_64& rng) {
    if (items.empty()) return std::nullopt;
    std::size_t at = kind == Kind::bag ? rng() % items.size() : 0;
    const std::int64_t v = items[at];
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(at));
    return v;
  }
  Value read() const {
    std::vector<Value> elements;
    std::vector<std::int64_t> sorted(items.begin(), items.end());
    std::sort(sorted.begin(), sorted.end());
    for (const std::int64_t v : sorted) elements.push_back(I(v));
    return Value::set(std::move(elements));
  }
};

struct Open {
  std::int64_t process = 0;
  enum class Stage { idle, invoked, effected } stage = Stage::idle;
  bool insert = false;  // enqueue or add; else dequeue or read
  std::int64_t value = 0;
  Value result;
  bool failed = false;
};

EventLog random_history(std::mt19937_64& rng, Kind kind, int operations, const std::vector<std::int64_t>& initial) {
  EventScript s;
  SimulatedContainer object{kind, {initial.begin(), initial.end()}};
  std::vector<Open> procs(3);
  for (std::size_t p = 0; p < procs.size(); ++p) procs[p].process = static_cast<std::int64_t>(p);
  std::int64_t next_process = static_cast<std::int64_t>(procs.size());
  std::uniform_int_distribution<int> percent(0, 99);
  const std::string insert = kind == Kind::set ? "add" : "enqueue";
  const std::string remove = kind == Kind::set ? "read" : "dequeue";
  int invoked = 0;
  std::int64_t next_value = 100;
  std::vector<std::int64_t> seen = initial;  // every value enqueued so far
  while (invoked < operations ||
         std::any_of(procs.begin(), procs.end(), [](const Open& o) { return o.stage != Open::Stage::idle; })) {
    Open& o = procs[rng() % procs.size()];
    switch (o.stage) {
      case Open::Stage::idle:
        if (invoked == operations) continue;
        ++invoked;
        o.stage = Open::Stage::invoked;
        o.insert = percent(rng) < 55;
        o.failed = false;
        if (o.insert) {
          o.value = next_value++;
          s.invoke(o.process, insert, I(o.value));
        } else {
          s.invoke(o.process, remove);
        }
        break;
      case Open::Stage::invoked: {
        const int roll = percent(rng);
        if (roll < 6) {  // crashed before taking effect
          s.info(o.process, o.insert ? insert : remove, o.insert ? I(o.value) : Value());
          o.process = next_process++;
          o.stage = Open::Stage::idle;
          break;
        }
        o.stage = Open::Stage::effected;  // takes effect now
        if (o.insert) {
          if (kind == Kind::set) {
            object.items.push_back(o.value);
          } else {
            object.items.push_back(o.value);
          }
          seen.push_back(o.value);
          o.result = I(o.value);
        } else if (kind == Kind::set) {
          o.result = object.read();
        } else if (const auto v = object.remove(rng)) {
          o.result = I(*v);
        } else {
          o.failed = true;
        }
        break;
      }
      case Open::Stage::effected: {
        o.stage = Open::Stage::idle;
        const int roll = percent(rng);
        if (roll < 6) {  // crashed after taking effect
          s.info(o.process, o.insert ? insert : remove, o.insert ? I(o.value) : Value());
          o.process = next_process++;
          break;
        }
        if (o.insert) {
          s.ok(o.process, insert, I(o.value));
          break;
        }
        if (o.failed) {
          s.fail(o.process, remove);
          break;
        }
        Value result = o.result;
        if (percent(rng) < 20) {  // corrupt the result
          if (kind == Kind::set) {
            std::vector<Value> elements = result.elements();
            if (!elements.empty() && percent(rng) < 50) {
              elements.erase(elements.begin() + static_cast<std::ptrdiff_t>(rng() % elements.size()));
            } else {
              elements.push_back(I(percent(rng) < 70 && !seen.empty() ? seen[rng() % seen.size()] : next_value + 7));
            }
            std::sort(elements.begin(), elements.end());
            elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
            result = Value::set(std::move(elements));
          } else {
            result = I(percent(rng) < 80 && !seen.empty() ? seen[rng() % seen.size()] : next_value + 7);
          }
        }
        s.ok(o.process, remove, result);
        break;
      }
    }
  }
  return s.log();
}

testing::UniqueTally compare(Kind kind, const std::string& spec, const std::vector<std::int64_t>& initial,
                             int histories, std::uint64_t seed) {
  return testing::compare_unique_with_brute_force(
      {.spec = spec, .histories = histories, .seed = seed, .generate = [&](std::mt19937_64& rng, int h) {
         return random_history(rng, kind, 3 + h % 9, initial);
       }});
}

}  // namespace

TEST_SUITE("search") {
  TEST_CASE("the unique-value queue test agrees with brute force, crashed enqueues and dequeues included") {
    for (const auto& [spec, initial, seed] :
         {std::tuple{std::string("fifo-queue"), std::vector<std::int64_t>{}, 61},
          std::tuple{std::string("fifo-queue([1 2])"), std::vector<std::int64_t>{1, 2}, 62}}) {
      const auto tally = compare(Kind::fifo_queue, spec, initial, 3000, seed);
      CHECK(tally.declined == 0);
      CHECK(tally.linearizable > 300);
      CHECK(tally.refuted > 300);
    }
  }

  TEST_CASE("the unique-value set test agrees with brute force, crashed adds and reads included") {
    for (const auto& [spec, initial, seed] :
         {std::tuple{std::string("set"), std::vector<std::int64_t>{}, 71},
          std::tuple{std::string("set(#{1 2})"), std::vector<std::int64_t>{1, 2}, 72}}) {
      const auto tally = compare(Kind::set, spec, initial, 3000, seed);
      CHECK(tally.declined == 0);
      CHECK(tally.linearizable > 300);
      CHECK(tally.refuted > 300);
    }
  }

  TEST_CASE("the unique-value unordered-queue test agrees with brute force, crashed ops included") {
    for (const auto& [spec, initial, seed] :
         {std::tuple{std::string("unordered-queue"), std::vector<std::int64_t>{}, 81},
          std::tuple{std::string("unordered-queue([1 2])"), std::vector<std::int64_t>{1, 2}, 82}}) {
      const auto tally = compare(Kind::bag, spec, initial, 3000, seed);
      CHECK(tally.declined == 0);
      CHECK(tally.linearizable > 300);
      CHECK(tally.refuted > 300);
    }
  }

  // A removal that returned :empty (issue 49) makes the queue's and the stack's test
  // decline (UniqueAnswer::empty_observation); the history then goes to
  // search/unique_empty_observations.cpp, which refutes it as a bag's (such a
  // refutation holds with every other op relaxed), or with the observations left out,
  // or orders it as a priority queue's, or declines: never an answer brute force
  // contradicts. A history without one is decided as before. An unordered queue with
  // one goes to the priority queue's sweep, every element of one priority
  // (search/unique_priority_queue.cpp), which decides it or declines where it is stuck
  // without a proof.
  TEST_CASE("the unique-value container tests decline empty observations or sweep them, and decide the rest") {
    std::uint64_t seed = 90;
    for (const std::string spec : {"fifo-queue()", "stack()", "unordered-queue()"}) {
      const bool bag = spec == "unordered-queue()";
      const auto has_empty_observation = [](const EventLog& log) {
        return std::any_of(log.events.begin(), log.events.end(), [](const Event& e) {
          return e.type == EventType::ok && e.value.is_keyword() && e.value.text() == "empty";
        });
      };
      int with_observations = 0;
      int refuted_with_observations = 0;
      const testing::UniqueTally tally = testing::compare_unique_with_brute_force(
          {.spec = spec,
           .histories = 1500,
           .seed = ++seed,
           .generate =
               [&](std::mt19937_64& rng, int h) {
                 testing::RandomHistoryShape shape{
                     .operations = 3 + h % 6, .processes = 3, .crash_probability = 0.25, .unique_values = true};
                 shape.empty_probability = 0.3;
                 EventLog log = testing::random_history(spec, shape, rng);
                 with_observations += has_empty_observation(log) ? 1 : 0;
                 return log;
               },
           .on_decline =
               [&](const std::string& reason, const EventLog& log, Verdict) {
                 CHECK(has_empty_observation(log));
                 CHECK(reason.find(bag ? "choices" : "found the container empty") != std::string::npos);
               },
           .on_refuted =
               [&](std::span<const Operation* const> ops, const search::UniqueValueAnalysis& analysis) {
                 const bool observed = std::any_of(ops.begin(), ops.end(), [](const Operation* op) {
                   return op->status == OpStatus::ok && op->value.is_keyword() && op->value.text() == "empty";
                 });
                 if (!observed) return;
                 ++refuted_with_observations;
                 // Refuted as a bag's: with every other op relaxed too, as the bag's are.
                 auto model = make_model_from_spec(spec);
                 models::Semantics as_bag = *models::semantics_of(*model, ops);
                 as_bag.theory = models::Theory::unordered_queue;
                 if (search::analyse_unique_priority_queue(ops, as_bag).answer ==
                     search::UniqueValueAnalysis::Answer::not_linearizable) {
                   testing::check_refuted_relaxed(ops, spec, analysis);
                 }
               }});
      MESSAGE(spec, ": ", with_observations, " with an empty observation, ", refuted_with_observations,
              " of them refuted");
      if (bag) {
        CHECK(tally.declined * 20 <= with_observations);  // measured: 16 of 613
      } else {
        // Refuted as a bag's, or with the observations left out; ordered as a priority
        // queue's; declined where neither works (measured: 18 of 622 queues', 18 of 604
        // stacks').
        const int ordered_with_observations = with_observations - refuted_with_observations - tally.declined;
        MESSAGE(spec, ": ", ordered_with_observations, " ordered, ", tally.declined, " declined");
        CHECK(refuted_with_observations * 2 > with_observations);
        CHECK(ordered_with_observations * 5 > with_observations);
        CHECK(tally.declined * 10 < with_observations);
      }
      CHECK(tally.linearizable > 50);
      CHECK(tally.refuted > 50);
    }
  }

  TEST_CASE("a queue's empty observations are placed with its elements going in in the order found") {
    // Three removals find the queue empty while 1 and 2 are being enqueued; 2 is
    // dequeued before 1's enqueue returns, so 2 went in first. The sweep pairs 2's
    // enqueue with its dequeue, the observations before it, and brings 1 in after.
    EventScript s;
    s.invoke(0, "dequeue");        // 0: finds the queue empty
    s.invoke(2, "dequeue");        // 1: finds the queue empty
    s.invoke(1, "enqueue", I(1));  // 2
    s.ok(0, "dequeue", Value::keyword("empty"));
    s.invoke(3, "dequeue");        // 4: finds the queue empty
    s.invoke(0, "enqueue", I(2));  // 5
    s.ok(3, "dequeue", Value::keyword("empty"));
    s.invoke(3, "dequeue");  // 7: takes 2
    s.ok(2, "dequeue", Value::keyword("empty"));
    s.ok(3, "dequeue", I(2));
    s.ok(0, "enqueue", I(2));
    s.ok(1, "enqueue", I(1));
    s.invoke(3, "dequeue").ok(3, "dequeue", I(1));
    std::string reason;
    const Verdict fifo = unique_engine_verdict(s, "fifo-queue", reason);
    INFO(reason);
    CHECK(fifo == Verdict::linearizable);
    // As a stack, the same history: 2 pushed and popped at once, then 1.
    EventScript stack;
    for (const Event& e : s.log().events) {
      const std::string f = e.f == "enqueue" ? "push" : "pop";
      if (e.type == EventType::invoke) {
        stack.invoke(e.process.as_integer(), f, e.value);
      } else {
        stack.ok(e.process.as_integer(), f, e.value);
      }
    }
    CHECK(unique_engine_verdict(stack, "stack", reason) == Verdict::linearizable);
  }

  TEST_CASE("the unique-value container tests decline a repeated value, saying why") {
    std::string reason;
    EventScript twice;
    twice.invoke(0, "enqueue", I(1)).ok(0, "enqueue", I(1));
    twice.invoke(1, "enqueue", I(1)).ok(1, "enqueue", I(1));
    CHECK(unique_engine_verdict(twice, "fifo-queue", reason) == Verdict::unknown);
    CHECK(reason.find("enqueued twice") != std::string::npos);
    CHECK(unique_engine_verdict(twice, "unordered-queue", reason) == Verdict::unknown);
    CHECK(reason.find("enqueued twice") != std::string::npos);

    EventScript added;
    added.invoke(0, "add", I(1)).ok(0, "add", I(1));
    CHECK(unique_engine_verdict(added, "set(#{1})", reason) == Verdict::unknown);
    CHECK(reason.find("added twice") != std::string::npos);
  }

  TEST_CASE("a value dequeued twice around a crashed enqueue of it is not refuted (crashed duplicates count)") {
    // corpus/regressions/queue-crashed-enqueue-puts-a-value-back.edn: the crashed
    // enqueue of 0 is invoked after the second dequeue and took effect between the
    // dequeues. The tests used to refute at the second dequeue, before seeing it.
    EventScript back;
    back.invoke(0, "enqueue", I(0)).ok(0, "enqueue", I(0));
    back.invoke(1, "dequeue").ok(1, "dequeue", I(0));
    back.invoke(1, "dequeue");
    back.invoke(2, "enqueue", I(0));
    back.ok(1, "dequeue", I(0));
    for (const std::string spec : {"fifo-queue", "unordered-queue"}) {
      CAPTURE(spec);
      std::string reason;
      CHECK(unique_engine_verdict(back, spec, reason) == Verdict::unknown);
      CHECK(reason.find("enqueued twice") != std::string::npos);
      auto model = make_model_from_spec(spec);
      for (const bool core : {false, true}) {
        const CheckResult r = check(back.build(*model), *model, CheckOptions{.jobs = 1, .minimal_core = core});
        CHECK(r.verdict == Verdict::linearizable);
      }
    }
    // corpus/regressions/queue-completed-enqueue-puts-a-value-back.edn: the second
    // enqueue completed, invoked after the second dequeue: no crash needed.
    EventScript completed;
    completed.invoke(0, "enqueue", I(1)).ok(0, "enqueue", I(1));
    completed.invoke(1, "dequeue").ok(1, "dequeue", I(1));
    completed.invoke(2, "dequeue");
    completed.invoke(0, "enqueue", I(1)).ok(0, "enqueue", I(1));
    completed.ok(2, "dequeue", I(1));
    for (const std::string spec : {"fifo-queue", "unordered-queue"}) {
      CAPTURE(spec);
      std::string reason;
      CHECK(unique_engine_verdict(completed, spec, reason) == Verdict::unknown);
      auto model = make_model_from_spec(spec);
      CHECK(check(completed.build(*model), *model, CheckOptions{.jobs = 1}).verdict == Verdict::linearizable);
    }
    // Without the crashed enqueue, the same two dequeues are refuted, by the unique
    // test's three ops.
    EventScript once;
    once.invoke(0, "enqueue", I(0)).ok(0, "enqueue", I(0));
    once.invoke(1, "dequeue").ok(1, "dequeue", I(0));
    once.invoke(1, "dequeue").ok(1, "dequeue", I(0));
    for (const std::string spec : {"fifo-queue", "unordered-queue"}) {
      CAPTURE(spec);
      std::string reason;
      CHECK(unique_engine_verdict(once, spec, reason) == Verdict::not_linearizable);
    }
  }

  TEST_CASE("a crashed dequeue that took out a value left ahead of a dequeued one is found") {
    // 1 and 2 enqueued in that order; only 2 is dequeued: a crashed dequeue must have
    // taken 1, which it can only do if it was invoked before 2's dequeue completed.
    auto model = make_model_from_spec("fifo-queue");
    EventScript taken;
    taken.invoke(0, "enqueue", I(1)).ok(0, "enqueue", I(1));
    taken.invoke(0, "enqueue", I(2)).ok(0, "enqueue", I(2));
    taken.invoke(1, "dequeue");
    taken.invoke(2, "dequeue").ok(2, "dequeue", I(2));
    const CheckResult r = check(taken.build(*model), *model, CheckOptions{.jobs = 1});
    CHECK(r.verdict == Verdict::linearizable);
    CHECK(r.engine == "unique");

    EventScript late;  // the crashed dequeue comes too late to take 1 out first
    late.invoke(0, "enqueue", I(1)).ok(0, "enqueue", I(1));
    late.invoke(0, "enqueue", I(2)).ok(0, "enqueue", I(2));
    late.invoke(2, "dequeue").ok(2, "dequeue", I(2));
    late.invoke(1, "dequeue");
    const CheckResult l = check(late.build(*model), *model, CheckOptions{.jobs = 1});
    CHECK(l.verdict == Verdict::not_linearizable);
    CHECK(l.engine == "unique");
    CHECK(l.core_minimal);
  }

}  // TEST_SUITE
