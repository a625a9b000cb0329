// Empty observations in the container models (issue 49): an :ok dequeue or pop whose
// value is :empty found the container empty (models/container_op.hpp). The models'
// steps, the reserved value refused as an insert, the JSON spelling, and small
// histories from the papers decided by every engine, with their cores and sentences.
#include "tests/models/model_harness.hpp"

#include "support/core_oracle.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>

#include <doctest/doctest.h>

using namespace ariadne;
using namespace ariadne::model_tests;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::vector<Engine> kEveryEngine{Engine::automatic, Engine::wgl, Engine::jit, Engine::sat, Engine::smt};

// The verdict every engine gives (they must agree); unique declines or agrees.
Verdict every_engine(const History& history, const Model& model) {
  const Verdict expected = check(history, model, CheckOptions{.engine = Engine::brute, .jobs = 1}).verdict;
  for (const Engine engine : kEveryEngine) {
    INFO("engine ", engine_name(engine));
    CHECK(verdict_name(check(history, model, CheckOptions{.engine = engine, .jobs = 1}).verdict) ==
          verdict_name(expected));
  }
  const CheckResult unique = check(history, model, CheckOptions{.engine = Engine::unique, .jobs = 1});
  if (unique.verdict != Verdict::unknown) CHECK(verdict_name(unique.verdict) == verdict_name(expected));
  return expected;
}

// The POPL'16 paper's Figure 11 (Emmi and Enea, "Symbolic abstract data type
// inference"), hand-translated from its log: seven ops on a stack, linearizable but
// for the pop that found the stack empty. That pop (op 4) is called before push 2
// returns and returns after pop 2 is called: push 1 completed before it began, so 1
// must be popped before it, by pop -> 1, which comes after push 2 completed, so 2 is
// under 1; 2 must go too, by pop -> 2, which comes after push 3 completed, so 3 is
// on top of 2 and must be popped first, by pop -> 3, which began after the empty pop
// returned.
constexpr std::string_view kFigure11 = R"([
{:process 1, :type :invoke, :f :push, :value 1}
{:process 2, :type :invoke, :f :push, :value 2}
{:process 1, :type :ok, :f :push, :value 1}
{:process 3, :type :invoke, :f :pop, :value nil}
{:process 2, :type :ok, :f :push, :value 2}
{:process 4, :type :invoke, :f :pop, :value nil}
{:process 4, :type :ok, :f :pop, :value 1}
{:process 5, :type :invoke, :f :push, :value 3}
{:process 5, :type :ok, :f :push, :value 3}
{:process 6, :type :invoke, :f :pop, :value nil}
{:process 3, :type :ok, :f :pop, :value :empty}
{:process 7, :type :invoke, :f :pop, :value nil}
{:process 6, :type :ok, :f :pop, :value 2}
{:process 7, :type :ok, :f :pop, :value 3}
])";

}  // namespace

TEST_SUITE("models") {
  TEST_CASE("empty observations: a removal of :empty steps only from the empty container, to itself") {
    for (const auto& [name, insert, remove] :
         {std::tuple{"fifo-queue", "enqueue", "dequeue"}, std::tuple{"stack", "push", "pop"},
          std::tuple{"unordered-queue", "enqueue", "dequeue"}}) {
      INFO(name);
      auto model = make_model(name, Value());
      Harness h(*model, {op(insert, i(1)), op(remove, kw("empty")), op(remove, i(1)), op(remove, str("empty")),
                         crashed(remove, Value())});
      CHECK(h.run({1}) == h.initial());
      CHECK(h.run({1, 1}) == h.initial());
      CHECK_FALSE(h.run({0, 1}).has_value());
      CHECK(h.run({0, 2, 1}) == h.initial());
      CHECK(h.run({3}) == h.initial());  // JSON's "empty" is the same observation
      CHECK_FALSE(h.run({0, 3}).has_value());
      // A crashed removal stays a removal of whatever is there: none on an empty
      // container, where it may only not take effect.
      CHECK(h.successors(h.initial(), 4).empty());
      CHECK(h.run({0, 4, 1}) == h.initial());
      // The initial contents count.
      Harness full(*make_model(name, vec({i(1)})), {op(remove, kw("empty")), op(remove, i(1))});
      CHECK_FALSE(full.legal(full.initial(), 0));
      CHECK(full.run({1, 0}).has_value());
    }
  }

  TEST_CASE("empty observations: a :fail removal stays a :fail, never an observation") {
    auto model = make_model("fifo-queue", Value());
    Harness h(*model, {op("enqueue", i(1)), failed("dequeue", kw("empty"))});
    CHECK(h.run({0, 1}).has_value());
  }

  TEST_CASE("empty observations: an insert of the reserved :empty is bad input at its position") {
    for (const auto& [name, insert] :
         {std::pair{"fifo-queue", "enqueue"}, std::pair{"stack", "push"}, std::pair{"unordered-queue", "enqueue"}}) {
      auto model = make_model(name, Value());
      const std::string text = std::string("[{:process 0, :type :invoke, :f :") + insert +
                               ", :value 1}\n{:process 0, :type :ok, :f :" + insert + ", :value 1}\n" +
                               "{:process 1, :type :invoke, :f :" + insert + ", :value :empty}\n" +
                               "{:process 1, :type :ok, :f :" + insert + ", :value :empty}]";
      try {
        (void)parse_history(text, "h.edn", *model);
        FAIL("an insert of :empty was accepted");
      } catch (const InputError& e) {
        // At the completion, as every problem the model finds with an op.
        CHECK(e.pos().line == 4);
        CHECK(std::string(e.what()) == std::string("h.edn:4:1: ") + name + ": :" + insert +
                                           " of :empty (reserved: a removal's :empty records that it found the " +
                                           name + " empty)");
      }
      // A :fail insert of it never happened, and its value does not matter.
      const std::string failed_insert = std::string("[{:process 0, :type :invoke, :f :") + insert +
                                        ", :value :empty}\n{:process 0, :type :fail, :f :" + insert +
                                        ", :value :empty}]";
      CHECK_NOTHROW((void)parse_history(failed_insert, "h.edn", *model));
    }
    // JSON writes keywords as strings, so its "empty" is reserved alike.
    auto queue = make_model("fifo-queue", Value());
    CHECK_THROWS_AS((void)parse_history(R"([{"process": 0, "type": "invoke", "f": "enqueue", "value": "empty"},
{"process": 0, "type": "ok", "f": "enqueue", "value": "empty"}])",
                                        "h.json", *queue, Format::json),
                    InputError);
  }

  TEST_CASE("empty observations: JSON says \"empty\", read as EDN's :empty") {
    auto model = make_model("fifo-queue", Value());
    const std::string json = R"([
{"process": 0, "type": "invoke", "f": "enqueue", "value": 1},
{"process": 1, "type": "invoke", "f": "dequeue", "value": null},
{"process": 0, "type": "ok", "f": "enqueue", "value": 1},
{"process": 1, "type": "ok", "f": "dequeue", "value": "empty"},
{"process": 0, "type": "invoke", "f": "dequeue", "value": null},
{"process": 0, "type": "ok", "f": "dequeue", "value": "empty"}])";
    const History history = parse_history(json, "h.json", *model, Format::json);
    const CheckResult r = check(history, *model, CheckOptions{.jobs = 1});
    CHECK(r.verdict == Verdict::not_linearizable);  // 1 is never dequeued
    // The first dequeue is in the core too: relaxed (it may then have taken anything,
    // anywhere), it could have taken 1 before the second.
    std::vector<std::uint32_t> core = r.core;
    std::ranges::sort(core);
    CHECK(core == std::vector<std::uint32_t>{0, 1, 4});
  }
}

TEST_SUITE("search") {
  TEST_CASE("POPL'16 Figure 11: a stack history refuted only by its empty pop, by every engine") {
    auto model = make_model("stack", Value());
    const History history = parse_history(kFigure11, "figure11.edn", *model);
    CHECK(every_engine(history, *model) == Verdict::not_linearizable);
    // Without the empty pop (op 3), it is linearizable.
    std::string without(kFigure11);
    for (const std::string line :
         {"{:process 3, :type :invoke, :f :pop, :value nil}\n", "{:process 3, :type :ok, :f :pop, :value :empty}\n"}) {
      without.erase(without.find(line), line.size());
    }
    CHECK(every_engine(parse_history(without, "figure11-without.edn", *model), *model) == Verdict::linearizable);
    // The empty pop answered :fail instead: dropped, so linearizable too.
    std::string failed(kFigure11);
    failed.replace(failed.find(":ok, :f :pop, :value :empty"), 27, ":fail, :f :pop, :value nil");
    CHECK(every_engine(parse_history(failed, "figure11-fail.edn", *model), *model) == Verdict::linearizable);
  }

  TEST_CASE("POPL'16 Figure 11: the minimal core is all seven ops, and the sentence names the empty pop") {
    auto model = make_model("stack", Value());
    const History history = parse_history(kFigure11, "figure11.edn", *model);
    for (const Engine engine : {Engine::automatic, Engine::wgl, Engine::sat}) {
      INFO("engine ", engine_name(engine));
      const CheckResult r = check(history, *model, CheckOptions{.engine = engine, .jobs = 1});
      REQUIRE(r.verdict == Verdict::not_linearizable);
      std::vector<std::uint32_t> core = r.core;
      std::ranges::sort(core);
      // Each op is needed: without pop -> 3 (or push 3) a relaxed one could empty the
      // stack in time; without pop -> 1, pop -> 2 or either push, the others could.
      CHECK(core == std::vector<std::uint32_t>{0, 1, 3, 5, 7, 9, 11});
      std::vector<const Operation*> partition;
      for (const Operation& op : history.ops) partition.push_back(&op);
      const testing::MinimalityCheck minimal =
          testing::check_minimality(partition, r.core, *model, CheckOptions{.engine = Engine::brute, .jobs = 1});
      CHECK(minimal.refuted);
      CHECK(minimal.necessary == static_cast<int>(r.core.size()));
      // No short argument holds here (every op is needed), so the sentence is the
      // dead end, which the empty pop reaches.
      INFO(r.why);
      CHECK(contains(r.why, "in which pop :empty (op 3, process 3) cannot take effect."));
    }
  }

  TEST_CASE("an empty pop after a completed push names the push and who could have popped it") {
    auto model = make_model("stack", Value());
    const std::string text = R"([
{:process 0, :type :invoke, :f :push, :value 2}
{:process 0, :type :ok, :f :push, :value 2}
{:process 1, :type :invoke, :f :pop, :value nil}
{:process 1, :type :ok, :f :pop, :value :empty}
{:process 0, :type :invoke, :f :pop, :value nil}
{:process 0, :type :ok, :f :pop, :value 2}])";
    const History history = parse_history(text, "h.edn", *model);
    const CheckResult r = check(history, *model, CheckOptions{.jobs = 1});
    REQUIRE(r.verdict == Verdict::not_linearizable);
    std::vector<std::uint32_t> core = r.core;
    std::ranges::sort(core);
    CHECK(core == std::vector<std::uint32_t>{0, 2, 4});
    INFO(r.why);
    CHECK(contains(r.why,
                   "found the stack empty, but push 2 (op 0, process 0) completed before the pop began, and 2 "
                   "could be popped only by pop 2 (op 4, process 0), which began after the pop completed."));
  }

  TEST_CASE("an empty dequeue on a queue that starts with an element says so") {
    auto model = make_model("unordered-queue", vec({i(5)}));
    const std::string text = R"([
{:process 1, :type :invoke, :f :dequeue, :value nil}
{:process 1, :type :ok, :f :dequeue, :value :empty}])";
    const History history = parse_history(text, "h.edn", *model);
    const CheckResult r = check(history, *model, CheckOptions{.jobs = 1});
    REQUIRE(r.verdict == Verdict::not_linearizable);
    INFO(r.why);
    CHECK(contains(r.why, "found the queue empty, but the queue starts with 5, and no op dequeues 5."));
  }

  // corpus/regressions/bag-core-drops-the-dequeue-that-emptied-it.edn: relaxed, the
  // first dequeue may take 1 before the second, so it belongs in the core.
  TEST_CASE("a bag's core keeps the dequeue that could have emptied it") {
    auto model = make_model("unordered-queue", Value());
    const History history = read_history(
        std::string(ARIADNE_SOURCE_DIR) + "/corpus/regressions/bag-core-drops-the-dequeue-that-emptied-it.edn", *model);
    for (const Engine engine : {Engine::automatic, Engine::wgl, Engine::sat}) {
      INFO("engine ", engine_name(engine));
      const CheckResult r = check(history, *model, CheckOptions{.engine = engine, .jobs = 1});
      REQUIRE(r.verdict == Verdict::not_linearizable);
      std::vector<std::uint32_t> core = r.core;
      std::ranges::sort(core);
      CHECK(core == std::vector<std::uint32_t>{0, 1, 4});
      CHECK(r.core_minimal);
    }
  }

  TEST_CASE("an empty observation needs a crashed removal it may lean on, and no other") {
    // The crashed dequeue may have taken 1 before the empty dequeue: linearizable.
    auto model = make_model("fifo-queue", Value());
    const std::string text = R"([
{:process 0, :type :invoke, :f :enqueue, :value 1}
{:process 0, :type :ok, :f :enqueue, :value 1}
{:process 2, :type :invoke, :f :dequeue, :value nil}
{:process 2, :type :info, :f :dequeue, :value nil}
{:process 1, :type :invoke, :f :dequeue, :value nil}
{:process 1, :type :ok, :f :dequeue, :value :empty}])";
    CHECK(every_engine(parse_history(text, "h.edn", *model), *model) == Verdict::linearizable);
    // Invoked after the empty dequeue returned, it cannot have.
    std::string late = text;
    const std::string crashed_pair =
        "{:process 2, :type :invoke, :f :dequeue, :value nil}\n"
        "{:process 2, :type :info, :f :dequeue, :value nil}\n";
    late.erase(late.find(crashed_pair), crashed_pair.size());
    late.insert(late.rfind(']'), "\n" + crashed_pair);
    CHECK(every_engine(parse_history(late, "h.edn", *model), *model) == Verdict::not_linearizable);
  }
}
