// The unique-value stack test (search/unique_stack.cpp) against brute force on
// thousands of random small stack histories with crashed pushes and pops: wherever it
// answers, brute force answers the same; every order it gives is replayed by the
// certificate checker inside check(); every violation is refuted by brute force on its
// own; and it declines rarely. The histories with a value pushed twice, or pushed and in
// the initial stack, are declined, with the reason.
//
// The histories come from a simulated stack: each op takes effect at a random moment
// of its interval (a crashed one maybe never, maybe after its :info, and some never
// complete at all), and some pops' results are then changed to a value pushed earlier,
// later, never, or in the initial stack, so both verdicts are common and the refuted
// ones are near misses.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "models/semantics.hpp"
#include "search/unique_values.hpp"
#include "support/history_builder.hpp"
#include "support/unique_differential.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace ariadne;
using testing::EventScript;
using testing::I;
using testing::unique_engine_verdict;

namespace {

struct Client {
  std::int64_t process = 0;
  enum class Stage { idle, invoked, effected, abandoned } stage = Stage::idle;
  bool push = false;
  std::int64_t value = 0;  // push: its value; pop: what it took
  bool failed = false;     // a pop that found the stack empty
  bool crashes = false;    // completes with :info (or never, if the history ends first)
  bool takes_effect = true;
};

EventLog random_stack_history(std::mt19937_64& rng, int operations, const std::vector<std::int64_t>& initial) {
  EventScript s;
  std::vector<std::int64_t> stack = initial;
  std::vector<Client> clients(3);
  for (std::size_t c = 0; c < clients.size(); ++c) clients[c].process = static_cast<std::int64_t>(c);
  std::int64_t next_process = static_cast<std::int64_t>(clients.size());
  std::uniform_int_distribution<int> percent(0, 99);
  std::int64_t next_value = 100;
  std::vector<std::int64_t> pushed = initial;  // every value pushed so far, and the initial ones
  const auto busy = [&] {
    return std::any_of(clients.begin(), clients.end(), [](const Client& c) {
      return c.stage == Client::Stage::invoked || c.stage == Client::Stage::effected;
    });
  };
  int invoked = 0;
  while (invoked < operations || busy()) {
    Client& c = clients[rng() % clients.size()];
    switch (c.stage) {
      case Client::Stage::abandoned: break;
      case Client::Stage::idle:
        if (invoked == operations) break;
        ++invoked;
        c.stage = Client::Stage::invoked;
        c.push = percent(rng) < 55;
        c.failed = false;
        c.crashes = percent(rng) < 12;
        c.takes_effect = !c.crashes || percent(rng) < 60;
        if (c.push) {
          c.value = next_value++;
          s.invoke(c.process, "push", I(c.value));
        } else {
          s.invoke(c.process, "pop");
        }
        break;
      case Client::Stage::invoked:
        if (c.takes_effect) {
          if (c.push) {
            stack.push_back(c.value);
            pushed.push_back(c.value);
          } else if (stack.empty()) {
            c.failed = true;
          } else {
            c.value = stack.back();
            stack.pop_back();
          }
        }
        c.stage = Client::Stage::effected;
        break;
      case Client::Stage::effected: {
        if (c.crashes) {
          // Once all ops are invoked, a crashed one may stay open to the end.
          if (invoked == operations && percent(rng) < 50) {
            c.stage = Client::Stage::abandoned;
            break;
          }
          s.info(c.process, c.push ? "push" : "pop", c.push ? I(c.value) : Value());
          c.process = next_process++;
          c.stage = Client::Stage::idle;
          break;
        }
        c.stage = Client::Stage::idle;
        if (c.push) {
          s.ok(c.process, "push", I(c.value));
          break;
        }
        if (c.failed) {
          s.fail(c.process, "pop");
          break;
        }
        std::int64_t result = c.value;
        const int pick = percent(rng);
        if (pick < 8 && !pushed.empty()) {
          result = pushed[rng() % pushed.size()];  // earlier (or the initial stack)
        } else if (pick < 13) {
          result = next_value + static_cast<std::int64_t>(rng() % 3);  // maybe pushed later
        } else if (pick < 15) {
          result = 5000;  // never pushed
        } else if (pick < 18 && !initial.empty()) {
          result = initial[rng() % initial.size()];
        }
        s.ok(c.process, "pop", I(result));
        break;
      }
    }
  }
  return s.log();
}

testing::UniqueTally compare(const std::string& spec, const std::vector<std::int64_t>& initial, int histories,
                             std::uint64_t seed) {
  return testing::compare_unique_with_brute_force(
      {.spec = spec,
       .histories = histories,
       .seed = seed,
       .generate = [&](std::mt19937_64& rng, int h) { return random_stack_history(rng, 3 + h % 9, initial); },
       .on_decline =
           [&](const std::string& reason, const EventLog& log, Verdict oracle) {
             // The one reason it may give on these histories (values are fresh).
             CHECK(reason.find("crashed pops") != std::string::npos);
             MESSAGE("declined, ", verdict_name(oracle), " by brute force: ", spec, "\n",
                     format_events(log, Format::edn));
           }});
}

}  // namespace

TEST_SUITE("search") {
  TEST_CASE("the unique-value stack test agrees with brute force on random stack histories, declining few") {
    for (const auto& [spec, initial, histories, seed] :
         {std::tuple{"stack", std::vector<std::int64_t>{}, 3000, 61}, {"stack([1 2])", {1, 2}, 2000, 62}}) {
      const auto tally = compare(spec, initial, histories, seed);
      // Measured: stack 2536 linearizable, 463 refuted, 1 declined; stack([1 2]) 1390,
      // 599, 11 (a decline needs crashed pops the order cannot all be given to the
      // elements they must remove). The bounds only ask that both verdicts be common.
      CHECK(tally.declined * 100 <= histories);
      CHECK(tally.linearizable > histories / 5);
      CHECK(tally.refuted > histories / 10);
    }
  }

  TEST_CASE("the unique-value stack test declines what it does not cover, saying why") {
    std::string reason;
    EventScript twice;
    twice.invoke(0, "push", I(1)).ok(0, "push", I(1));
    twice.invoke(1, "push", I(1)).ok(1, "push", I(1));
    CHECK(unique_engine_verdict(twice, "stack", reason) == Verdict::unknown);
    CHECK(reason.find("pushed twice") != std::string::npos);

    EventScript initial;
    initial.invoke(0, "push", I(2)).ok(0, "push", I(2));
    CHECK(unique_engine_verdict(initial, "stack([1 2])", reason) == Verdict::unknown);
    CHECK(reason.find("initial stack") != std::string::npos);
  }

  TEST_CASE("the unique-value stack test refutes a value popped twice by its two pops") {
    auto model = make_model_from_spec("stack");
    EventScript s;
    s.invoke(0, "push", I(1)).ok(0, "push", I(1));
    s.invoke(1, "pop").ok(1, "pop", I(1));
    s.invoke(2, "pop").ok(2, "pop", I(1));
    const History history = s.build(*model);
    std::vector<const Operation*> ops;
    for (const Operation& op : history.ops) ops.push_back(&op);
    const search::UniqueValueAnalysis analysis = search::analyse_unique_stack(ops, *models::semantics_of(*model, ops));
    CHECK(analysis.answer == search::UniqueValueAnalysis::Answer::not_linearizable);
    CHECK(analysis.violation == std::vector<std::uint32_t>{1, 2});
  }

  TEST_CASE("a crashed pop takes the element that would otherwise block the pop beneath it") {
    // push 1, push 2, a pop that crashes, then pop 1: only the crashed pop taking 2 explains it.
    auto model = make_model_from_spec("stack");
    EventScript s;
    s.invoke(0, "push", I(1)).ok(0, "push", I(1));
    s.invoke(0, "push", I(2)).ok(0, "push", I(2));
    s.invoke(1, "pop").info(1, "pop");
    s.invoke(2, "pop").ok(2, "pop", I(1));
    const CheckResult r = check(s.build(*model), *model, CheckOptions{.engine = Engine::unique, .jobs = 1});
    CHECK(r.verdict == Verdict::linearizable);

    EventScript late;  // the crashed pop is invoked only after pop 1 completed: too late
    late.invoke(0, "push", I(1)).ok(0, "push", I(1));
    late.invoke(0, "push", I(2)).ok(0, "push", I(2));
    late.invoke(2, "pop").ok(2, "pop", I(1));
    late.invoke(1, "pop").info(1, "pop");
    const CheckResult l = check(late.build(*model), *model, CheckOptions{.engine = Engine::unique, .jobs = 1});
    CHECK(l.verdict == Verdict::not_linearizable);
  }

  TEST_CASE("the race asks the unique-value stack test first, and it wins on unique-value stacks") {
    auto model = make_model_from_spec("stack");
    EventScript buried;  // push 1, push 2, pop 1, pop 2, one after another: 2 lies on 1
    buried.invoke(0, "push", I(1)).ok(0, "push", I(1));
    buried.invoke(0, "push", I(2)).ok(0, "push", I(2));
    buried.invoke(1, "pop").ok(1, "pop", I(1));
    buried.invoke(1, "pop").ok(1, "pop", I(2));
    const CheckResult r = check(buried.build(*model), *model, CheckOptions{.jobs = 1});
    CHECK(r.verdict == Verdict::not_linearizable);
    CHECK(r.engine == "unique");
    CHECK(r.core == std::vector<std::uint32_t>{0, 2, 4, 6});

    EventScript fine;
    fine.invoke(0, "push", I(1)).ok(0, "push", I(1));
    fine.invoke(0, "push", I(2)).ok(0, "push", I(2));
    fine.invoke(1, "pop").ok(1, "pop", I(2));
    fine.invoke(1, "pop").ok(1, "pop", I(1));
    const CheckResult f = check(fine.build(*model), *model, CheckOptions{.jobs = 1});
    CHECK(f.verdict == Verdict::linearizable);
    CHECK(f.engine == "unique");
  }

}  // TEST_SUITE
