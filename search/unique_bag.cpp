// Linearizability of an unordered queue (a multiset: Knossos' unordered-queue) whose
// enqueued values are unique, in O(n log n).
//
// With each value enqueued once, the queue's state is a set, and a completed
// dequeue of x is legal exactly when x's enqueue went before it: nothing else
// constrains it (an :fail on an empty queue never happened; a dequeue that returned
// :empty does constrain the others, and such histories go to the priority queue's
// sweep instead, every element of one priority: unique_values.cpp, and
// unique_priority_queue.cpp). So the history is linearizable iff every
// dequeue returns a value enqueued (or initially present), no value is dequeued
// twice, and no dequeue completes before its value's enqueue is invoked. The order:
// each enqueue at its call + epsilon, each dequeue at max(its call, its enqueue's
// call) + 2 epsilon, both strictly inside their intervals (the dequeue returns
// after both calls), the dequeue after its enqueue.
//
// Crashed ops: a crashed enqueue nobody dequeues is dropped (its value would only sit
// there); one somebody dequeues took effect, and stays with no completion. A crashed
// dequeue is dropped: it could only remove a value no completed dequeue returns, and a
// value's presence blocks nothing in a bag, so leaving it there keeps every other op
// legal.
#include "search/unique_values.hpp"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

namespace ariadne::search {

namespace {

using models::Effect;

class BagAnalysis {
 public:
  BagAnalysis(std::span<const Operation* const> ops, const models::Semantics& semantics,
              const UniqueStopPoll& should_stop)
      : ops_(ops), semantics_(semantics), answer_(should_stop) {}

  UniqueValueAnalysis run() {
    if (classify()) place();
    return answer_.take();
  }

 private:
  std::string value_name(std::uint32_t v) const { return semantics_.value_name(v); }

  bool classify() {
    if (semantics_.theory != models::Theory::unordered_queue) return answer_.decline("not an unordered-queue");
    enqueue_.assign(semantics_.value_count, kNoUniqueOp);
    dequeue_.assign(semantics_.value_count, kNoUniqueOp);
    initial_.assign(semantics_.value_count, false);
    for (const std::uint32_t v : semantics_.initial) {
      if (initial_[v]) return answer_.decline("value " + value_name(v) + " is in the initial queue twice");
      initial_[v] = true;
    }
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (answer_.stopping(i)) return false;
      const models::OpMeaning& m = semantics_.ops[i];
      switch (m.effect) {
        case Effect::insert:
          if (initial_[m.element] || enqueue_[m.element] != kNoUniqueOp) {
            return answer_.decline("value " + value_name(m.element) + " is enqueued twice");
          }
          enqueue_[m.element] = i;
          break;
        case Effect::remove:
          if (dequeue_[m.element] != kNoUniqueOp) {
            // Refuted once every op is seen: a later enqueue of the value, even a
            // crashed one, makes it not unique (declined above).
            if (!dequeued_twice_) dequeued_twice_ = {m.element, i};
            break;
          }
          dequeue_[m.element] = i;
          break;
        case Effect::remove_any: break;  // dropped: see the header
        case Effect::remove_empty: return answer_.empty_observation();
        default:
          if (!answer_.other(i, m, anywhere_, "not a queue op")) return false;
          break;
      }
    }
    // Enqueued at most once (crashed enqueues counted), a value leaves at most once.
    if (dequeued_twice_) {
      const auto [v, second] = *dequeued_twice_;
      return answer_.refute({enqueue_[v], dequeue_[v], second}, "a value dequeued twice, enqueued once");
    }
    return true;
  }

  void place() {
    // (base, enqueue 0 / dequeue 1, op)
    std::vector<std::tuple<std::uint64_t, std::uint8_t, std::uint32_t>> points;
    for (std::uint32_t v = 0; v < enqueue_.size(); ++v) {
      if (answer_.stopping(v)) return;
      const std::uint32_t e = enqueue_[v];
      const std::uint32_t d = dequeue_[v];
      if (d == kNoUniqueOp) {
        if (e != kNoUniqueOp && ops_[e]->must_take_effect()) points.emplace_back(ops_[e]->call, 0, e);
        continue;
      }
      if (e == kNoUniqueOp && !initial_[v]) {
        answer_.refute({d}, "a dequeue of a value nobody enqueued");
        return;
      }
      if (e == kNoUniqueOp) {
        points.emplace_back(ops_[d]->call, 1, d);
        continue;
      }
      if (ops_[d]->ret < ops_[e]->call) {
        answer_.refute({e, d}, "a dequeue that completed before its value's enqueue was invoked");
        return;
      }
      points.emplace_back(ops_[e]->call, 0, e);
      points.emplace_back(std::max(ops_[d]->call, ops_[e]->call), 1, d);
    }
    for (const std::uint32_t i : anywhere_) points.emplace_back(ops_[i]->call, 0, i);
    answer_.linearizable_by_points(std::move(points));
  }

  std::span<const Operation* const> ops_;
  const models::Semantics& semantics_;
  UniqueAnswer answer_;
  std::vector<std::uint32_t> enqueue_, dequeue_;  // per value id
  std::vector<bool> initial_;
  std::vector<std::uint32_t> anywhere_;  // completed ops that observe and change nothing
  std::optional<std::pair<std::uint32_t, std::uint32_t>> dequeued_twice_;  // value, its second dequeue
};

}  // namespace

UniqueValueAnalysis analyse_unique_bag(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                       const UniqueStopPoll& should_stop) {
  return BagAnalysis(ops, semantics, should_stop).run();
}

}  // namespace ariadne::search
