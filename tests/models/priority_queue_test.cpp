// The priority queues (models/priority_queue.cpp): random walks against a plain
// reference written with a sorted std::vector, for both orders, with crashed, failed
// and empty ops; the ops' shapes; and whole histories, fastlin's among them.
#include "tests/models/model_harness.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>

using namespace ariadne;
using namespace ariadne::model_tests;

namespace {

using Entry = std::pair<std::int64_t, std::int64_t>;  // (priority, element)
using Contents = std::vector<Entry>;                  // sorted

enum class Kind { insert, poll, peek, poll_empty, peek_empty };

struct RefOp {
  Kind kind = Kind::insert;
  Entry entry;  // insert: the entry; poll, peek: .second is the element
  OpStatus status = OpStatus::ok;
};

std::string render(const Contents& c, bool highest_first) {
  std::vector<Entry> top_first = c;
  if (highest_first) std::ranges::reverse(top_first);
  std::string text = "[";
  for (std::size_t n = 0; n < top_first.size(); ++n) {
    const auto [p, x] = top_first[n];
    text += (n ? " " : "") + (p == x ? std::to_string(p) : "[" + std::to_string(p) + " " + std::to_string(x) + "]");
  }
  return text + "]";
}

// Every successor of `c` under `o`.
std::vector<Contents> reference_step(const Contents& c, const RefOp& o, bool highest_first) {
  if (o.status == OpStatus::failed) return {c};
  if (o.kind == Kind::insert) {
    Contents next = c;
    next.insert(std::ranges::upper_bound(next, o.entry), o.entry);
    return {next};
  }
  if (o.status == OpStatus::crashed && (o.kind == Kind::peek || o.kind == Kind::peek_empty)) return {c};
  if (o.kind == Kind::poll_empty || o.kind == Kind::peek_empty) {
    if (o.status == OpStatus::crashed) {
      // a crashed poll whatever it recorded: handled below
    } else {
      return c.empty() ? std::vector<Contents>{c} : std::vector<Contents>{};
    }
  }
  if (c.empty()) return {};
  const std::int64_t top = highest_first ? c.back().first : c.front().first;
  std::vector<Contents> out;
  std::set<Entry> seen;
  for (std::size_t n = 0; n < c.size(); ++n) {
    if (c[n].first != top || !seen.insert(c[n]).second) continue;
    if (o.status != OpStatus::crashed && c[n].second != o.entry.second) continue;
    if (o.kind == Kind::peek) return {c};
    Contents next = c;
    next.erase(next.begin() + static_cast<std::ptrdiff_t>(n));
    out.push_back(next);
  }
  return out;
}

Operation to_operation(const RefOp& o) {
  const OpStatus s = o.status;
  switch (o.kind) {
    case Kind::insert: {
      const Value value =
          o.entry.first == o.entry.second ? i(o.entry.first) : vec({i(o.entry.first), i(o.entry.second)});
      return op("insert", value, s);
    }
    case Kind::poll: return op("poll", s == OpStatus::ok ? i(o.entry.second) : Value(), s);
    case Kind::peek: return op("peek", s == OpStatus::ok ? i(o.entry.second) : Value(), s);
    case Kind::poll_empty: return op("poll", s == OpStatus::ok ? kw("empty") : Value(), s);
    case Kind::peek_empty: return op("peek", s == OpStatus::ok ? kw("empty") : Value(), s);
  }
  return {};
}

Verdict verdict_of(const std::string& model, const std::string& edn, Engine engine = Engine::wgl) {
  const auto m = make_model_from_spec(model);
  const History history = parse_history(edn, "test.edn", *m);
  return check(history, *m, {.engine = engine, .timeout_seconds = 30, .jobs = 1}).verdict;
}

}  // namespace

TEST_SUITE("models") {
  TEST_CASE("priority queues: random walks agree with a sorted-vector reference") {
    std::mt19937 rng(20261206);
    for (const bool highest_first : {false, true}) {
      const std::string model = highest_first ? "max-priority-queue" : "priority-queue";
      CAPTURE(model);
      for (int history = 0; history < 20; ++history) {
        std::vector<RefOp> ref;
        for (int n = 0; n < 40; ++n) {
          RefOp o;
          o.kind = static_cast<Kind>(rng() % 5 == 0 ? 3 + rng() % 2 : rng() % 3);
          o.entry = {static_cast<std::int64_t>(rng() % 3), static_cast<std::int64_t>(rng() % 4)};
          const unsigned status = rng() % 8;
          o.status = status == 0 ? OpStatus::crashed : status == 1 ? OpStatus::failed : OpStatus::ok;
          ref.push_back(o);
        }
        std::vector<Operation> ops;
        for (const RefOp& o : ref) ops.push_back(to_operation(o));
        auto m = make_model(model, Value());
        Harness h(*m, ops);
        std::map<Contents, StateId> ids;
        for (int walk = 0; walk < 50; ++walk) {
          Contents c;
          StateId state = h.initial();
          ids.emplace(c, state);
          for (int length = 0; length < 30; ++length) {
            const auto o = static_cast<std::uint32_t>(rng() % ops.size());
            const auto expected = reference_step(c, ref[o], highest_first);
            const auto got = h.successors(state, o);
            INFO("state ", render(c, highest_first), ", op ", o);
            REQUIRE(got.size() == expected.size());
            std::set<std::string> expected_text;
            std::set<std::string> got_text;
            for (const Contents& e : expected) expected_text.insert(render(e, highest_first));
            for (const StateId g : got) got_text.insert(h.describe(g));
            REQUIRE(got_text == expected_text);
            if (expected.empty()) continue;
            c = expected[rng() % expected.size()];
            state = *std::ranges::find_if(got, [&](StateId g) { return h.describe(g) == render(c, highest_first); });
            const auto [it, inserted] = ids.emplace(c, state);
            REQUIRE(it->second == state);  // equal contents, one id
          }
        }
      }
    }
  }

  TEST_CASE("priority queues: the ops' shapes and the initial state") {
    const auto m = make_model_from_spec("priority-queue");
    CHECK_FALSE(m->check_operation(op("insert", i(3))));
    CHECK_FALSE(m->check_operation(op("insert", vec({i(3), kw("a")}))));
    CHECK_FALSE(m->check_operation(op("poll", kw("empty"))));
    CHECK_FALSE(m->check_operation(op("peek", kw("a"))));
    CHECK(m->check_operation(op("insert", kw("a"))).value().find("priority") != std::string::npos);
    CHECK(m->check_operation(op("insert", vec({kw("a"), i(1)}))));
    CHECK(m->check_operation(op("insert", vec({i(1), kw("empty")}))).value().find(":empty") != std::string::npos);
    CHECK(m->check_operation(op("enqueue", i(1))).value().find(":insert") != std::string::npos);
    CHECK_FALSE(m->check_operation(failed("insert", kw("a"))));  // a :fail never happened
    CHECK_THROWS_AS(make_model_from_spec("priority-queue([[1 :a] :b])"), UsageError);
    CHECK_THROWS_AS(make_model_from_spec("max-priority-queue(#{})"), UsageError);
    CHECK(make_model_from_spec("max-priority-queue([[1 :a] 3])")->spec() == "max-priority-queue([[1 :a] 3])");
  }

  TEST_CASE("priority queues: whole histories, fastlin's examples among them") {
    // fastlin's testcases/priorityqueue/nonlin_simple_0.log: insert 5 [1,3], peek 5
    // [2,4], insert 6 [2,5], poll 5 [6,7]. Its queue polls the highest first: 6 is in
    // when 5 is polled, so not linearizable; lowest first, it is.
    const std::string fastlin = R"({:process 0 :type :invoke :f :insert :value 5}
{:process 1 :type :invoke :f :peek :value nil}
{:process 2 :type :invoke :f :insert :value 6}
{:process 0 :type :ok :f :insert :value 5}
{:process 1 :type :ok :f :peek :value 5}
{:process 2 :type :ok :f :insert :value 6}
{:process 0 :type :invoke :f :poll :value nil}
{:process 0 :type :ok :f :poll :value 5}
)";
    for (const Engine engine : {Engine::wgl, Engine::jit, Engine::brute, Engine::sat}) {
      CAPTURE(engine_name(engine));
      CHECK(verdict_of("max-priority-queue", fastlin, engine) == Verdict::not_linearizable);
      CHECK(verdict_of("priority-queue", fastlin, engine) == Verdict::linearizable);
    }
    // An empty poll after an insert completed, nothing polled: not linearizable; with a
    // crashed poll that may have taken it, linearizable.
    const std::string empty = R"({:process 0 :type :invoke :f :insert :value [1 :a]}
{:process 0 :type :ok :f :insert :value [1 :a]}
{:process 1 :type :invoke :f :poll :value nil}
{:process 1 :type :ok :f :poll :value :empty}
)";
    CHECK(verdict_of("priority-queue", empty) == Verdict::not_linearizable);
    CHECK(verdict_of("priority-queue", "{:process 2 :type :invoke :f :poll :value nil}\n" + empty) ==
          Verdict::linearizable);
    // Equal priorities leave the order open.
    const std::string ties = R"({:process 0 :type :invoke :f :insert :value [1 :a]}
{:process 0 :type :ok :f :insert :value [1 :a]}
{:process 0 :type :invoke :f :insert :value [1 :b]}
{:process 0 :type :ok :f :insert :value [1 :b]}
{:process 0 :type :invoke :f :peek :value nil}
{:process 0 :type :ok :f :peek :value :b}
{:process 0 :type :invoke :f :poll :value nil}
{:process 0 :type :ok :f :poll :value :a}
)";
    CHECK(verdict_of("priority-queue", ties) == Verdict::linearizable);
  }
}
