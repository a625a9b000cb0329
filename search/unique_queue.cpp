// Linearizability of a FIFO queue whose enqueued values are unique, in O(n log n),
// with an explicit order or the few ops that refute it.
//
// For a complete history, Henzinger, Sezgin and Vafeiadis [HSV13: "Aspect-Oriented
// Linearizability Proofs", CONCUR 2013] show a unique-value queue history is
// linearizable iff no dequeue returns a value not enqueued before it, none twice, and
// no two values are ordered one way by their enqueues and the other by their
// dequeues; LiMo [PLDI 2025] checks that last condition as "no value's outer interval
// [enqueue's call, dequeue's return] lies inside another's inner one [enqueue's
// return, dequeue's call]" with an interval search. We decide it constructively, which
// also handles crashed dequeues:
//
// Every value x that is dequeued has an enqueue interval [ce, re] and a dequeue
// interval [cd, rd]. A linearization fixes a queue order pi on them; x must come
// before y in pi when
//   E:  re(x) < ce(y)   (x enqueued, in real time, before y),
//   D:  rd(x) < cd(y)   (x dequeued before y),
//   DE: rd(x) < ce(y)   (x dequeued before y was even enqueued).
// Conversely, for ANY order pi extending these three relations, giving each enqueue
// the point max(ce, the previous enqueue's point) + epsilon in pi order, and each
// dequeue max(cd, the previous dequeue's point, its own enqueue's point) + epsilon, puts
// every point strictly inside its op's interval (each "max" is some call that, by E, D
// or DE not holding backwards, precedes the op's return), enqueues and dequeues in pi
// order and each dequeue after its enqueue: a legal sequential queue. So the question
// is whether E + D + DE is acyclic, and Kahn's algorithm answers it without building
// the quadratic relation: y is ready when its enqueue's call precedes every unplaced
// value's min(re, rd) and its dequeue's call every unplaced value's rd, two minima kept
// in heaps. When nothing is ready, the value achieving the first minimum and the one
// achieving the second precede each other: a two-op-pair cycle, the violation.
// A value never dequeued stays in the queue forever, so every value enqueued after it
// is never dequeued either: it must come after all dequeued values in pi, which holds
// unless it was enqueued, in real time, before a dequeued one.
//
// Crashed ops (a crashed op takes effect at most once, anywhere after its call):
// - A crashed enqueue whose value no dequeue returns is dropped: its value could only
//   sit in the queue, blocking values behind it; and if a crashed dequeue took it out
//   again, removing both leaves every other op seeing the same front.
// - A crashed enqueue whose value some dequeue returns took effect: kept, re = inf.
// - A crashed dequeue (it returns nothing we know) can only usefully remove a value
//   that no completed dequeue returns (unique values: nothing else is there twice).
//   Call the values that completed enqueues (or the initial state) put in and no
//   completed dequeue takes out "stayers". A stayer enqueued in real time before a
//   dequeued value, or before another stayer that must go, MUST be removed by a
//   crashed dequeue (else it blocks that value forever): these form the set S, a
//   closure computed in one sweep. More crashed dequeues than |S| needs are dropped;
//   fewer refute. Each value of S is dequeued with interval [cd, inf) of the crashed
//   dequeue it gets. Which one: in any linearization, giving S's values the crashed
//   dequeues in call order along pi only weakens each value's D constraint (the i-th
//   earliest call is no later than the latest of those the first i values had), so
//   Kahn assigns them in that order as it places them, preferring a ready value with a
//   completed dequeue, then the ready value of S with the earliest re: an exchange
//   argument (in any valid pi, that value can swap places with the first value of S
//   after the placed prefix) shows it never paints itself into a corner. Other stayers
//   are enqueued after everything and stay.
#include "search/unique_values.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>

namespace ariadne::search {

namespace {

using models::Effect;
using Time = std::int64_t;
constexpr Time kEndless = std::numeric_limits<Time>::max();

Time call_time(const Operation& op) { return static_cast<Time>(op.call); }
Time return_time(const Operation& op) { return op.ret == kNever ? kEndless : static_cast<Time>(op.ret); }

struct QueueValue {
  std::uint32_t enqueue = kNoUniqueOp;  // kNoUniqueOp: in the initial state
  std::uint32_t dequeue = kNoUniqueOp;  // a completed dequeue, or the crashed one given
  Time ce = 0, re = 0, cd = 0, rd = kEndless;
  std::uint32_t blocker = kNoUniqueOp;  // stayers in S: the value enqueued after it that forced it out
  bool placed = false;
};

class QueueAnalysis {
 public:
  QueueAnalysis(std::span<const Operation* const> ops, const models::Semantics& semantics,
                const UniqueStopPoll& should_stop)
      : ops_(ops), semantics_(semantics), answer_(should_stop) {}

  UniqueValueAnalysis run() {
    if (classify() && pair_up() && close_stayers() && order_values()) place();
    return answer_.take();
  }

 private:
  std::string value_name(std::uint32_t v) const { return semantics_.value_name(v); }

  bool classify() {
    if (semantics_.theory != models::Theory::fifo_queue) return answer_.decline("not a fifo-queue");
    values_.assign(semantics_.value_count, {});
    enqueued_.assign(semantics_.value_count, false);
    dequeued_.assign(semantics_.value_count, false);
    initial_.assign(semantics_.value_count, false);
    // The initial elements, front first: enqueued "before time", in order.
    const Time first = -2 * static_cast<Time>(semantics_.initial.size()) - 2;
    for (std::size_t k = 0; k < semantics_.initial.size(); ++k) {
      const std::uint32_t v = semantics_.initial[k];
      if (initial_[v]) return answer_.decline("value " + value_name(v) + " is in the initial queue twice");
      initial_[v] = true;
      values_[v].ce = first + 2 * static_cast<Time>(k);
      values_[v].re = values_[v].ce + 1;
    }
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (answer_.stopping(i)) return false;
      const models::OpMeaning& m = semantics_.ops[i];
      switch (m.effect) {
        case Effect::insert: {
          QueueValue& x = values_[m.element];
          if (initial_[m.element] || enqueued_[m.element]) {
            return answer_.decline("value " + value_name(m.element) + " is enqueued twice");
          }
          enqueued_[m.element] = true;
          x.enqueue = i;
          x.ce = call_time(*ops_[i]);
          x.re = return_time(*ops_[i]);
          break;
        }
        case Effect::remove: {
          QueueValue& x = values_[m.element];
          if (dequeued_[m.element]) {
            // Refuted only once every op is seen: an enqueue of the same value called
            // later, even a crashed one, may have put it back in between (then the
            // value is not unique and the test declines above).
            if (!dequeued_twice_) dequeued_twice_ = {m.element, x.dequeue, i};
            break;
          }
          dequeued_[m.element] = true;
          x.dequeue = i;
          x.cd = call_time(*ops_[i]);
          x.rd = return_time(*ops_[i]);
          break;
        }
        case Effect::remove_any: crashed_dequeues_.push_back(i); break;  // ascending call
        case Effect::remove_empty: return answer_.empty_observation();
        default:
          if (!answer_.other(i, m, anywhere_, "not a queue op")) return false;
          break;
      }
    }
    // Enqueued at most once (crashed enqueues counted), a value leaves at most once.
    if (dequeued_twice_) {
      const auto [v, earlier, later] = *dequeued_twice_;
      return answer_.refute({values_[v].enqueue, earlier, later}, "a value dequeued twice, enqueued once");
    }
    return true;
  }

  // Sorts the values into those dequeued and the stayers; refutes a dequeue of a value
  // nobody enqueued, or one that completed before its enqueue was invoked.
  bool pair_up() {
    for (std::uint32_t v = 0; v < values_.size(); ++v) {
      if (answer_.stopping(v)) return false;
      const QueueValue& x = values_[v];
      const bool present = initial_[v] || enqueued_[v];
      if (dequeued_[v]) {
        if (!present) return answer_.refute({x.dequeue}, "a dequeue of a value nobody enqueued");
        if (x.rd < x.ce)
          return answer_.refute({x.enqueue, x.dequeue},
                                "a dequeue that completed before its value's enqueue was invoked");
        dequeued_values_.push_back(v);
      } else if (initial_[v] || (enqueued_[v] && ops_[x.enqueue]->must_take_effect())) {
        stayers_.push_back(v);
      }
    }
    return true;
  }

  // The stayers that must be taken out by crashed dequeues (S in the header): one
  // sweep by enqueue return against the latest enqueue call among values dequeued.
  bool close_stayers() {
    Time latest = std::numeric_limits<Time>::min();
    std::uint32_t latest_value = kNoUniqueOp;
    for (const std::uint32_t v : dequeued_values_) {
      if (values_[v].ce > latest) latest = values_[v].ce, latest_value = v;
    }
    std::sort(stayers_.begin(), stayers_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return values_[a].re < values_[b].re; });
    std::size_t k = 0;
    for (; k < stayers_.size() && values_[stayers_[k]].re < latest; ++k) {
      QueueValue& u = values_[stayers_[k]];
      u.blocker = latest_value;
      if (u.ce > latest) latest = u.ce, latest_value = stayers_[k];
    }
    must_go_.assign(stayers_.begin(), stayers_.begin() + static_cast<std::ptrdiff_t>(k));
    stay_.assign(stayers_.begin() + static_cast<std::ptrdiff_t>(k), stayers_.end());
    if (must_go_.size() > crashed_dequeues_.size()) {
      std::vector<std::uint32_t> ops = crashed_dequeues_;
      for (std::size_t j = 0; j <= crashed_dequeues_.size(); ++j) blocking_chain(must_go_[j], ops);
      return answer_.refute(
          std::move(ops),
          crashed_dequeues_.empty()
              ? "a value that stays in the queue, enqueued before one dequeued"
              : "more values that stay in the queue ahead of dequeued ones than crashed dequeues could take out");
    }
    return true;
  }

  // A stayer's enqueue, and the enqueues and dequeue that make it block.
  void blocking_chain(std::uint32_t v, std::vector<std::uint32_t>& ops) const {
    for (std::uint32_t at = v; at != kNoUniqueOp; at = values_[at].blocker) {
      ops.push_back(values_[at].enqueue);
      if (dequeued_[at]) {
        ops.push_back(values_[at].dequeue);
        break;
      }
    }
  }

  // Kahn's algorithm over the dequeued values and S (see the header).
  bool order_values() {
    using Keyed = std::pair<Time, std::uint32_t>;
    using MinHeap = std::priority_queue<Keyed, std::vector<Keyed>, std::greater<>>;
    MinHeap first_return, dequeue_return, ready_dequeued, ready_must_go;
    std::vector<std::uint32_t> by_enqueue_call(dequeued_values_);
    by_enqueue_call.insert(by_enqueue_call.end(), must_go_.begin(), must_go_.end());
    for (const std::uint32_t v : by_enqueue_call) {
      first_return.emplace(std::min(values_[v].re, values_[v].rd), v);
      if (dequeued_[v]) dequeue_return.emplace(values_[v].rd, v);
    }
    std::sort(by_enqueue_call.begin(), by_enqueue_call.end(),
              [&](std::uint32_t a, std::uint32_t b) { return values_[a].ce < values_[b].ce; });
    const auto drop_placed = [&](MinHeap& heap) {
      while (!heap.empty() && values_[heap.top().second].placed) heap.pop();
    };
    std::size_t next_by_call = 0;
    std::size_t crashed_given = 0;
    order_.reserve(by_enqueue_call.size());
    while (order_.size() < by_enqueue_call.size()) {
      if (answer_.stopping(order_.size())) return false;
      drop_placed(first_return);
      drop_placed(dequeue_return);
      const Time m1 = first_return.top().first;
      const Time m2 = dequeue_return.empty() ? kEndless : dequeue_return.top().first;
      for (; next_by_call < by_enqueue_call.size() && values_[by_enqueue_call[next_by_call]].ce < m1; ++next_by_call) {
        const std::uint32_t v = by_enqueue_call[next_by_call];
        if (dequeued_[v]) {
          ready_dequeued.emplace(values_[v].cd, v);
        } else {
          ready_must_go.emplace(values_[v].re, v);
        }
      }
      std::uint32_t chosen = kNoUniqueOp;
      if (!ready_dequeued.empty() && ready_dequeued.top().first < m2) {
        chosen = ready_dequeued.top().second;
        ready_dequeued.pop();
      } else if (!ready_must_go.empty() && call_time(*ops_[crashed_dequeues_[crashed_given]]) < m2) {
        chosen = ready_must_go.top().second;
        ready_must_go.pop();
        QueueValue& u = values_[chosen];
        u.dequeue = crashed_dequeues_[crashed_given++];
        u.cd = call_time(*ops_[u.dequeue]);
      }
      if (chosen == kNoUniqueOp) return refute_cycle(first_return.top().second, dequeue_return.top().second);
      values_[chosen].placed = true;
      order_.push_back(chosen);
    }
    return true;
  }

  // Nothing is ready: a, achieving min(re, rd), must precede b, achieving rd, and b
  // must precede a (see the header).
  bool refute_cycle(std::uint32_t a, std::uint32_t b) {
    std::vector<std::uint32_t> ops;
    for (const std::uint32_t v : {a, b}) {
      if (dequeued_[v]) {
        ops.push_back(values_[v].enqueue);
        ops.push_back(values_[v].dequeue);
      } else {
        // A value of S with its next crashed dequeue: which one it gets depends on
        // the others of S, so all of them and their reasons come along.
        ops.insert(ops.end(), crashed_dequeues_.begin(), crashed_dequeues_.end());
        for (const std::uint32_t u : must_go_) blocking_chain(u, ops);
      }
    }
    return answer_.refute(std::move(ops), "two values whose enqueues and dequeues each need the other first");
  }

  // The points of the header's construction, in pi order; sorted, they are the order.
  void place() {
    // (base, enqueue 0 / dequeue 1 / anything 2, position in pi, op)
    std::vector<std::tuple<Time, std::uint8_t, std::uint32_t, std::uint32_t>> points;
    Time enqueue_base = std::numeric_limits<Time>::min();
    Time dequeue_base = std::numeric_limits<Time>::min();
    std::sort(stay_.begin(), stay_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return values_[a].ce < values_[b].ce; });
    order_.insert(order_.end(), stay_.begin(), stay_.end());
    for (std::uint32_t k = 0; k < order_.size(); ++k) {
      const QueueValue& x = values_[order_[k]];
      enqueue_base = std::max(enqueue_base, x.ce);
      if (!(enqueue_base < x.re)) {
        answer_.decline("internal: an enqueue placed after its return");  // the header's argument failed
        return;
      }
      if (x.enqueue != kNoUniqueOp) points.emplace_back(enqueue_base, 0, k, x.enqueue);
      if (x.dequeue == kNoUniqueOp) continue;
      dequeue_base = std::max({dequeue_base, x.cd, enqueue_base});
      if (!(dequeue_base < x.rd)) {
        answer_.decline("internal: a dequeue placed after its return");
        return;
      }
      points.emplace_back(dequeue_base, 1, k, x.dequeue);
    }
    for (const std::uint32_t i : anywhere_) points.emplace_back(call_time(*ops_[i]), 2, 0, i);
    answer_.linearizable_by_points(std::move(points));
  }

  std::span<const Operation* const> ops_;
  const models::Semantics& semantics_;
  UniqueAnswer answer_;
  std::vector<QueueValue> values_;  // per value id
  std::vector<bool> enqueued_, dequeued_, initial_;
  std::optional<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> dequeued_twice_;  // value, two dequeues
  std::vector<std::uint32_t> crashed_dequeues_;                                            // ascending call
  std::vector<std::uint32_t> anywhere_;  // completed ops that observe and change nothing
  std::vector<std::uint32_t> dequeued_values_, stayers_, must_go_, stay_;
  std::vector<std::uint32_t> order_;  // pi
};

}  // namespace

UniqueValueAnalysis analyse_unique_queue(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                         const UniqueStopPoll& should_stop) {
  return QueueAnalysis(ops, semantics, should_stop).run();
}

}  // namespace ariadne::search
