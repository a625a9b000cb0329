// Linearizability of a priority queue whose inserted elements are unique, in
// O(n log n), with an explicit order or the ops of a proof that none exists. Equal
// priorities are allowed (any element of the top priority may go first), so an
// unordered queue is one too, every element of one priority: its test (unique_bag.cpp)
// hands the histories with an empty observation over to this one.
//
// The refutation is the condition of [LeeMathur25: Z. H. Lee and U. Mathur,
// "Efficient Decrease-And-Conquer Linearizability Monitoring", OOPSLA 2025] for
// priority queues, in its interval form: a value whose insert returns at r and whose
// poll is invoked at c is in the queue throughout (r, c) in every linearization, its
// *held span*. A poll or peek of w can take effect only where no value of higher
// priority is held, an empty observation only where none is; one whose whole
// interval (from its value's insert's call on) is covered by such spans refutes the
// history. We decide constructively instead, read that condition off the
// construction where it fails, and extend it to peeks, empty observations and
// crashed ops; the arguments below are ours.
//
// The construction sweeps the events in time order and decides, between each event
// and the next, which ops take effect there, each once and inside its interval, so
// the order it lists them in respects real time. It keeps the queue's contents and
// applies, until none applies:
//   0. the top value's invoked peeks take effect;
//   1. the top value's completed poll, once invoked and once every peek of the value
//      has taken effect, takes effect;
//   2. a value whose insert, completed poll and every peek have been invoked, and
//      whose insert has not taken effect, is inserted, peeked and polled at once if it
//      would be the top (the highest such first);
//   3. if the top value will never be polled by a completed poll (a *stayer*: a crashed
//      poll took it, or nothing did) and has no peek left, some invoked poll, peek or
//      empty observation waits below it, and an invoked crashed poll is unused, that
//      crashed poll takes the top out; among equal priorities, only once every value
//      of the top priority is a stayer, and at most kMostTiedStayers of them. The
//      certificate checker replays a crashed poll with every top value it might have
//      taken: with only stayers there, which all go before what waits below them, those
//      branches meet again once they are gone, and g of them branch into at most
//      C(g, g/2) states on the way, within what the checker tracks;
//   4. with the queue empty, every invoked empty observation takes effect.
// Inserts otherwise take effect at their return, as late as they can: a value in the
// queue only ever stops other ops. Rules 0, 1, 2 and 4 never lose a linearization: an
// observation changes nothing, and taking a value out as soon as it is the top and
// nothing of its own is left to see it leaves every later state a subset of what it
// would have been, which keeps every later poll's and peek's value at the top and
// every observation of emptiness true (values are unique: no other op needs it).
// Two more moves put a peeked value in before its insert returns, when its peek
// would otherwise have no place left: at the peek's own return, if it would be the
// top; and just before a higher value's insert takes effect, if from then until the
// peek returns some higher value is surely in the queue (peek_before()): the values
// put in there with it count among those, so they are decided from the highest down.
//
// Rule 3 and the early inserts are choices: a crashed poll spent now may be the one a
// later stayer needed, and a value put in early may stand in another op's way. A
// sweep stuck without a proof (below) after spending a crashed poll is run again
// spending them late instead: rule 3 then applies only when a waiting op returns
// with no other place left, for the stayers in the way of every op waiting then.
// Either way the sweep's answers are trusted only as far as they prove themselves:
//   - Linearizable: the order is replayed by the certificate checker, as every
//     engine's.
//   - A completed op still waiting at its return has no place left in the sweep, and
//     the history is refuted only by held spans that cover its interval: of values
//     with a completed poll, from the first return among their insert and peeks to
//     the last call among their poll and peeks; and of stayers, which only a crashed
//     poll can take out, until the first crashed poll is invoked (or their last peek,
//     if later). Every point of the interval lies in such a span in every
//     linearization, so the op has no place in any. The ops of the spans, with the
//     waiting op and its value's insert, refute the history by themselves with every
//     other op relaxed (refute/relaxed_history.hpp: a relaxed op may take effect
//     anywhere, or never): a relaxed poll is a crashed poll of any result, which cannot
//     take a value whose completed poll or peek comes later (values are unique), so
//     those spans stay held. A stayer's span needs more: any relaxed poll could take
//     it out at once, so with a stayer's span the proof names every op but the
//     inserts, as recorded. Where no cover exists, the test declines rather than guess.
//   - A completed poll or peek of a value nobody inserted, two completed polls of one
//     value, a poll or peek that returned before its value's insert was invoked, or a
//     peek invoked after its value's poll returned are refuted before the sweep, by
//     the ops named.
//
// Crashed ops: an insert whose value no completed poll or peek sees is dropped (in a
// queue it would only stop others; a crashed poll that took it out is dropped with
// it, which leaves every other op the same top, the value being below or gone); one
// whose value some completed op sees took effect, and its interval never closes. A
// crashed poll takes effect only by rule 3, or never. A crashed peek changes nothing
// and is dropped.
//
// "The top value" here is any value of the top priority, and "higher" strictly higher.
//
// Declined: a value inserted twice, and the stuck ops above.
#include "search/unique_values.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <tuple>
#include <utility>

namespace ariadne::search {

namespace {

using models::Effect;

// Positions in the sweep's sequence of events; a value's insert is "before every
// event" when the value is initially in the queue, a crashed op's return after them.
using Position = std::int64_t;
constexpr Position kBeforeAll = -1;
constexpr Position kAfterAll = std::numeric_limits<Position>::max();

enum class State : std::uint8_t { absent, present, gone };

// Rule 3 (the header) takes out at most this many stayers of one priority at once:
// the certificate checker then tracks at most C(16, 8) = 12,870 states, within its
// 65,536.
constexpr std::int64_t kMostTiedStayers = 16;

// A value of the queue, by its value id.
struct PqValue {
  std::uint32_t insert = kNoUniqueOp;  // kNoUniqueOp: in the initial state
  std::uint32_t poll = kNoUniqueOp;    // the completed poll that returned it
  std::int64_t urgency = 0;
  bool known = false;  // inserted or initially present
  bool insert_invoked = false;
  bool poll_waiting = false;  // its completed poll has been invoked and not taken effect
  State state = State::absent;
  std::uint32_t peeks_left = 0;            // completed peeks that have not taken effect
  std::vector<std::uint32_t> peeking;      // those of them invoked
  std::uint64_t last_peek_call = 0;        // of its completed peeks
  std::uint32_t last_peek = kNoUniqueOp;   // its completed peek invoked last
  std::uint32_t first_peek = kNoUniqueOp;  // its completed peek that returned first
};

struct SweepEvent {
  std::uint64_t time;
  bool is_return;
  std::uint32_t op;
  auto operator<=>(const SweepEvent&) const = default;
};

// When rule 3 spends crashed polls: as soon as a stayer is in some waiting op's way,
// or only when a waiting op returns and has no other place left.
enum class Spending : std::uint8_t { early, late };

class PriorityQueueAnalysis {
 public:
  PriorityQueueAnalysis(std::span<const Operation* const> ops, const models::Semantics& semantics,
                        const UniqueStopPoll& should_stop, Spending spending, InsertionOrder insertion)
      : ops_(ops),
        semantics_(semantics),
        answer_(should_stop),
        late_(spending == Spending::late),
        insertion_(insertion) {}

  UniqueValueAnalysis run() {
    if (classify() && plain_refutations()) sweep();
    return answer_.take();
  }

  // Whether the sweep got stuck without a proof after spending a crashed poll: another
  // way of spending them may get through.
  bool stuck_after_spending() const { return stuck_without_proof_ && spent_; }

 private:
  using Ranked = std::pair<std::int64_t, std::uint32_t>;  // (urgency, value)

  std::string value_name(std::uint32_t v) const { return semantics_.value_name(v); }

  bool classify() {
    // An unordered queue is a priority queue whose elements share one priority.
    if (semantics_.theory != models::Theory::priority_queue && semantics_.theory != models::Theory::unordered_queue) {
      return answer_.decline("not a priority queue");
    }
    values_.assign(semantics_.value_count, PqValue{});
    for (std::size_t k = 0; k < semantics_.initial.size(); ++k) {
      PqValue& value = values_[semantics_.initial[k]];
      if (value.known) return answer_.decline("value " + value_name(semantics_.initial[k]) + " is inserted twice");
      value.known = true;
      value.urgency = semantics_.initial_urgency.empty() ? 0 : semantics_.initial_urgency[k];
      value.state = State::present;
    }
    kept_.assign(ops_.size(), false);
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (answer_.stopping(i)) return false;
      const models::OpMeaning& m = semantics_.ops[i];
      switch (m.effect) {
        case Effect::insert: {
          PqValue& value = values_[m.element];
          if (value.known) return answer_.decline("value " + value_name(m.element) + " is inserted twice");
          value.known = true;
          value.insert = i;
          value.urgency = m.urgency;
          break;
        }
        case Effect::remove: {
          PqValue& value = values_[m.element];
          if (value.poll != kNoUniqueOp) {
            if (!polled_twice_) polled_twice_ = {m.element, i};
            break;
          }
          value.poll = i;
          kept_[i] = true;
          break;
        }
        case Effect::remove_any:
          kept_[i] = true;
          crashed_polls_.push_back(i);
          break;
        case Effect::remove_empty: kept_[i] = true; break;
        case Effect::peek: {
          PqValue& value = values_[m.element];
          ++value.peeks_left;
          value.last_peek_call = ops_[i]->call;  // ops ascend by call
          value.last_peek = i;
          if (value.first_peek == kNoUniqueOp || ops_[i]->ret < ops_[value.first_peek]->ret) value.first_peek = i;
          kept_[i] = true;
          break;
        }
        default:
          if (!answer_.other(i, m, anywhere_, "not a priority-queue op")) return false;
          break;
      }
    }
    for (const std::uint32_t i : anywhere_) kept_[i] = true;
    // An insert takes part when it completed or a completed poll or peek saw its value.
    for (const PqValue& value : values_) {
      if (value.insert == kNoUniqueOp) continue;
      if (ops_[value.insert]->must_take_effect() || value.poll != kNoUniqueOp || value.peeks_left > 0) {
        kept_[value.insert] = true;
      }
    }
    return true;
  }

  bool plain_refutations() {
    if (polled_twice_) {
      const auto [v, second] = *polled_twice_;
      return answer_.refute({values_[v].insert, values_[v].poll, second}, "a value polled twice, inserted once");
    }
    for (std::uint32_t v = 0; v < values_.size(); ++v) {
      if (answer_.stopping(v)) return false;
      const PqValue& value = values_[v];
      if (value.poll != kNoUniqueOp) {
        if (!value.known) return answer_.refute({value.poll}, "a poll of a value nobody inserted");
        if (value.insert != kNoUniqueOp && ops_[value.poll]->ret < ops_[value.insert]->call) {
          return answer_.refute({value.insert, value.poll},
                                "a poll that completed before its value's insert was invoked");
        }
      }
    }
    // A peek must come after its value's insert and before its poll.
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (answer_.stopping(i)) return false;
      if (semantics_.ops[i].effect != Effect::peek) continue;
      const PqValue& value = values_[semantics_.ops[i].element];
      if (!value.known) return answer_.refute({i}, "a peek of a value nobody inserted");
      if (value.insert != kNoUniqueOp && ops_[i]->ret < ops_[value.insert]->call) {
        return answer_.refute({value.insert, i}, "a peek that completed before its value's insert was invoked");
      }
      if (value.poll != kNoUniqueOp && ops_[value.poll]->ret < ops_[i]->call) {
        return answer_.refute({value.poll, i}, "a peek invoked after its value's poll completed");
      }
    }
    return true;
  }

  // The events of the ops taking part, in time order: calls come in the ops' order
  // (ascending call), returns sorted, merged.
  void order_events() {
    std::vector<SweepEvent> returns;
    std::size_t calls = 0;
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (!kept_[i]) continue;
      ++calls;
      if (ops_[i]->ret != kNever) returns.push_back({ops_[i]->ret, true, i});
    }
    std::ranges::sort(returns);
    events_.reserve(calls + returns.size());
    std::size_t r = 0;
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (!kept_[i]) continue;
      const SweepEvent call{ops_[i]->call, false, i};
      while (r < returns.size() && returns[r] < call) events_.push_back(returns[r++]);
      events_.push_back(call);
    }
    events_.insert(events_.end(), returns.begin() + static_cast<std::ptrdiff_t>(r), returns.end());
  }

  void sweep() {
    order_events();
    for (std::uint32_t v = 0; v < values_.size(); ++v) {
      if (values_[v].state != State::present) continue;
      present_.emplace(values_[v].urgency, v);
      count_present(v, 1);
      note_present(v);
    }
    order_.reserve(events_.size());
    waiting_.assign(ops_.size(), false);
    for (std::size_t k = 0; k < events_.size(); ++k) {
      if (answer_.stopping(k)) return;
      const SweepEvent& event = events_[k];
      const models::OpMeaning& m = semantics_.ops[event.op];
      if (!event.is_return) {
        invoke(event.op, m);
      } else if (!complete(event.op, m, k)) {
        return;
      }
      settle();
    }
    answer_.linearizable(std::move(order_));
  }

  void invoke(std::uint32_t op, const models::OpMeaning& m) {
    switch (m.effect) {
      case Effect::insert: {
        PqValue& value = values_[m.element];
        value.insert_invoked = true;
        if (is_pairable(m.element)) pairable_.emplace(value.urgency, m.element);
        if (!value.peeking.empty()) peekable_.emplace(value.urgency, m.element);
        if (insertion_ != InsertionOrder::any && value.state == State::absent) {
          going_in_.emplace(value.urgency, m.element);
        }
        break;
      }
      case Effect::remove: {
        PqValue& value = values_[m.element];
        value.poll_waiting = true;
        waiting_[op] = true;
        waiting_below_.emplace(value.urgency, op);
        if (is_pairable(m.element)) pairable_.emplace(value.urgency, m.element);
        note_present(m.element);
        break;
      }
      case Effect::peek: {
        PqValue& value = values_[m.element];
        value.peeking.push_back(op);
        waiting_[op] = true;
        waiting_below_.emplace(value.urgency, op);
        if (is_pairable(m.element)) pairable_.emplace(value.urgency, m.element);
        if (value.state == State::absent && value.insert_invoked) peekable_.emplace(value.urgency, m.element);
        note_present(m.element);
        break;
      }
      case Effect::remove_any: unused_crashed_polls_.push_back(op); break;
      case Effect::remove_empty:
        waiting_empties_.push_back(op);
        waiting_[op] = true;
        break;
      default: order_.push_back(op); break;  // changes and observes nothing: here
    }
  }

  // The return of `op`, the k-th event: false once the history is refuted or declined.
  bool complete(std::uint32_t op, const models::OpMeaning& m, std::size_t k) {
    switch (m.effect) {
      case Effect::insert: {
        if (values_[m.element].state == State::absent) {
          peek_before(m.element, k);
          put_in(m.element);
        }
        return true;
      }
      case Effect::remove:
        if (!values_[m.element].poll_waiting || rescued(op)) return true;
        return stuck(op, m.element, k);
      case Effect::remove_empty:
        if (!waiting_[op] || rescued(op)) return true;
        return stuck(op, kNoUniqueOp, k);
      case Effect::peek: {
        if (!waiting_[op] || rescued(op)) return true;
        // Its last chance: inserted now, if it would be the top, it is peeked at once
        // (settle()); as late as the peek allows, so the least time in the queue.
        PqValue& value = values_[m.element];
        const auto [urgency, u] = top();
        if (value.state != State::absent || !value.insert_invoked || (u != kNoUniqueOp && urgency > value.urgency)) {
          return stuck(op, m.element, k);
        }
        peek_before(m.element, k);
        put_in(m.element);
        return true;
      }
      default: return true;
    }
  }

  // The top urgency and a value of it, or kNoUniqueOp on an empty queue. Values leave
  // present_ lazily: any of the top urgency's may go first.
  Ranked top() {
    while (!present_.empty() && values_[present_.top().second].state != State::present) present_.pop();
    return present_.empty() ? Ranked{0, kNoUniqueOp} : present_.top();
  }

  // The top of `heap` after dropping the entries `valid` no longer holds for, or
  // kNoUniqueOp.
  template <class Valid>
  static Ranked first_valid(std::priority_queue<Ranked>& heap, Valid valid) {
    while (!heap.empty() && !valid(heap.top().second)) heap.pop();
    return heap.empty() ? Ranked{0, kNoUniqueOp} : heap.top();
  }
  bool has_work(std::uint32_t v) const {
    const PqValue& value = values_[v];
    return value.state == State::present && (!value.peeking.empty() || (value.poll_waiting && value.peeks_left == 0));
  }
  bool is_stayer(std::uint32_t v) const {
    const PqValue& value = values_[v];
    return value.state == State::present && value.poll == kNoUniqueOp && value.peeks_left == 0;
  }

  // Spending late: at a waiting op's return, crashed polls take out the stayers in the
  // way of the waiting ops (rule 3), and the rules go on from there. Whether `op` then
  // took effect.
  bool rescued(std::uint32_t op) {
    if (!late_ || unused_crashed_polls_.empty()) return false;
    spend_now_ = true;
    settle();
    spend_now_ = false;
    return !waiting_[op];
  }

  void settle() {
    for (;;) {
      const auto [urgency, u] = top();
      // Rules 0 and 1: a value of the top urgency with peeks or its poll to take effect.
      const auto [ready_urgency, r] = first_valid(ready_, [this](std::uint32_t v) { return has_work(v); });
      if (r != kNoUniqueOp && ready_urgency == urgency) {
        if (!values_[r].peeking.empty()) {
          take_peeks(r);
        } else {
          take_out(r, values_[r].poll);
        }
        continue;
      }
      const auto [pair_urgency, p] = first_valid(pairable_, [this](std::uint32_t v) { return is_pairable(v); });
      if (p != kNoUniqueOp && (u == kNoUniqueOp || pair_urgency >= urgency) &&
          (insertion_ != InsertionOrder::highest_first || first_going_in_before(p) == kNoUniqueOp)) {  // rule 2
        // (Lowest first, the values to go in before p do, and p stays the top.)
        pull_in_before(p);
        going_in_.erase({values_[p].urgency, p});
        order_.push_back(values_[p].insert);
        peekable_.erase({values_[p].urgency, p});
        take_peeks(p);
        take_out(p, values_[p].poll);
        continue;
      }
      while (!waiting_below_.empty() && !waiting_[waiting_below_.top().second]) waiting_below_.pop();
      const bool wait_below =
          !waiting_empties_.empty() || (!waiting_below_.empty() && waiting_below_.top().first < urgency);
      const auto [stayer_urgency, st] = first_valid(stayers_, [this](std::uint32_t v) { return is_stayer(v); });
      if ((!late_ || spend_now_) && st != kNoUniqueOp && stayer_urgency == urgency && wait_below &&
          !unused_crashed_polls_.empty() && only_stayers_at(urgency)) {  // rule 3
        spent_ = true;
        take_out(st, unused_crashed_polls_.back());
        unused_crashed_polls_.pop_back();
        continue;
      }
      if (u == kNoUniqueOp && !waiting_empties_.empty()) {  // rule 4
        for (const std::uint32_t o : waiting_empties_) waiting_[o] = false;
        order_.insert(order_.end(), waiting_empties_.begin(), waiting_empties_.end());
        waiting_empties_.clear();
      }
      return;
    }
  }

  bool is_pairable(std::uint32_t v) const {
    const PqValue& value = values_[v];
    return value.state == State::absent && value.insert_invoked && value.poll_waiting &&
           value.peeking.size() == value.peeks_left;
  }

  // With an insertion order, the invoked values to go in before v, absent still: the
  // first of them, or kNoUniqueOp.
  std::uint32_t first_going_in_before(std::uint32_t v) const {
    if (going_in_.empty()) return kNoUniqueOp;
    const std::int64_t urgency = values_[v].urgency;
    const Ranked next = insertion_ == InsertionOrder::highest_first ? *going_in_.rbegin() : *going_in_.begin();
    const bool before = insertion_ == InsertionOrder::highest_first ? next.first > urgency : next.first < urgency;
    return before ? next.second : kNoUniqueOp;
  }
  void pull_in_before(std::uint32_t v) {
    for (std::uint32_t w = first_going_in_before(v); w != kNoUniqueOp; w = first_going_in_before(v)) put_in(w);
  }

  void put_in(std::uint32_t v) {
    pull_in_before(v);
    going_in_.erase({values_[v].urgency, v});
    PqValue& value = values_[v];
    value.state = State::present;
    present_.emplace(value.urgency, v);
    count_present(v, 1);
    peekable_.erase({value.urgency, v});
    order_.push_back(value.insert);
    note_present(v);
  }

  // Before value u's insert takes effect at its return, the k-th event: a lower value
  // v above the top, whose insert has been invoked and whose invoked peeks wait, is
  // inserted and peeked now when from now until the first of those peeks returns some
  // value above v is surely in the queue: u, the values above v put in now with it,
  // then those that surely go in meanwhile, each until its poll and its last peek have
  // begun. Later there would be no place for that peek. Decided from the highest such
  // value down, since each one put in now stands in the way of those below it; put in
  // lowest first, so that each is the top at its peeks.
  void peek_before(std::uint32_t u, std::size_t k) {
    const auto [urgency, t] = top();
    if (t != kNoUniqueOp && urgency >= values_[u].urgency) return;
    // (one of the top urgency, once in, is a top value too)
    const auto first = t == kNoUniqueOp ? peekable_.begin() : peekable_.lower_bound({urgency, 0});
    const auto last = peekable_.lower_bound({values_[u].urgency, 0});
    std::uint64_t held_until = leaves_from(values_[u]);
    std::vector<std::uint32_t> now;  // highest first
    for (auto it = std::make_reverse_iterator(last); it != std::make_reverse_iterator(first); ++it) {
      const std::uint32_t v = it->second;
      if (!blocked_until_peeked(v, held_until, k)) continue;
      now.push_back(v);
      held_until = std::max(held_until, leaves_from(values_[v]));
    }
    for (auto it = now.rbegin(); it != now.rend(); ++it) {
      put_in(*it);
      take_peeks(*it);
    }
  }

  // The earliest time at which `x` may leave the queue: once its poll and every peek of
  // it have begun. A value no completed poll returns leaves only if a crashed poll takes
  // it out: at once, for all this heuristic knows, while an unused one is at hand.
  std::uint64_t leaves_from(const PqValue& x) const {
    if (x.poll != kNoUniqueOp) return std::max(ops_[x.poll]->call, x.last_peek_call);
    return unused_crashed_polls_.empty() ? kNever : x.last_peek_call;
  }

  // Whether values above v are surely in the queue from the k-th event, where some are
  // held until `held_until`, until v's first invoked peek returns (the header of
  // peek_before()). A value above v surely goes in by its insert's return and by its
  // first peek's return. A scan of the events in between, cut short after kScan of
  // them (then taken as blocked: the peek goes now, which is always allowed).
  bool blocked_until_peeked(std::uint32_t v, std::uint64_t held_until, std::size_t k) const {
    constexpr std::size_t kScan = 4096;
    std::uint64_t deadline = kNever;
    for (const std::uint32_t peek : values_[v].peeking) deadline = std::min(deadline, ops_[peek]->ret);
    std::uint64_t covered = held_until;
    for (std::size_t e = k + 1; e < events_.size() && e <= k + kScan; ++e) {
      const SweepEvent& event = events_[e];
      if (covered >= deadline) return true;
      // A moment after `covered` (where the value holding it may leave) and before this
      // event, which comes before the deadline: the peek may take effect there.
      if (event.time >= deadline || covered < event.time) return false;
      if (!event.is_return) continue;
      const models::OpMeaning& m = semantics_.ops[event.op];
      if ((m.effect == Effect::insert || m.effect == Effect::peek) && values_[m.element].urgency > values_[v].urgency &&
          values_[m.element].state == State::absent) {
        covered = std::max(covered, leaves_from(values_[m.element]));
      }
    }
    return true;
  }

  // The invoked peeks of `v`, at the top.
  void take_peeks(std::uint32_t v) {
    PqValue& value = values_[v];
    for (const std::uint32_t peek : value.peeking) waiting_[peek] = false;
    order_.insert(order_.end(), value.peeking.begin(), value.peeking.end());
    value.peeks_left -= static_cast<std::uint32_t>(value.peeking.size());
    value.peeking.clear();
    note_present(v);
  }

  // A present value's candidacy for rules 0, 1 and 3, after whatever changed it.
  void note_present(std::uint32_t v) {
    if (has_work(v)) ready_.emplace(values_[v].urgency, v);
    if (is_stayer(v)) stayers_.emplace(values_[v].urgency, v);
  }

  // Present values per urgency: all of them, and those no completed poll returns. An
  // urgency none is left at leaves the maps, which so hold only the queue's contents.
  void count_present(std::uint32_t v, int change) {
    const PqValue& value = values_[v];
    adjust(present_at_, value.urgency, change);
    if (value.poll == kNoUniqueOp) adjust(without_poll_at_, value.urgency, change);
  }
  static void adjust(std::map<std::int64_t, std::int64_t>& counts, std::int64_t urgency, int change) {
    const auto it = counts.try_emplace(urgency, 0).first;
    it->second += change;
    if (it->second == 0) counts.erase(it);
  }
  bool only_stayers_at(std::int64_t urgency) const {
    const auto present = present_at_.find(urgency);
    const auto without = without_poll_at_.find(urgency);
    return present != present_at_.end() && without != without_poll_at_.end() && present->second == without->second &&
           present->second <= kMostTiedStayers;
  }

  void take_out(std::uint32_t v, std::uint32_t by) {
    PqValue& value = values_[v];
    if (value.state == State::present) count_present(v, -1);
    value.state = State::gone;
    value.poll_waiting = false;
    if (value.poll != kNoUniqueOp) waiting_[value.poll] = false;
    order_.push_back(by);
  }

  // A poll of `w` (kNoUniqueOp: an empty observation) that found no place before its
  // return, the k-th event: refuted by the held spans that cover its interval, or
  // declined (the header).
  bool stuck(std::uint32_t op, std::uint32_t w, std::size_t k) {
    std::vector<Position> call_at(ops_.size(), kAfterAll), return_at(ops_.size(), kAfterAll);
    for (std::size_t e = 0; e < events_.size(); ++e) {
      (events_[e].is_return ? return_at : call_at)[events_[e].op] = static_cast<Position>(e);
    }
    // The slots between events where the op could take effect: after slot s's event.
    Position from = call_at[op];
    if (w != kNoUniqueOp && values_[w].insert != kNoUniqueOp) from = std::max(from, call_at[values_[w].insert]);
    const auto to = static_cast<Position>(k);  // slots [from, to)
    // Held spans: a value is in the queue from its insert, which precedes its peeks, to
    // its poll, which follows them, so from the first return among its insert and peeks
    // to the last call among its poll and peeks. A value no completed poll returns
    // leaves only by a crashed poll, none of which can take it before the first is
    // invoked: it is held until then (or its last peek's call, if later). That longer
    // span needs a longer proof (below), so covers without it are tried first.
    Position first_crashed_poll = kAfterAll;
    for (const std::uint32_t c : crashed_polls_) first_crashed_poll = std::min(first_crashed_poll, call_at[c]);
    std::vector<Span> own, with_stayers;
    for (std::uint32_t u = 0; u < values_.size(); ++u) {
      const PqValue& value = values_[u];
      if (!value.known || u == w || (value.insert != kNoUniqueOp && !kept_[value.insert])) continue;
      if (w != kNoUniqueOp && value.urgency <= values_[w].urgency) continue;
      const Position until = held_until(value, call_at);
      own.push_back({held_from(value, return_at), until, u});
      with_stayers.push_back(own.back());
      if (value.poll == kNoUniqueOp) std::get<1>(with_stayers.back()) = std::max(until, first_crashed_poll);
    }
    bool stayer_held = false;
    std::optional<std::vector<std::uint32_t>> holders = cover(std::move(own), from, to);
    if (!holders) {
      holders = cover(std::move(with_stayers), from, to);
      stayer_held = true;
    }
    if (!holders) {
      stuck_without_proof_ = true;
      const std::string what =
          w == kNoUniqueOp ? "an empty observation"
                           : (semantics_.ops[op].effect == Effect::peek ? "a peek of " : "a poll of ") + value_name(w);
      return answer_.decline("op " + std::to_string(ops_[op]->id) + ", " + what +
                             ", found no place before it returned, and the values surely in its way do not cover "
                             "its interval: which crashed poll takes out which other value, and when a peeked value "
                             "goes in, are choices this test makes only where they are forced");
    }
    std::vector<std::uint32_t> proof{op};
    if (w != kNoUniqueOp) proof.push_back(values_[w].insert);
    for (const std::uint32_t u : *holders) {
      const PqValue& holder = values_[u];
      proof.insert(proof.end(), {holder.insert, holder.poll, holder.first_peek, holder.last_peek});
    }
    // A stayer's span holds with the history's crashed polls as they are. Relaxed, an
    // op may take effect anywhere, before its own call too (refute/relaxed_history.hpp),
    // and every poll or observation relaxed is a crashed poll that could take the stayer
    // out at once; so every op but the inserts joins the proof as recorded.
    if (stayer_held) {
      for (std::uint32_t i = 0; i < ops_.size(); ++i) {
        if (semantics_.ops[i].effect != Effect::insert) proof.push_back(i);
      }
    }
    const std::string why = w == kNoUniqueOp ? "an empty observation while values were surely in the queue"
                            : semantics_.ops[op].effect == Effect::peek
                                ? "a peek while a value of higher priority was surely in the queue"
                                : "a poll while a value of higher priority was surely in the queue";
    return answer_.refute(std::move(proof), why);
  }

  using Span = std::tuple<Position, Position, std::uint32_t>;  // [from, until) a value is held

  // The fewest spans covering the slots [from, to), by their values, or nullopt: the
  // usual greedy, furthest reach first.
  static std::optional<std::vector<std::uint32_t>> cover(std::vector<Span> spans, Position from, Position to) {
    std::ranges::sort(spans);
    std::vector<std::uint32_t> chosen;
    Position covered = from;
    std::size_t next = 0;
    while (covered < to) {
      Position reach = covered;
      std::uint32_t best = kNoUniqueOp;
      for (; next < spans.size() && std::get<0>(spans[next]) <= covered; ++next) {
        if (std::get<1>(spans[next]) > reach) {
          reach = std::get<1>(spans[next]);
          best = std::get<2>(spans[next]);
        }
      }
      if (best == kNoUniqueOp) return std::nullopt;
      chosen.push_back(best);
      covered = reach;
    }
    return chosen;
  }

  static Position held_from(const PqValue& value, const std::vector<Position>& return_at) {
    Position from = value.insert == kNoUniqueOp ? kBeforeAll : return_at[value.insert];
    if (value.first_peek != kNoUniqueOp) from = std::min(from, return_at[value.first_peek]);
    return from;
  }
  static Position held_until(const PqValue& value, const std::vector<Position>& call_at) {
    Position until = value.poll == kNoUniqueOp ? kBeforeAll : call_at[value.poll];
    if (value.last_peek != kNoUniqueOp) until = std::max(until, call_at[value.last_peek]);
    return until;
  }

  std::span<const Operation* const> ops_;
  const models::Semantics& semantics_;
  UniqueAnswer answer_;
  bool late_;  // Spending::late
  InsertionOrder insertion_;
  // With an insertion order: the values whose insert is invoked, absent still.
  std::set<Ranked> going_in_;
  bool spend_now_ = false;  // spending late: rule 3 applies now
  bool spent_ = false;      // rule 3 took a value out
  bool stuck_without_proof_ = false;
  std::vector<PqValue> values_;          // per value id
  std::vector<bool> kept_;               // per op: takes part in the sweep
  std::vector<std::uint32_t> anywhere_;  // completed ops that observe and change nothing
  std::vector<std::uint32_t> crashed_polls_;
  std::optional<std::pair<std::uint32_t, std::uint32_t>> polled_twice_;  // value, its second completed poll
  std::vector<SweepEvent> events_;
  std::vector<std::uint32_t> order_;
  std::priority_queue<Ranked> present_, pairable_;
  // Present values with peeks or their poll to take effect, and present stayers: both
  // as candidates, checked when they come up (has_work(), is_stayer()).
  std::priority_queue<Ranked> ready_, stayers_;
  std::map<std::int64_t, std::int64_t> present_at_, without_poll_at_;  // count_present()
  std::set<Ranked> peekable_;  // absent values whose insert and some peek are invoked
  // The invoked polls and peeks that have not taken effect, by their value's urgency,
  // lowest first, as (urgency, op).
  std::priority_queue<Ranked, std::vector<Ranked>, std::greater<>> waiting_below_;
  std::vector<std::uint32_t> waiting_empties_, unused_crashed_polls_;
  std::vector<bool> waiting_;  // per op: an empty observation or a peek invoked, not yet taken effect
};

}  // namespace

UniqueValueAnalysis analyse_unique_priority_queue(std::span<const Operation* const> ops,
                                                  const models::Semantics& semantics, const UniqueStopPoll& should_stop,
                                                  InsertionOrder insertion) {
  PriorityQueueAnalysis early(ops, semantics, should_stop, Spending::early, insertion);
  UniqueValueAnalysis answer = early.run();
  if (!early.stuck_after_spending()) return answer;
  UniqueValueAnalysis late = PriorityQueueAnalysis(ops, semantics, should_stop, Spending::late, insertion).run();
  // Declined both ways: the first sweep's reason, which names the op it got stuck at.
  return late.answer == UniqueValueAnalysis::Answer::declined ? answer : late;
}

}  // namespace ariadne::search
