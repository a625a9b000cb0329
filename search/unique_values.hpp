// The unique-value engine family: for histories in which every value is written,
// enqueued, pushed or added once, the literature decides linearizability in
// polynomial, mostly near-linear time, where a general search is exponential. One
// file per object kind, each citing its paper and arguing for its crashed ops:
//
//   unique_register.cpp  register, cas-register, Gibbons and Korach 1997, extended
//                        etcd, each key of kv    to compare-and-set chains
//   unique_queue.cpp     fifo-queue              Henzinger et al. 2013; LiMo 2025
//   unique_stack.cpp     stack                   Lee and Mathur 2025; LiMo 2025
//   unique_set.cpp       set (grow-only)         LiMo 2025
//   unique_bag.cpp       unordered-queue (with an empty observation: unique_priority_queue.cpp)
//   unique_priority_queue.cpp
//                        priority-queue,         Lee and Mathur 2025
//                        max-priority-queue
//
// Each decides, with an explicit order (replayed by the certificate checker, as every
// engine's) or the few ops of the violated condition (which seed the minimal core:
// refute/minimal_core.cpp), or declines at once with a reason; it never guesses.
#pragma once

#include <ariadne/history.hpp>

#include "models/semantics.hpp"
#include "search/search_engine.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace ariadne::search {

struct UniqueValueAnalysis {
  enum class Answer : std::uint8_t { linearizable, not_linearizable, declined, stopped };
  Answer answer = Answer::declined;
  // linearizable: indices into the ops analysed, in order (dropped crashed ops left
  // out).
  std::vector<std::uint32_t> order;
  // not_linearizable: the ops of the violated condition (indices, ascending), a
  // small set that is not linearizable by itself; `why` says which condition.
  std::vector<std::uint32_t> violation;
  std::string why;  // also the reason for declining
};

// Each test takes `ops` in ascending call order (one partition) and `semantics`, their
// meaning; with `should_stop`, polled every few thousand ops, it answers `stopped`
// once that says so.
using UniqueStopPoll = std::function<bool()>;
UniqueValueAnalysis analyse_unique_register(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                            const UniqueStopPoll& should_stop = {});
UniqueValueAnalysis analyse_unique_queue(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                         const UniqueStopPoll& should_stop = {});
UniqueValueAnalysis analyse_unique_stack(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                         const UniqueStopPoll& should_stop = {});
UniqueValueAnalysis analyse_unique_set(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                       const UniqueStopPoll& should_stop = {});
UniqueValueAnalysis analyse_unique_bag(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                       const UniqueStopPoll& should_stop = {});
// The order in which a priority queue's elements must go in, beside their priorities:
// any; or that of their urgencies, highest first (a FIFO queue's, given made priorities,
// the first in the first out) or lowest first (a stack's, the last in the first out).
enum class InsertionOrder : std::uint8_t { any, highest_first, lowest_first };
UniqueValueAnalysis analyse_unique_priority_queue(std::span<const Operation* const> ops,
                                                  const models::Semantics& semantics,
                                                  const UniqueStopPoll& should_stop = {},
                                                  InsertionOrder insertion = InsertionOrder::any);

// Whether some op found the container empty (Effect::remove_empty).
bool has_empty_observation(const models::Semantics& semantics);

// A FIFO queue's or a stack's history that its own test `declined` for an empty
// observation, refuted or ordered where that can be had cheaply
// (unique_empty_observations.cpp); any other answer is returned as it is.
UniqueValueAnalysis with_empty_observations(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                            const UniqueStopPoll& should_stop, UniqueValueAnalysis declined);

// The test for the semantics' object kind, or a decline naming the kind none covers.
UniqueValueAnalysis analyse_unique_values(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                          const UniqueStopPoll& should_stop = {});

// What the unique engine (make_unique_values) concludes on `ops` under `model`: the
// test for its object kind, and with `tests` asking for them (not unique_values), on a
// register history the test declined or cannot take, its first stale read.
UniqueValueAnalysis analyse_as_unique_engine(std::span<const Operation* const> ops, const Model& model,
                                             UniqueTests tests, const UniqueStopPoll& should_stop = {});

// What every test does with its answer: the plumbing shared by the files above.
class UniqueAnswer {
 public:
  explicit UniqueAnswer(const UniqueStopPoll& should_stop) : should_stop_(should_stop) {}

  // Polled with a running count: asks should_stop every 4,096 (a million-op history
  // takes a test well under a second, so this answers a limit within a millisecond).
  bool stopping(std::uint64_t i) {
    if ((i & 4095) != 0 || !should_stop_ || !should_stop_()) return false;
    result_.answer = UniqueValueAnalysis::Answer::stopped;
    result_.why = "stopped";
    return true;
  }
  // Both return false, so a step can `return decline(...)`.
  bool decline(std::string why) {
    result_.answer = UniqueValueAnalysis::Answer::declined;
    result_.why = std::move(why);
    return false;
  }
  bool refute(std::vector<std::uint32_t> ops, std::string why);
  // An op that changes and observes nothing (Effect::none, a :fail) may go anywhere
  // in its interval, but a completed one must be in the order: it joins `anywhere`.
  // One that cannot take effect with its result (Effect::impossible) refutes the
  // history if it completed. Returns false once refuted.
  bool inert(std::uint32_t op, const models::OpMeaning& meaning, std::vector<std::uint32_t>& anywhere) {
    if (!meaning.must_take_effect) return true;
    if (meaning.effect == models::Effect::impossible) {
      return refute({op}, "an op that cannot take effect with its result");
    }
    anywhere.push_back(op);
    return true;
  }
  // An op that none of a test's own cases took: an inert one (no effect, or one that
  // cannot take effect) goes by inert(); any other effect is not of the test's kind of
  // history, which it declines, saying `why_not` ("not a queue op").
  bool other(std::uint32_t op, const models::OpMeaning& meaning, std::vector<std::uint32_t>& anywhere,
             const std::string& why_not) {
    if (meaning.effect == models::Effect::none || meaning.effect == models::Effect::impossible) {
      return inert(op, meaning, anywhere);
    }
    return decline(why_not);
  }
  // A removal that found the container empty (Effect::remove_empty). The FIFO
  // queue's and the stack's tests do not take one: each places every op at a point of
  // its own choosing (unique_queue.cpp's pi order, unique_stack.cpp's segments), and
  // an observation of emptiness asks of that point that every value enqueued or
  // pushed before it, crashed inserts that some removal returns included, be removed
  // before it too. Whether such a point exists for every observation at once is a
  // question about all the other points together (the conditions on it are not the
  // pairwise ones the tests check), so a test that met one would have to guess; it
  // declines instead, and unique_empty_observations.cpp tries other ways, else the
  // search engines and encodings decide. (The unordered queue's and the priority
  // queue's sweep, unique_priority_queue.cpp, takes them.)
  bool empty_observation() {
    return decline(
        "a removal found the container empty (:empty), which the queue's and the stack's unique-value tests do not "
        "cover");
  }
  void linearizable(std::vector<std::uint32_t> order) {
    result_.answer = UniqueValueAnalysis::Answer::linearizable;
    result_.order = std::move(order);
  }
  // The order of `points`, tuples whose last element is the op, sorted: each test
  // gives every op a point inside its interval, ties broken by the fields before.
  template <class Point>
  void linearizable_by_points(std::vector<Point> points) {
    std::sort(points.begin(), points.end());
    std::vector<std::uint32_t> order;
    order.reserve(points.size());
    for (const Point& point : points) order.push_back(std::get<std::tuple_size_v<Point> - 1>(point));
    linearizable(std::move(order));
  }
  UniqueValueAnalysis take() { return std::move(result_); }

 private:
  const UniqueStopPoll& should_stop_;
  UniqueValueAnalysis result_;
};

inline constexpr std::uint32_t kNoUniqueOp = 0xffffffffu;

}  // namespace ariadne::search
