// The priority queues' verdicts against an independent brute force: random small
// histories (crashed inserts and polls, :fail ops, empty observations, equal
// priorities), each decided by enumerating every order that real time allows with a
// plain sorted-vector priority queue written here, and by ariadne's engines, which
// must agree on every one (SAT and SMT through the direct encoding, deciding all).
#include <ariadne/check.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace ariadne;

namespace {

enum class Kind { insert, poll, peek };

struct RefOp {
  Kind kind = Kind::insert;
  std::int64_t priority = 0;
  std::int64_t element = 0;  // insert: its element; poll, peek: the result, -1 for :empty
  bool crashed = false;
  bool failed = false;
  std::size_t call = 0;  // event positions
  std::size_t ret = 0;   // SIZE_MAX when crashed
};

using Contents = std::vector<std::pair<std::int64_t, std::int64_t>>;  // sorted (priority, element)

// Every successor of `c` under `o` (a completed op with its recorded result, or a
// crashed one with any result).
std::vector<Contents> successors(const Contents& c, const RefOp& o, bool highest_first) {
  if (o.failed) return {c};
  if (o.kind == Kind::insert) {
    Contents next = c;
    next.insert(std::ranges::upper_bound(next, std::pair{o.priority, o.element}), {o.priority, o.element});
    return {next};
  }
  if (o.kind == Kind::peek && o.crashed) return {c};
  if (c.empty()) {
    if (!o.crashed && o.element == -1) return {c};
    return {};
  }
  if (!o.crashed && o.element == -1) return {};
  const std::int64_t top = highest_first ? c.back().first : c.front().first;
  std::vector<Contents> out;
  for (std::size_t n = 0; n < c.size(); ++n) {
    if (c[n].first != top || (!o.crashed && c[n].second != o.element)) continue;
    if (o.kind == Kind::peek) return {c};
    Contents next = c;
    next.erase(next.begin() + static_cast<std::ptrdiff_t>(n));
    out.push_back(next);
  }
  return out;
}

// Whether some order of the completed ops and some of the crashed ones, respecting
// real time, is legal: depth-first over the ops that may come next.
bool linearizable(const std::vector<RefOp>& ops, bool highest_first) {
  std::vector<bool> done(ops.size(), false);
  const auto search = [&](const auto& self, const Contents& c, std::size_t left) -> bool {
    if (left == 0) return true;
    // Every completed op not done must still come; an op may come next only if no op
    // not done completed before it was invoked.
    std::size_t earliest_ret = SIZE_MAX;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (!done[i]) earliest_ret = std::min(earliest_ret, ops[i].ret);
    }
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (done[i] || ops[i].call > earliest_ret) continue;
      done[i] = true;
      for (const Contents& next : successors(c, ops[i], highest_first)) {
        if (self(self, next, left - 1)) {
          done[i] = false;
          return true;
        }
      }
      // A crashed op may also never take effect.
      if (ops[i].crashed && self(self, c, left - 1)) {
        done[i] = false;
        return true;
      }
      done[i] = false;
    }
    return false;
  };
  return search(search, {}, ops.size());
}

Value element_value(std::int64_t element) { return element == -1 ? Value::keyword("empty") : Value::integer(element); }

// The history as events: invocations and completions interleaved at random.
EventLog to_log(const std::vector<RefOp>& ops) {
  struct Point {
    std::size_t at;
    bool invoke;
    std::size_t op;
  };
  std::vector<Point> points;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    points.push_back({ops[i].call, true, i});
    if (ops[i].ret != SIZE_MAX) points.push_back({ops[i].ret, false, i});
  }
  std::ranges::sort(points, {}, &Point::at);
  EventLog log;
  log.source = "random.edn";
  for (const Point& p : points) {
    const RefOp& o = ops[p.op];
    Event e;
    e.process = Value::integer(static_cast<std::int64_t>(p.op));
    e.f = o.kind == Kind::insert ? "insert" : o.kind == Kind::poll ? "poll" : "peek";
    const Value insert_value = Value::vector({Value::integer(o.priority), Value::integer(o.element)});
    if (p.invoke) {
      e.type = EventType::invoke;
      e.value = o.kind == Kind::insert ? insert_value : Value();
    } else {
      e.type = o.failed ? EventType::fail : EventType::ok;
      e.value = o.kind == Kind::insert ? insert_value : element_value(o.element);
    }
    log.events.push_back(std::move(e));
  }
  // Crashed ops end with :info half the time, and otherwise never complete.
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (!ops[i].crashed || i % 2 == 0) continue;
    Event e;
    e.process = Value::integer(static_cast<std::int64_t>(i));
    e.type = EventType::info;
    e.f = ops[i].kind == Kind::insert ? "insert" : ops[i].kind == Kind::poll ? "poll" : "peek";
    log.events.push_back(std::move(e));
  }
  return log;
}

std::vector<RefOp> random_history(std::mt19937_64& rng, std::size_t size) {
  std::vector<RefOp> ops(size);
  std::vector<std::size_t> times;
  for (std::size_t t = 0; t < 2 * size; ++t) times.push_back(t);
  std::ranges::shuffle(times, rng);
  for (std::size_t i = 0; i < size; ++i) {
    RefOp& o = ops[i];
    o.kind = static_cast<Kind>(rng() % 3);
    o.priority = static_cast<std::int64_t>(rng() % 3);
    o.element = o.kind == Kind::insert ? static_cast<std::int64_t>(i)
                                       : static_cast<std::int64_t>(rng() % (size + 1)) - 1;  // -1: :empty
    o.crashed = rng() % 5 == 0;
    o.failed = !o.crashed && rng() % 12 == 0;
    o.call = std::min(times[2 * i], times[2 * i + 1]);
    o.ret = o.crashed ? SIZE_MAX : std::max(times[2 * i], times[2 * i + 1]);
  }
  // Results that name an inserted element are more often legal: most polls and peeks
  // take one that some insert adds.
  for (RefOp& o : ops) {
    if (o.kind != Kind::insert && o.element >= 0 && rng() % 4 != 0) {
      std::vector<std::int64_t> inserted;
      for (const RefOp& x : ops) {
        if (x.kind == Kind::insert) inserted.push_back(x.element);
      }
      if (!inserted.empty()) o.element = inserted[rng() % inserted.size()];
    }
  }
  return ops;
}

// A history the unique-value engine takes: every element inserted once, each with a
// priority of its own; polls and peeks mostly return an inserted element (any, so
// that many histories are refuted), else :empty or an element nobody inserted.
std::vector<RefOp> random_unique_history(std::mt19937_64& rng, std::size_t size) {
  std::vector<RefOp> ops = random_history(rng, size);
  std::vector<std::int64_t> priorities(size);
  for (std::size_t i = 0; i < size; ++i) priorities[i] = static_cast<std::int64_t>(i);
  std::ranges::shuffle(priorities, rng);
  std::vector<std::int64_t> inserted;
  for (std::size_t i = 0; i < size; ++i) {
    if (ops[i].kind != Kind::insert) continue;
    ops[i].priority = priorities[i];
    inserted.push_back(ops[i].element);
  }
  for (RefOp& o : ops) {
    if (o.kind == Kind::insert) continue;
    const std::uint64_t draw = rng() % 8;
    if (draw < 6 && !inserted.empty()) o.element = inserted[rng() % inserted.size()];
    if (draw == 6) o.element = -1;  // :empty
  }
  return ops;
}

// A history whose inserts draw their elements from three, so that an element is often
// inserted twice, with the same priority or another; polls and peeks mostly return
// one of them.
std::vector<RefOp> random_repeating_history(std::mt19937_64& rng, std::size_t size) {
  std::vector<RefOp> ops = random_history(rng, size);
  for (RefOp& o : ops) {
    if (o.kind == Kind::insert) o.element = static_cast<std::int64_t>(rng() % 3);
  }
  for (RefOp& o : ops) {
    if (o.kind != Kind::insert && o.element >= 0) o.element = static_cast<std::int64_t>(rng() % 3);
  }
  return ops;
}

// Each of `count` histories that `make` gives, decided by every engine of `engines`,
// must get the verdict of the brute force written here: (linearizable, refuted).
std::pair<int, int> agree_with_reference(std::uint64_t seed, bool highest_first, int count,
                                         const std::function<std::vector<RefOp>(std::mt19937_64&, int)>& make,
                                         std::initializer_list<Engine> engines) {
  std::mt19937_64 rng(seed);
  const std::string spec = highest_first ? "max-priority-queue" : "priority-queue";
  const auto model = make_model_from_spec(spec);
  std::pair<int, int> tally{0, 0};
  for (int n = 0; n < count; ++n) {
    const std::vector<RefOp> ops = make(rng, n);
    const bool expected = linearizable(ops, highest_first);
    (expected ? tally.first : tally.second)++;
    const History history = build_history(to_log(ops), *model);
    for (const Engine engine : engines) {
      const CheckResult result =
          check(history, *model, {.engine = engine, .timeout_seconds = 30, .jobs = 1, .minimal_core = false});
      INFO(spec, " history #", n, ", engine ", engine_name(engine), ": ", result.reason, "\n",
           format_events(to_log(ops), Format::edn));
      REQUIRE(result.verdict == (expected ? Verdict::linearizable : Verdict::not_linearizable));
    }
  }
  return tally;
}

}  // namespace

TEST_SUITE("models") {
  TEST_CASE("priority queues: the unique-value engine agrees with an independent brute force") {
    std::mt19937_64 rng(20261208);
    for (const bool highest_first : {false, true}) {
      const std::string spec = highest_first ? "max-priority-queue" : "priority-queue";
      const auto model = make_model_from_spec(spec);
      int linearizable_count = 0;
      int refuted = 0;
      int declined = 0;
      for (int n = 0; n < 3000; ++n) {
        const std::vector<RefOp> ops = random_unique_history(rng, 3 + n % 7);
        const bool expected = linearizable(ops, highest_first);
        const History history = build_history(to_log(ops), *model);
        const CheckResult result =
            check(history, *model, {.engine = Engine::unique, .timeout_seconds = 30, .jobs = 1, .minimal_core = false});
        INFO(spec, " history #", n, ": ", result.reason, "\n", format_events(to_log(ops), Format::edn));
        if (result.verdict == Verdict::unknown) {  // the engine may decline, saying why
          ++declined;
          continue;
        }
        (expected ? linearizable_count : refuted)++;
        REQUIRE(result.verdict == (expected ? Verdict::linearizable : Verdict::not_linearizable));
      }
      MESSAGE(spec, ": the unique engine decided ", linearizable_count, " linearizable and ", refuted,
              " not; declined ", declined);
      CHECK(linearizable_count > 500);
      CHECK(refuted > 500);
      CHECK(declined < 300);
    }
  }

  TEST_CASE("priority queues: every engine agrees with an independent brute force on random histories") {
    for (const bool highest_first : {false, true}) {
      // SAT and SMT take the direct encoding (encoder/containers.cpp), which never
      // declines: every engine must decide every history.
      const auto [linearizable_count, refuted] = agree_with_reference(
          20261207 + (highest_first ? 1U : 0U), highest_first, 1500,
          [](std::mt19937_64& rng, int n) { return random_history(rng, 3 + static_cast<std::size_t>(n % 5)); },
          {Engine::wgl, Engine::jit, Engine::brute, Engine::sat, Engine::smt});
      const std::string spec = highest_first ? "max-priority-queue" : "priority-queue";
      MESSAGE(spec, ": ", linearizable_count, " linearizable, ", refuted, " not");
      CHECK(linearizable_count > 200);
      CHECK(refuted > 200);
    }
  }

  TEST_CASE("priority queues: SAT and SMT agree with an independent brute force on repeated elements") {
    for (const bool highest_first : {false, true}) {
      const auto [linearizable_count, refuted] =
          agree_with_reference(20261209 + (highest_first ? 1U : 0U), highest_first, 1500,
                               [](std::mt19937_64& rng, int n) {
                                 return random_repeating_history(rng, 3 + static_cast<std::size_t>(n % 6));
                               },
                               {Engine::sat, Engine::smt});
      const std::string spec = highest_first ? "max-priority-queue" : "priority-queue";
      MESSAGE(spec, " with repeated elements: ", linearizable_count, " linearizable, ", refuted, " not");
      CHECK(linearizable_count > 200);
      CHECK(refuted > 200);
    }
  }
}
