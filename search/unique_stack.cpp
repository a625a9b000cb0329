// Linearizability of a stack whose pushed values are unique, in O(n log n), with an
// explicit order or the few ops that refute it.
//
// The test peels the stack from the bottom, the decrease-and-conquer scheme of
// [LeeMathur25: Z. H. Lee and U. Mathur, "Efficient Decrease-And-Conquer
// Linearizability Monitoring", OOPSLA 2025] and the "extreme value" removal of LiMo
// [AbdullaEtAl25: P. A. Abdulla, S. Grahn, B. Jonsson, S. Krishna, O. S. Mishra,
// "Efficient Linearizability Monitoring", PLDI 2025]; the proofs below are ours, for
// push and pop with unique values (no peek, no empty pop), crashed ops included.
//
// A legal sequence of a unique-value stack is a well-nested family of lifetimes, each
// value living from its push to its pop (or to the end, if never popped), and the value
// pushed first, the lowest, is alone on the stack at its push and just before its pop.
// A value whose push returns at r and whose pop is invoked at c is certainly on the
// stack throughout (r, c): its *held span* (to the end if nothing pops it). Given a set
// R of values, v is *removable* when its push and then its pop can take effect at
// points of their intervals outside the held span of every other value of R. Then R's
// history is linearizable iff some v is removable and R \ {v}'s history is: the lowest
// value of a linearization is removable, and dropping a value's ops from a legal
// sequence leaves one (=>); the order below proves (<=). Removability only grows as R
// shrinks, so peeling removable values until none is left decides the history, in any
// peeling order: it is linearizable iff R empties.
//
// Time is cut into slots, the open intervals between consecutive events (and one after
// the last); an op can take effect in the slots between its call and its return, and
// a held span covers whole slots. Peeling keeps, per slot, how many held spans of R
// cover it (a segment tree), and a value waits for a slot of the range it needs to
// become free: its push's interval while that has no free slot, its pop's while that
// has none, else the part of either that would put a free push slot no later than a
// free pop slot. A slot frees once, so every value is woken a few times and peeling
// takes O(n log n).
//
// The order. When v is peeled, its pop goes to the earliest free slot of its interval
// at or after the push interval's first free slot, its push to the latest free slot of
// its interval no later than that: no free slot of either interval lies strictly
// between v's two. Two values peeled in turn, v then w, never cross: v's slots were free
// when v was peeled, so they are when w is (peeling only frees), and lie outside w's
// held span (w was still in R); one of them strictly between w's two would then be a
// free slot of w's push or pop interval (the slots between w's two are those intervals
// and the held span) strictly between them, which w's choice rules out. Within a slot,
// pops go first (of the value pushed last first), then values pushed and popped in the
// slot, then pushes (of the value popped last first): the lifetimes nest, and each op
// takes effect in its own interval. The initial stack is pushed bottom first in slots
// of its own, before every event.
//
// Crashed ops (a crashed op takes effect at most once, at any point after its call):
// - A crashed push whose value no completed pop returns is dropped: in any
//   linearization, taking out its push, and the crashed pop that took its value if one
//   did, leaves a legal sequence (the family minus one lifetime still nests; an element
//   that stays on top of others only ever blocks pops beneath it), so it never helps.
// - A crashed push whose value a completed pop returns took effect: it stays, its
//   interval open to the end.
// - A crashed pop that takes effect removes the top, which can only be an *orphan*: a
//   value a completed push (or the initial stack) put there and no completed pop
//   returns (a popped value cannot leave twice). With no orphan, or no crashed pop, none
//   takes effect and the peeling above is exact. Otherwise every orphan may be popped,
//   after its push and after the call of a crashed pop of its own. Relaxing "of its
//   own" (any orphan may be popped after the earliest crashed pop's call) admits every
//   linearization of the history, so if that peeling gets stuck the history is refuted.
//   If it empties, its order pops some orphans; each such pop is moved as late as it
//   can go, latest first: to just before the pop of the value directly beneath it at its
//   push, or off the end when that value is never popped, both legal (what happens in
//   between lives above that value). The pops left take the crashed pops in call order,
//   the k-th earliest pop the k-th earliest call, which works iff any assignment does
//   (the crashed pops' intervals are nested, all open to the end). When that fails, the
//   peeling in which no crashed pop takes effect gets a last try; only then does the
//   test decline: it never guesses.
//
// The violation: when peeling is stuck on R, each value of R needs a free slot where
// only held spans of R lie. From one stuck value, a greedy interval cover picks the
// fewest values whose spans cover the range it needs, and so on until closed: a set T
// stuck by itself, whose ops alone are not linearizable. The peeling that lets every
// orphan go at any time after its push is tried first, so that the violation does not
// lean on an orphan staying put (core minimisation may turn the ops outside it into
// crashed pops). A value popped twice is refuted by its two pops; a value pushed twice,
// or pushed and in the initial stack, is declined.
#include "search/unique_values.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <optional>
#include <tuple>

namespace ariadne::search {

namespace {
// Named, so that nothing here meets a sibling's helpers in a unity build.
namespace stack_peeling {

using models::Effect;
constexpr std::uint32_t kNoOp = kNoUniqueOp;
constexpr std::uint32_t kNoSlot = 0xffffffffu;
constexpr std::uint32_t kNone = 0xffffffffu;
// Stuck values a core search starts from, at most: each search after the first stops
// once it is as large as the smallest core found.
constexpr std::size_t kCoreStarts = 1024;

struct SlotRange {
  std::uint32_t lo = 1, hi = 0;  // inclusive; empty when lo > hi
  bool empty() const { return lo > hi; }
};

// A value on the stack, in slots.
struct Element {
  std::uint32_t push_op = kNoOp;  // kNoOp: in the initial stack
  std::uint32_t pop_op = kNoOp;   // kNoOp: an orphan, which no completed pop returns
  SlotRange push;
  SlotRange pop;                // an orphan's: where the mode lets a crashed pop take it
  std::uint32_t held_from = 0;  // the first slot after its push returned

  SlotRange held() const { return pop.lo > held_from ? SlotRange{held_from, pop.lo - 1} : SlotRange{}; }
};

// When orphans may be popped (see the header).
enum class OrphanPops : std::uint8_t {
  never,                    // no crashed pop takes effect: exact without crashed pops
  after_first_crashed_pop,  // each after the earliest crashed pop's call: a relaxation
  any_time,                 // each any time after its push: a coarser one, for cores
};

// How many held spans cover each slot: a segment tree with range add, asked for the
// first or last free slot of a range.
class SlotCoverage {
 public:
  explicit SlotCoverage(std::uint32_t slots)
      : leaves_(std::bit_ceil(std::max<std::uint32_t>(slots, 1))), min_(2 * leaves_, 0), add_(2 * leaves_, 0) {}

  void add(SlotRange r, int delta) {
    if (!r.empty()) add(1, 0, leaves_ - 1, r, delta);
  }
  std::uint32_t first_free(SlotRange r) const { return r.empty() ? kNoSlot : first_free(1, 0, leaves_ - 1, r, 0); }
  std::uint32_t last_free(SlotRange r) const { return r.empty() ? kNoSlot : last_free(1, 0, leaves_ - 1, r, 0); }
  std::uint32_t leaves() const { return leaves_; }

 private:
  void add(std::uint32_t node, std::uint32_t lo, std::uint32_t hi, SlotRange r, int delta) {
    if (r.hi < lo || hi < r.lo) return;
    if (r.lo <= lo && hi <= r.hi) {
      min_[node] += delta;
      add_[node] += delta;
      return;
    }
    const std::uint32_t mid = lo + (hi - lo) / 2;
    add(2 * node, lo, mid, r, delta);
    add(2 * node + 1, mid + 1, hi, r, delta);
    min_[node] = add_[node] + std::min(min_[2 * node], min_[2 * node + 1]);
  }

  // `above`: the adds of the node's ancestors.
  std::uint32_t first_free(std::uint32_t node, std::uint32_t lo, std::uint32_t hi, SlotRange r, int above) const {
    if (r.hi < lo || hi < r.lo || min_[node] + above > 0) return kNoSlot;
    if (lo == hi) return lo;
    above += add_[node];
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const std::uint32_t left = first_free(2 * node, lo, mid, r, above);
    return left != kNoSlot ? left : first_free(2 * node + 1, mid + 1, hi, r, above);
  }
  std::uint32_t last_free(std::uint32_t node, std::uint32_t lo, std::uint32_t hi, SlotRange r, int above) const {
    if (r.hi < lo || hi < r.lo || min_[node] + above > 0) return kNoSlot;
    if (lo == hi) return lo;
    above += add_[node];
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const std::uint32_t right = last_free(2 * node + 1, mid + 1, hi, r, above);
    return right != kNoSlot ? right : last_free(2 * node, lo, mid, r, above);
  }

  std::uint32_t leaves_;
  std::vector<int> min_;  // per node: the least count below it, its own add included
  std::vector<int> add_;
};

// Values waiting for a slot of a range to become free: each range is kept at the
// O(log n) nodes of a segment tree that make it up, in intrusive lists, and a value
// that was woken once ignores its other entries (a stamp per value).
class SlotWaiters {
 public:
  explicit SlotWaiters(std::uint32_t leaves) : leaves_(leaves), head_(2 * leaves, kNone) {}

  void wait(SlotRange r, std::uint32_t element, std::uint32_t stamp) {
    if (r.empty()) return;
    for (std::uint32_t lo = r.lo + leaves_, hi = r.hi + leaves_ + 1; lo < hi; lo >>= 1, hi >>= 1) {
      if (lo & 1) link(lo++, element, stamp);
      if (hi & 1) link(--hi, element, stamp);
    }
  }

  // Calls wake(element, stamp) for every range holding `slot`, and forgets them.
  template <class Wake>
  void free(std::uint32_t slot, Wake&& wake) {
    for (std::uint32_t node = slot + leaves_; node >= 1; node >>= 1) {
      std::uint32_t at = head_[node];
      head_[node] = kNone;
      while (at != kNone) {
        const Entry entry = entries_[at];
        at = entry.next;
        wake(entry.element, entry.stamp);
      }
    }
  }

 private:
  struct Entry {
    std::uint32_t element, stamp, next;
  };
  void link(std::uint32_t node, std::uint32_t element, std::uint32_t stamp) {
    entries_.push_back({element, stamp, head_[node]});
    head_[node] = static_cast<std::uint32_t>(entries_.size() - 1);
  }

  std::uint32_t leaves_;
  std::vector<std::uint32_t> head_;  // per node: its first entry
  std::vector<Entry> entries_;
};

// Peels removable values from the bottom until none is left or none can go.
class Peeling {
 public:
  Peeling(std::span<const Element> elements, std::uint32_t slots)
      : elements_(elements),
        coverage_(slots),
        waiters_(coverage_.leaves()),
        stamp_(elements.size(), 0),
        peeled_(elements.size(), false),
        push_slot_(elements.size(), kNoSlot),
        pop_slot_(elements.size(), kNoSlot) {}

  // Returns false if `stopping` said so.
  bool run(const std::function<bool()>& stopping) {
    for (const Element& e : elements_) coverage_.add(e.held(), 1);
    std::vector<std::uint32_t> ready;
    for (std::uint32_t e = 0; e < elements_.size(); ++e) {
      if (stopping()) return false;
      if (removable(e)) ready.push_back(e);
    }
    while (!ready.empty()) {
      if (stopping()) return false;
      const std::uint32_t e = ready.back();
      ready.pop_back();
      peel(e);
      const SlotRange held = elements_[e].held();
      coverage_.add(held, -1);
      // Every free slot of the span is newly free: the span covered it until now.
      for (std::uint32_t s = coverage_.first_free(held); s != kNoSlot;
           s = s == held.hi ? kNoSlot : coverage_.first_free({s + 1, held.hi})) {
        waiters_.free(s, [&](std::uint32_t woken, std::uint32_t stamp) {
          if (peeled_[woken] || stamp != stamp_[woken]) return;
          ++stamp_[woken];
          if (removable(woken)) ready.push_back(woken);
        });
      }
    }
    return true;
  }

  bool complete() const { return order_.size() == elements_.size(); }
  const std::vector<std::uint32_t>& order() const { return order_; }
  std::uint32_t push_slot(std::uint32_t e) const { return push_slot_[e]; }
  std::uint32_t pop_slot(std::uint32_t e) const { return pop_slot_[e]; }

  std::vector<std::uint32_t> stuck() const {
    std::vector<std::uint32_t> stuck;
    for (std::uint32_t e = 0; e < elements_.size(); ++e) {
      if (!peeled_[e]) stuck.push_back(e);
    }
    return stuck;
  }

  // For a stuck value: ranges of slots, every one covered by held spans of the stuck
  // values, such that covering them keeps it stuck. Either its push interval has no
  // free slot, or its pop interval has none, or every free push slot comes after the
  // last free pop slot g: then covering the push interval up to g and the pop interval
  // after g leaves no free push slot at or before a free pop slot.
  std::vector<SlotRange> blocking(std::uint32_t e) const {
    const Element& element = elements_[e];
    const std::uint32_t f = coverage_.first_free(element.push);
    if (f == kNoSlot) return {element.push};
    const std::uint32_t g = coverage_.last_free(element.pop);
    if (g == kNoSlot) return {element.pop};
    return {SlotRange{element.push.lo, g}, SlotRange{g + 1, element.pop.hi}};
  }

 private:
  // Whether e can be peeled now; if not, it waits for a slot whose freeing might change
  // that (a free push slot before the first one, or a free pop slot after the last one).
  bool removable(std::uint32_t e) {
    const Element& element = elements_[e];
    const std::uint32_t f = coverage_.first_free(element.push);
    if (f == kNoSlot) {
      waiters_.wait(element.push, e, stamp_[e]);
      return false;
    }
    const std::uint32_t g = coverage_.last_free(element.pop);
    if (g == kNoSlot) {
      waiters_.wait(element.pop, e, stamp_[e]);
      return false;
    }
    if (f <= g) return true;
    if (f > element.push.lo) waiters_.wait({element.push.lo, f - 1}, e, stamp_[e]);
    waiters_.wait({g + 1, element.pop.hi}, e, stamp_[e]);
    return false;
  }

  // The slots of e's push and pop (see the header: none of either interval's free
  // slots strictly between them).
  void peel(std::uint32_t e) {
    const Element& element = elements_[e];
    const std::uint32_t first_push = coverage_.first_free(element.push);
    const std::uint32_t pop = coverage_.first_free({std::max(element.pop.lo, first_push), element.pop.hi});
    push_slot_[e] = coverage_.last_free({element.push.lo, std::min(element.push.hi, pop)});
    pop_slot_[e] = pop;
    peeled_[e] = true;
    order_.push_back(e);
  }

  std::span<const Element> elements_;
  SlotCoverage coverage_;
  SlotWaiters waiters_;
  std::vector<std::uint32_t> stamp_;
  std::vector<bool> peeled_;
  std::vector<std::uint32_t> push_slot_, pop_slot_;
  std::vector<std::uint32_t> order_;
};

// One op of a sequential order, with the key that places it within its slot.
struct Placed {
  enum class Kind : std::uint8_t { push, pop, other };
  std::tuple<std::uint32_t, std::uint8_t, std::uint32_t, std::uint32_t, std::uint8_t> key;
  Kind kind = Kind::other;
  std::uint32_t element = kNone;  // push, pop: the value's element; other: the op
  std::uint32_t slot = 0;
};

class StackAnalysis {
 public:
  StackAnalysis(std::span<const Operation* const> ops, const models::Semantics& semantics,
                const UniqueStopPoll& should_stop)
      : ops_(ops), semantics_(semantics), answer_(should_stop) {}

  UniqueValueAnalysis run() {
    if (classify() && index_events() && build_elements()) decide();
    return answer_.take();
  }

 private:
  bool stopping() { return answer_.stopping(++work_); }
  bool decline(std::string why) { return answer_.decline(std::move(why)); }
  bool refute(std::vector<std::uint32_t> ops, std::string why) {
    return answer_.refute(std::move(ops), std::move(why));
  }

  std::string value_name(std::uint32_t v) const { return semantics_.value_name(v); }

  // Sorts the ops into pushes and pops of values, drops those that cannot matter, and
  // declines what the test does not cover.
  bool classify() {
    if (semantics_.theory != models::Theory::stack) return decline("not a stack");
    std::size_t values = semantics_.value_count;
    for (const std::uint32_t v : semantics_.initial) values = std::max<std::size_t>(values, v + 1);
    for (const models::OpMeaning& m : semantics_.ops) values = std::max<std::size_t>(values, m.element + 1);
    pusher_.assign(values, kNoOp);
    popper_.assign(values, kNoOp);
    initial_at_.assign(values, kNoOp);
    std::optional<std::pair<std::uint32_t, std::uint32_t>> popped_twice;
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (stopping()) return false;
      const models::OpMeaning& m = semantics_.ops[i];
      switch (m.effect) {
        case Effect::insert:
          if (pusher_[m.element] != kNoOp) return decline("value " + value_name(m.element) + " is pushed twice");
          pusher_[m.element] = i;
          break;
        case Effect::remove:
          if (popper_[m.element] == kNoOp) {
            popper_[m.element] = i;
          } else if (!popped_twice) {
            popped_twice = {popper_[m.element], i};
          }
          break;
        case Effect::remove_any:
          if (m.must_take_effect) return decline("a completed pop with an unknown result");
          crashed_pops_.push_back(i);  // in call order, as the ops are
          break;
        case Effect::remove_empty: return answer_.empty_observation();
        default:
          if (!answer_.other(i, m, anywhere_, "not a stack op")) return false;
          break;
      }
    }
    for (std::uint32_t at = 0; at < semantics_.initial.size(); ++at) {
      const std::uint32_t v = semantics_.initial[at];
      if (initial_at_[v] != kNoOp) return decline("value " + value_name(v) + " is in the initial stack twice");
      if (pusher_[v] != kNoOp) return decline("value " + value_name(v) + " is pushed and is in the initial stack");
      initial_at_[v] = at;
    }
    // Pushed at most once, it can leave at most once, whatever the other ops did.
    if (popped_twice) return refute({popped_twice->first, popped_twice->second}, "two pops return one value");
    return true;
  }

  // Event indices: two per initial element first (its push, before time), then every
  // call and return in time order. Slot s lies between events s and s + 1; slot E, after
  // the last event's own slot, is the end of time, where orphans no pop takes stay.
  bool index_events() {
    const auto initial = static_cast<std::uint32_t>(semantics_.initial.size());
    std::vector<std::pair<std::uint64_t, std::uint32_t>> events;  // (position, 2 * op + is return)
    events.reserve(2 * ops_.size());
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      events.emplace_back(ops_[i]->call, 2 * i);
      if (ops_[i]->ret != kNever) events.emplace_back(ops_[i]->ret, 2 * i + 1);
    }
    if (stopping()) return false;
    std::sort(events.begin(), events.end());
    end_slot_ = 2 * initial + static_cast<std::uint32_t>(events.size());
    call_event_.assign(ops_.size(), end_slot_);
    return_event_.assign(ops_.size(), end_slot_);
    for (std::uint32_t k = 0; k < events.size(); ++k) {
      const std::uint32_t op = events[k].second / 2;
      ((events[k].second & 1) != 0 ? return_event_ : call_event_)[op] = 2 * initial + k;
    }
    return true;
  }

  bool build_elements() {
    for (std::uint32_t v = 0; v < pusher_.size(); ++v) {
      if (stopping()) return false;
      const std::uint32_t push = pusher_[v];
      const std::uint32_t pop = popper_[v];
      const std::uint32_t at = initial_at_[v];
      if (push == kNoOp && at == kNoOp) {
        if (pop != kNoOp) return refute({pop}, "a pop of a value no op pushes");
        continue;
      }
      // A crashed push nobody pops never needs to take effect (see the header).
      if (push != kNoOp && pop == kNoOp && !ops_[push]->must_take_effect()) continue;
      if (push != kNoOp && pop != kNoOp && ops_[pop]->ret < ops_[push]->call) {
        return refute({push, pop}, "a pop that completed before its value's push was invoked");
      }
      Element e;
      e.push_op = push;
      e.pop_op = pop;
      if (push == kNoOp) {
        e.push = {2 * at, 2 * at};
        e.held_from = 2 * at + 1;
      } else {
        // A crashed push returns at the end: its interval runs to the last slot.
        e.push = {call_event_[push], return_event_[push] - 1};
        e.held_from = return_event_[push];
      }
      if (pop != kNoOp) {
        e.pop = {call_event_[pop], return_event_[pop] - 1};
      } else {
        orphans_.push_back(static_cast<std::uint32_t>(elements_.size()));
      }
      elements_.push_back(e);
    }
    return true;
  }

  std::vector<Element> with_orphan_pops(OrphanPops mode) const {
    std::vector<Element> elements = elements_;
    for (const std::uint32_t o : orphans_) {
      Element& e = elements[o];
      switch (mode) {
        case OrphanPops::never: e.pop = {end_slot_, end_slot_}; break;
        case OrphanPops::after_first_crashed_pop: e.pop = {call_event_[crashed_pops_.front()], end_slot_}; break;
        case OrphanPops::any_time: e.pop = {e.push.lo, end_slot_}; break;
      }
    }
    return elements;
  }

  // Returns nullopt if stopped.
  std::optional<Peeling> peel(std::span<const Element> elements) {
    std::optional<Peeling> peeling(std::in_place, elements, end_slot_ + 1);
    if (!peeling->run([this] { return stopping(); })) return std::nullopt;
    return peeling;
  }

  void decide() {
    if (crashed_pops_.empty() || orphans_.empty()) {
      // No crashed pop can take effect: the peeling is exact.
      const std::vector<Element> exact_elements = with_orphan_pops(OrphanPops::never);
      const std::optional<Peeling> exact = peel(exact_elements);
      if (!exact) return;
      if (exact->complete()) {
        answer_.linearizable(plain_order(*exact, exact_elements));
      } else {
        refute_stuck(*exact, exact_elements, OrphanPops::never);
      }
      return;
    }
    const std::vector<Element> relaxed_elements = with_orphan_pops(OrphanPops::after_first_crashed_pop);
    const std::optional<Peeling> relaxed = peel(relaxed_elements);
    if (!relaxed) return;
    if (!relaxed->complete()) {
      refute_stuck(*relaxed, relaxed_elements, OrphanPops::after_first_crashed_pop);
      return;
    }
    std::optional<std::vector<std::uint32_t>> order = order_with_crashed_pops(*relaxed, relaxed_elements);
    if (order) {
      answer_.linearizable(std::move(*order));
      return;
    }
    if (answer_stopped_) return;
    const std::vector<Element> exact_elements = with_orphan_pops(OrphanPops::never);
    const std::optional<Peeling> exact = peel(exact_elements);
    if (!exact) return;
    if (exact->complete()) {
      answer_.linearizable(plain_order(*exact, exact_elements));
      return;
    }
    decline("the crashed pops cannot be given to the elements that must leave the stack, as far as this test sees");
  }

  // Refutes with a small stuck set, preferring one that holds however orphans leave.
  void refute_stuck(const Peeling& stuck, std::span<const Element> elements, OrphanPops mode) {
    if (mode != OrphanPops::any_time && !orphans_.empty()) {
      const std::vector<Element> loose_elements = with_orphan_pops(OrphanPops::any_time);
      const std::optional<Peeling> loose = peel(loose_elements);
      if (!loose) return;
      if (!loose->complete()) {
        refute_with_core(*loose, loose_elements);
        return;
      }
    }
    refute_with_core(stuck, elements);
  }

  void refute_with_core(const Peeling& peeling, std::span<const Element> elements) {
    const std::vector<std::uint32_t> stuck = peeling.stuck();
    std::vector<std::uint32_t> core = stuck_core(peeling, elements, stuck);
    if (answer_stopped_) return;
    std::vector<std::uint32_t> ops;
    for (const std::uint32_t e : core) {
      if (elements[e].push_op != kNoOp) ops.push_back(elements[e].push_op);
      if (elements[e].pop_op != kNoOp) ops.push_back(elements[e].pop_op);
    }
    refute(std::move(ops), core.size() == 1
                               ? "a value whose push and pop cannot take effect in that order"
                               : "values that block one another: each must be pushed or popped while another is "
                                 "certainly on the stack, so none of them can be the lowest");
  }

  // A small subset of the stuck values that is stuck by itself (see the header).
  std::vector<std::uint32_t> stuck_core(const Peeling& peeling, std::span<const Element> elements,
                                        const std::vector<std::uint32_t>& stuck) {
    // The stuck values' held spans by start, with the running farthest end: the greedy
    // cover of a range takes, at each uncovered slot, the span reaching farthest.
    std::vector<std::uint32_t> by_start;
    for (const std::uint32_t e : stuck) {
      if (!elements[e].held().empty()) by_start.push_back(e);
    }
    std::sort(by_start.begin(), by_start.end(),
              [&](std::uint32_t a, std::uint32_t b) { return elements[a].held().lo < elements[b].held().lo; });
    std::vector<std::uint32_t> starts, farthest;
    for (const std::uint32_t e : by_start) {
      starts.push_back(elements[e].held().lo);
      farthest.push_back(
          farthest.empty() || elements[farthest.back()].held().hi < elements[e].held().hi ? e : farthest.back());
    }
    std::vector<std::uint32_t> member(elements.size(), kNone);  // the search that took it
    std::vector<std::uint32_t> best = stuck;
    const std::size_t tries = std::min(stuck.size(), kCoreStarts);
    for (std::uint32_t attempt = 0; attempt < tries; ++attempt) {
      std::vector<std::uint32_t> core{stuck[attempt]};
      member[stuck[attempt]] = attempt;
      bool closed = true;
      for (std::size_t next = 0; next < core.size() && closed; ++next) {
        if (stopping()) {
          answer_stopped_ = true;
          return {};
        }
        for (const SlotRange need : peeling.blocking(core[next])) {
          for (std::uint32_t slot = need.lo; slot <= need.hi && closed;) {
            const auto at = std::upper_bound(starts.begin(), starts.end(), slot) - starts.begin();
            const std::uint32_t span = at == 0 ? kNone : farthest[at - 1];
            if (span == kNone || elements[span].held().hi < slot) {
              closed = false;  // uncovered: cannot be, the stuck values' spans cover it
              break;
            }
            if (member[span] != attempt) {
              if (core.size() + 1 >= best.size()) {
                closed = false;  // no smaller than the best
                break;
              }
              member[span] = attempt;
              core.push_back(span);
            }
            slot = elements[span].held().hi + 1;
          }
        }
      }
      if (closed && core.size() < best.size()) best = std::move(core);
      if (best.size() <= 2) break;
    }
    return best;
  }

  // Every value's push and pop, and the ops that change nothing, in the order the
  // header describes: by slot, then pops, values pushed and popped in the slot, pushes.
  std::vector<Placed> placed_ops(const Peeling& peeling, std::span<const Element> elements) const {
    std::vector<Placed> placed;
    placed.reserve(2 * elements.size() + anywhere_.size());
    constexpr std::uint32_t kTop = 0xffffffffu;
    for (std::uint32_t e = 0; e < elements.size(); ++e) {
      const std::uint32_t push = peeling.push_slot(e);
      const std::uint32_t pop = peeling.pop_slot(e);
      if (push == pop) {
        placed.push_back({{push, 1, e, 0, 0}, Placed::Kind::push, e, push});
        placed.push_back({{pop, 1, e, 0, 1}, Placed::Kind::pop, e, pop});
      } else {
        placed.push_back({{push, 2, kTop - pop, e, 0}, Placed::Kind::push, e, push});
        placed.push_back({{pop, 0, kTop - push, kTop - e, 0}, Placed::Kind::pop, e, pop});
      }
    }
    const auto values = static_cast<std::uint32_t>(elements.size());
    for (const std::uint32_t i : anywhere_) {
      placed.push_back({{call_event_[i], 1, values + i, 0, 0}, Placed::Kind::other, i, call_event_[i]});
    }
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.key < b.key; });
    return placed;
  }

  // The order when no crashed pop takes effect: orphans' pops, all at the end of time,
  // are left out.
  std::vector<std::uint32_t> plain_order(const Peeling& peeling, std::span<const Element> elements) const {
    std::vector<std::uint32_t> order;
    for (const Placed& p : placed_ops(peeling, elements)) {
      if (p.kind == Placed::Kind::other) {
        order.push_back(p.element);
      } else {
        const std::uint32_t op =
            p.kind == Placed::Kind::push ? elements[p.element].push_op : elements[p.element].pop_op;
        if (op != kNoOp) order.push_back(op);
      }
    }
    return order;
  }

  // The relaxed peeling's order with its orphans' pops moved as late as they go and
  // given crashed pops (see the header), or nullopt when they cannot all get one.
  std::optional<std::vector<std::uint32_t>> order_with_crashed_pops(const Peeling& peeling,
                                                                    std::span<const Element> elements) {
    std::vector<Placed> placed = placed_ops(peeling, elements);
    const auto size = static_cast<std::uint32_t>(placed.size());
    std::vector<std::uint32_t> next(size), prev(size);
    for (std::uint32_t k = 0; k < size; ++k) {
      next[k] = k + 1 == size ? kNone : k + 1;
      prev[k] = k == 0 ? kNone : k - 1;
    }
    std::uint32_t head = size == 0 ? kNone : 0;
    // Who lies directly beneath each value at its push, and where each value leaves.
    std::vector<std::uint32_t> beneath(elements.size(), kNone), leaves(elements.size(), kNone);
    std::vector<std::uint32_t> stack, orphan_pops;
    for (std::uint32_t k = 0; k < size; ++k) {
      if (stopping()) {
        answer_stopped_ = true;
        return std::nullopt;
      }
      const Placed& p = placed[k];
      if (p.kind == Placed::Kind::push) {
        beneath[p.element] = stack.empty() ? kNone : stack.back();
        stack.push_back(p.element);
      } else if (p.kind == Placed::Kind::pop) {
        if (stack.empty() || stack.back() != p.element) return std::nullopt;  // cannot be: the order nests
        stack.pop_back();
        leaves[p.element] = k;
        if (elements[p.element].pop_op == kNoOp) orphan_pops.push_back(k);
      }
    }
    const auto unlink = [&](std::uint32_t k) {
      (prev[k] == kNone ? head : next[prev[k]]) = next[k];
      if (next[k] != kNone) prev[next[k]] = prev[k];
    };
    // Latest first, so that the pop beneath is already where it stays.
    for (auto it = orphan_pops.rbegin(); it != orphan_pops.rend(); ++it) {
      const std::uint32_t k = *it;
      const std::uint32_t orphan = placed[k].element;
      const std::uint32_t below = beneath[orphan];
      unlink(k);
      if (below == kNone || leaves[below] == kNone) {
        leaves[orphan] = kNone;  // it stays to the end
        continue;
      }
      const std::uint32_t before = leaves[below];
      next[k] = before;
      prev[k] = prev[before];
      (prev[before] == kNone ? head : next[prev[before]]) = k;
      prev[before] = k;
      placed[k].slot = placed[before].slot;
    }
    std::vector<std::uint32_t> taken;  // the orphans' pops still there, by slot
    for (const std::uint32_t k : orphan_pops) {
      if (leaves[placed[k].element] != kNone) taken.push_back(k);
    }
    std::stable_sort(taken.begin(), taken.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return placed[a].slot < placed[b].slot; });
    if (taken.size() > crashed_pops_.size()) return std::nullopt;
    std::vector<std::uint32_t> crashed_pop_at(size, kNoOp);
    for (std::size_t k = 0; k < taken.size(); ++k) {
      if (call_event_[crashed_pops_[k]] > placed[taken[k]].slot) return std::nullopt;
      crashed_pop_at[taken[k]] = crashed_pops_[k];
    }
    std::vector<std::uint32_t> order;
    for (std::uint32_t k = head; k != kNone; k = next[k]) {
      const Placed& p = placed[k];
      if (p.kind == Placed::Kind::other) {
        order.push_back(p.element);
      } else if (p.kind == Placed::Kind::push) {
        if (elements[p.element].push_op != kNoOp) order.push_back(elements[p.element].push_op);
      } else {
        const std::uint32_t op = elements[p.element].pop_op != kNoOp ? elements[p.element].pop_op : crashed_pop_at[k];
        if (op != kNoOp) order.push_back(op);
      }
    }
    return order;
  }

  std::span<const Operation* const> ops_;
  const models::Semantics& semantics_;
  UniqueAnswer answer_;
  std::uint64_t work_ = 0;
  bool answer_stopped_ = false;                              // a helper saw stopping() say so
  std::vector<std::uint32_t> pusher_, popper_, initial_at_;  // per value id
  std::vector<std::uint32_t> anywhere_;                      // completed ops that change and observe nothing
  std::vector<std::uint32_t> crashed_pops_;                  // in call order
  std::vector<std::uint32_t> call_event_, return_event_;     // per op (return: end_slot_ if crashed)
  std::uint32_t end_slot_ = 0;
  std::vector<Element> elements_;  // orphans' pops unset: see with_orphan_pops()
  std::vector<std::uint32_t> orphans_;
};

}  // namespace stack_peeling
}  // namespace

UniqueValueAnalysis analyse_unique_stack(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                         const UniqueStopPoll& should_stop) {
  return stack_peeling::StackAnalysis(ops, semantics, should_stop).run();
}

}  // namespace ariadne::search
