// A FIFO queue's or a stack's history with an empty observation (a removal that
// returned :empty), which their own tests decline (UniqueAnswer::empty_observation):
// decided here where a proof or an order can be had cheaply, else still declined.
//
// Refuted as a bag's. Every legal order of a queue or a stack is one of a bag's with
// the same results: a removal that took x found x there; one that found the container
// empty found the bag empty; a crashed or relaxed removal takes one of the elements
// there, which the bag allows too. So where the priority queue's sweep, every element
// of one priority (unique_priority_queue.cpp), refutes the history as a bag's, its
// refutation, and its proof with every other op relaxed, hold for the queue or stack.
//
// Ordered as a priority queue's. The own test decides the history with the empty
// observations taken for ops that change nothing: a refutation there holds for the
// whole history (an order of it, its observations left out, would be one of the rest),
// and an order gives the elements their order of insertion. Made priorities, first in
// first out (or last in, first out), the sweep then places every op, the observations
// included, each inside its interval, the elements going in in the order found (one
// whose insert returns first brings in the invoked ones before it, each invoked before
// that return since their order was a linearization's): the front is then the most
// urgent element (the top of a stack the most urgent too). The sweep's choices, and the
// order found without the observations, may still leave an observation no place: then
// the history is declined. Its order is replayed here as a queue (a stack), real time
// included, before it is trusted: one the certificate checker rejected would be
// reported as a bug in the engine.
#include "search/unique_values.hpp"

#include <algorithm>
#include <deque>
#include <string>

namespace ariadne::search {

namespace {

using models::Effect;

// Each step below works on `scratch`, one copy of the semantics made over for it in
// turn: a 10^6-op history's meanings are copied once, not once a step.
UniqueValueAnalysis refuted_as_bag(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                   models::Semantics& scratch, const UniqueStopPoll& should_stop) {
  scratch.theory = models::Theory::unordered_queue;
  for (models::OpMeaning& m : scratch.ops) m.urgency = 0;
  scratch.initial_urgency.clear();
  UniqueValueAnalysis bag = analyse_unique_priority_queue(ops, scratch, should_stop);
  if (bag.answer == UniqueValueAnalysis::Answer::not_linearizable && semantics.theory == models::Theory::stack) {
    if (const auto at = bag.why.find("in the queue"); at != std::string::npos) bag.why.replace(at, 12, "on the stack");
  }
  return bag;
}

// Whether `order` (indices into the ops) is legal for the queue or the stack from its
// initial contents, each removal taking the front (the top), a crashed one included.
bool replays(const models::Semantics& semantics, std::span<const std::uint32_t> order, bool lifo) {
  std::deque<std::uint32_t> contents(semantics.initial.begin(), semantics.initial.end());
  for (const std::uint32_t i : order) {
    const models::OpMeaning& m = semantics.ops[i];
    switch (m.effect) {
      case Effect::insert: contents.push_back(m.element); break;
      case Effect::remove:
      case Effect::remove_any: {
        if (contents.empty()) {
          if (m.effect == Effect::remove) return false;
          break;  // a crashed removal of an empty container returns :empty
        }
        const std::uint32_t taken = lifo ? contents.back() : contents.front();
        if (m.effect == Effect::remove && taken != m.element) return false;
        if (lifo) {
          contents.pop_back();
        } else {
          contents.pop_front();
        }
        break;
      }
      case Effect::remove_empty:
        if (!contents.empty()) return false;
        break;
      case Effect::none: break;
      default: return false;
    }
  }
  return true;
}

// Whether `order` puts every op after those that completed before it was invoked.
bool respects_real_time(std::span<const Operation* const> ops, std::span<const std::uint32_t> order) {
  std::uint64_t earliest_return_after = kNever;  // of the ops after position k
  for (std::size_t k = order.size(); k-- > 0;) {
    const Operation& op = *ops[order[k]];
    if (earliest_return_after < op.call) return false;
    earliest_return_after = std::min(earliest_return_after, op.ret);
  }
  return true;
}

UniqueValueAnalysis ordered_as_priority_queue(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                              models::Semantics& scratch, const UniqueStopPoll& should_stop,
                                              const UniqueValueAnalysis& declined) {
  const bool lifo = semantics.theory == models::Theory::stack;
  scratch.theory = semantics.theory;
  for (models::OpMeaning& m : scratch.ops) {
    if (m.effect == Effect::remove_empty) m.effect = Effect::none;
  }
  UniqueValueAnalysis own =
      lifo ? analyse_unique_stack(ops, scratch, should_stop) : analyse_unique_queue(ops, scratch, should_stop);
  if (own.answer == UniqueValueAnalysis::Answer::not_linearizable) return own;
  if (own.answer != UniqueValueAnalysis::Answer::linearizable) return declined;
  // Urgencies: the initial elements first in their order, then the inserts in the
  // order found; the sooner in, the sooner out in a queue, the later in a stack.
  scratch.theory = models::Theory::priority_queue;
  for (std::size_t i = 0; i < scratch.ops.size(); ++i) scratch.ops[i].effect = semantics.ops[i].effect;
  const auto urgency = [lifo](std::int64_t rank) { return lifo ? rank : -rank; };
  scratch.initial_urgency.clear();
  std::int64_t rank = 0;
  for (std::size_t k = 0; k < scratch.initial.size(); ++k) scratch.initial_urgency.push_back(urgency(rank++));
  for (const std::uint32_t i : own.order) {
    if (scratch.ops[i].effect == Effect::insert) scratch.ops[i].urgency = urgency(rank++);
  }
  UniqueValueAnalysis swept = analyse_unique_priority_queue(
      ops, scratch, should_stop, lifo ? InsertionOrder::lowest_first : InsertionOrder::highest_first);
  if (swept.answer != UniqueValueAnalysis::Answer::linearizable) return declined;
  if (!respects_real_time(ops, swept.order) || !replays(semantics, swept.order, lifo)) return declined;
  return swept;
}

}  // namespace

UniqueValueAnalysis with_empty_observations(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                            const UniqueStopPoll& should_stop, UniqueValueAnalysis declined) {
  if (declined.answer != UniqueValueAnalysis::Answer::declined || !has_empty_observation(semantics)) return declined;
  models::Semantics scratch = semantics;
  UniqueValueAnalysis bag = refuted_as_bag(ops, semantics, scratch, should_stop);
  if (bag.answer == UniqueValueAnalysis::Answer::not_linearizable) return bag;
  if (bag.answer == UniqueValueAnalysis::Answer::stopped) return bag;
  return ordered_as_priority_queue(ops, semantics, scratch, should_stop, declined);
}

bool has_empty_observation(const models::Semantics& semantics) {
  return std::ranges::any_of(semantics.ops,
                             [](const models::OpMeaning& m) { return m.effect == Effect::remove_empty; });
}

}  // namespace ariadne::search
