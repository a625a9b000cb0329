// The sentences of queues, stacks, sets and the mutex: an element taken that was
// never there (or taken twice), a queue or stack taking the wrong element, a priority
// queue's poll or peek of an element while one of higher priority was surely there, a
// removal that found the container empty while an element was surely there, a set
// read that lost an element, a lock taken while held or released while free.
//
// Each shape is an argument from facts of the history alone, and holds only when every
// op that could undo it is named and ruled out: an op outside the core is relaxed (it
// may take effect anywhere, or never), and a relaxed dequeue or pop may remove
// anything, so a shape that needs "nothing removed y" fails where one exists.
#include "explain/why_words.hpp"
#include "models/semantics.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace ariadne::explain {

namespace {

using models::Effect;
using models::OpMeaning;
using models::Theory;

// The partition described: each op's meaning as the refutation reads it (recorded in
// the core, relaxed outside it).
class Described {
 public:
  explicit Described(const ShapeInput& in) : in_(in), semantics_(*in.relevance.semantics()) {
    std::vector<const Operation*> core(in.core.begin(), in.core.end());
    std::sort(core.begin(), core.end());
    for (std::uint32_t i = 0; i < in.partition.size(); ++i) {
      const bool kept = std::binary_search(core.begin(), core.end(), in.partition[i]);
      in_core_.push_back(kept);
      meaning_.push_back(kept ? &in.relevance.recorded(i) : &in.relevance.relaxed(i));
      // Indexed once: a set read may list 10^5 elements, each asking for its adders.
      const OpMeaning& m = *meaning_.back();
      const std::uint32_t element = m.effect == Effect::remove_any ? 0 : m.element;
      by_effect_[{m.effect, element}].push_back(i);
    }
  }

  std::size_t size() const { return meaning_.size(); }
  const Operation& op(std::size_t i) const { return *in_.partition[i]; }
  const OpMeaning& meaning(std::size_t i) const { return *meaning_[i]; }
  bool in_core(std::size_t i) const { return in_core_[i]; }
  const models::Semantics& semantics() const { return semantics_; }
  std::string element(std::uint32_t id) const { return shorten(semantics_.value_name(id), 40); }
  bool initially_holds(std::uint32_t element) const {
    return std::find(semantics_.initial.begin(), semantics_.initial.end(), element) != semantics_.initial.end();
  }
  // The ops whose effect is `effect` on `element` (any element for remove_any).
  std::vector<std::size_t> with(Effect effect, std::uint32_t element) const {
    const auto it = by_effect_.find({effect, effect == Effect::remove_any ? 0 : element});
    return it == by_effect_.end() ? std::vector<std::size_t>{} : it->second;
  }
  // Whether every op of `ops` is in the core and comes after `earlier`.
  bool all_late(const std::vector<std::size_t>& ops, const Operation& earlier) const {
    return std::all_of(ops.begin(), ops.end(),
                       [&](std::size_t i) { return in_core(i) && in_.words.precedes(earlier, op(i)); });
  }
  std::vector<const Operation*> ops_of(const std::vector<std::size_t>& indices) const {
    std::vector<const Operation*> ops;
    for (const std::size_t i : indices) ops.push_back(&op(i));
    return ops;
  }

 private:
  const ShapeInput& in_;
  const models::Semantics& semantics_;
  std::vector<bool> in_core_;
  std::vector<const OpMeaning*> meaning_;
  // (effect, element) -> the ops with that effect on that element (any, for remove_any)
  std::map<std::pair<Effect, std::uint32_t>, std::vector<std::size_t>> by_effect_;
};

struct Verbs {
  std::string insert, remove, removed, object;  // "enqueue", "dequeue", "dequeued", "queue"
};

Verbs verbs_of(Theory theory) {
  switch (theory) {
    case Theory::stack: return {"push", "pop", "popped", "stack"};
    case Theory::set: return {"add", "read", "read", "set"};
    case Theory::priority_queue: return {"insert", "poll", "polled", "priority queue"};
    default: return {"enqueue", "dequeue", "dequeued", "queue"};
  }
}

// "no op enqueues x" / "the only enqueue of x, enqueue x (op 3, process 1), began after
// the dequeue completed": the ops that could have supplied `element`, all ruled out.
std::string nothing_supplies(const Described& d, const WhyWords& words, const Verbs& verbs,
                             const std::vector<std::size_t>& suppliers, const Operation& refused, std::uint32_t element,
                             Shape& shape) {
  const std::string x = d.element(element);
  std::string words_out = "no op " + verbs.insert + (verbs.insert == "push" ? "es " : "s ") + x + " and the " +
                          verbs.object + " does not start with it";
  if (suppliers.size() == 1) {
    words_out = "the only " + verbs.insert + " of " + x + ", " + words.named(d.op(suppliers.front())) + ", " +
                words.after(refused);
  } else if (!suppliers.empty()) {
    words_out =
        "every " + verbs.insert + " of " + x + " (" + words.ids(d.ops_of(suppliers)) + ") " + words.after(refused);
  }
  shape.name_all(d.ops_of(suppliers), WhyRole::late);
  return words_out;
}

// The removers that could take `y` out, if every one of them comes after `refused`:
// a completed removal of y in the core is the one op that takes it (y is there
// once), else any op that may remove anything could have.
std::optional<std::vector<std::size_t>> late_removers_of(const Described& d, std::uint32_t y,
                                                         const Operation& refused) {
  std::vector<std::size_t> removers = d.with(Effect::remove, y);
  const bool taken_by_core = std::any_of(removers.begin(), removers.end(),
                                         [&](std::size_t i) { return d.in_core(i) && d.op(i).must_take_effect(); });
  if (!taken_by_core) {
    const std::vector<std::size_t> any = d.with(Effect::remove_any, 0);
    removers.insert(removers.end(), any.begin(), any.end());
  }
  if (!d.all_late(removers, refused)) return std::nullopt;
  return removers;
}

// ", and no op dequeues y" / ", and y could be dequeued only by OP, which began after
// the dequeue completed": what rules out every op that could take y out.
std::string only_removed_by(const Described& d, const WhyWords& words, const Verbs& verbs,
                            const std::vector<std::size_t>& removers, const Operation& refused, std::uint32_t y) {
  if (removers.empty()) return ", and no op " + verbs.remove + "s " + d.element(y);
  return ", and " + d.element(y) + " could be " + verbs.removed + " only by " +
         (removers.size() == 1 ? words.named(d.op(removers.front())) : words.ids(d.ops_of(removers))) + ", which " +
         words.after(refused);
}

// A priority queue's poll or peek of x while y, of higher priority, was surely in it
// throughout: y inserted once, by a completed insert that precedes the refused op, and
// every op that could take y out comes after it. x's priority is its only insert's, or
// its initial entry's.
std::optional<Shape> outranked_shape(const Described& d, const WhyWords& words, const Verbs& verbs,
                                     const Operation& refused, std::uint32_t x, const Shape& named) {
  const models::Semantics& semantics = d.semantics();
  std::optional<std::int64_t> urgency_of_x;
  const std::vector<std::size_t> inserters_of_x = d.with(Effect::insert, x);
  const auto initial = std::find(semantics.initial.begin(), semantics.initial.end(), x);
  if (inserters_of_x.size() == 1 && initial == semantics.initial.end()) {
    urgency_of_x = d.meaning(inserters_of_x.front()).urgency;
  } else if (inserters_of_x.empty() && initial != semantics.initial.end() &&
             std::count(semantics.initial.begin(), semantics.initial.end(), x) == 1 &&
             semantics.initial_urgency.size() == semantics.initial.size()) {
    urgency_of_x = semantics.initial_urgency[static_cast<std::size_t>(initial - semantics.initial.begin())];
  }
  if (!urgency_of_x) return std::nullopt;
  for (std::size_t e = 0; e < d.size(); ++e) {
    if (!d.in_core(e) || d.meaning(e).effect != Effect::insert || !d.op(e).must_take_effect()) continue;
    const std::uint32_t y = d.meaning(e).element;
    if (y == x || d.meaning(e).urgency <= *urgency_of_x || d.initially_holds(y)) continue;
    if (d.with(Effect::insert, y).size() != 1 || !words.precedes(d.op(e), refused)) continue;
    const auto removers = late_removers_of(d, y, refused);
    if (!removers) continue;
    Shape shape = named;
    shape.name(&d.op(e), WhyRole::cause);
    shape.name_all(d.ops_of(*removers), WhyRole::late);
    shape.sentence = words.named(refused) + " returned " + d.element(x) + ", but " + d.element(y) +
                     ", of higher priority, was in the " + verbs.object + " all the while: " + words.named(d.op(e)) +
                     " " + words.before(refused) + only_removed_by(d, words, verbs, *removers, refused, y) + ".";
    return shape;
  }
  return std::nullopt;
}

std::optional<Shape> shape_for(const Described& d, const WhyWords& words, std::size_t r) {
  const Operation& refused = d.op(r);
  const OpMeaning& meaning = d.meaning(r);
  const Theory theory = d.semantics().theory;
  const Verbs verbs = verbs_of(theory);
  Shape shape;
  shape.name(&refused, WhyRole::refused);
  if (meaning.effect == Effect::impossible) {
    shape.sentence = words.named(refused) + " can take effect in no state of the " + words.model().name() +
                     " with the result it returned.";
    return shape;
  }
  if (theory == Theory::priority_queue && (meaning.effect == Effect::remove || meaning.effect == Effect::peek)) {
    if (auto outranked = outranked_shape(d, words, verbs, refused, meaning.element, shape)) return outranked;
    if (meaning.effect == Effect::peek) return std::nullopt;
  }
  if (meaning.effect == Effect::remove) {
    const std::uint32_t x = meaning.element;
    const std::vector<std::size_t> inserters = d.with(Effect::insert, x);
    // Taken though never there.
    if (!d.initially_holds(x) && d.all_late(inserters, refused)) {
      shape.sentence = words.named(refused) + " " + verbs.removed + " " + d.element(x) + ", but " +
                       nothing_supplies(d, words, verbs, inserters, refused, x, shape) + ".";
      return shape;
    }
    // Taken twice, though there once.
    const std::size_t supplies = inserters.size() + static_cast<std::size_t>(std::count(
                                                        d.semantics().initial.begin(), d.semantics().initial.end(), x));
    if (supplies == 1) {
      for (const std::size_t other : d.with(Effect::remove, x)) {
        if (other == r || !d.in_core(other) || !d.op(other).must_take_effect()) continue;
        shape.name(&d.op(other), WhyRole::cause);
        std::string by;
        if (!inserters.empty() && d.in_core(inserters.front())) {
          shape.name(&d.op(inserters.front()), WhyRole::source);
          by = ", by " + words.named(d.op(inserters.front()));
        }
        shape.sentence = words.named(refused) + " " + verbs.removed + " " + d.element(x) + ", and so did " +
                         words.named(d.op(other)) + ", but " + d.element(x) + " was " + verbs.insert +
                         (verbs.insert == "push" ? "ed" : "d") + " only once" + by + ".";
        return shape;
      }
    }
    // The wrong element: another was ahead of it (a queue) or on top of it (a stack).
    if ((theory != Theory::fifo_queue && theory != Theory::stack) || inserters.size() != 1 ||
        !d.in_core(inserters.front()) || d.initially_holds(x)) {
      return std::nullopt;
    }
    const Operation& put_x = d.op(inserters.front());
    for (std::size_t e = 0; e < d.size(); ++e) {
      if (!d.in_core(e) || d.meaning(e).effect != Effect::insert || d.meaning(e).element == x) continue;
      const Operation& put_y = d.op(e);
      const std::uint32_t y = d.meaning(e).element;
      if (!put_y.must_take_effect() || d.initially_holds(y) || d.with(Effect::insert, y).size() != 1) continue;
      const bool blocks = theory == Theory::fifo_queue ? words.precedes(put_y, put_x)
                                                       : words.precedes(put_x, put_y) && words.precedes(put_y, refused);
      if (!blocks) continue;
      const auto removers = late_removers_of(d, y, refused);
      if (!removers) continue;
      shape.name(&put_x, WhyRole::source);
      shape.name(&put_y, WhyRole::cause);
      shape.name_all(d.ops_of(*removers), WhyRole::late);
      std::string sentence = words.named(refused) + " " + verbs.removed + " " + d.element(x) + ", but " + d.element(y);
      if (theory == Theory::fifo_queue) {
        sentence += " was ahead of it in the queue: " + words.named(put_y) + " " + words.before_named(put_x);
      } else {
        sentence += " lay on top of it: " + words.named(put_y) + " " + words.after_named(put_x) + " and " +
                    words.before(refused);
      }
      shape.sentence = sentence + only_removed_by(d, words, verbs, *removers, refused, y) + ".";
      return shape;
    }
    return std::nullopt;
  }
  if (meaning.effect == Effect::remove_empty) {
    // Found empty, though an element was there: one inserted before it began (or
    // there from the start) that only ops beginning after it could have taken. Ops
    // that may take it are the removals of it and every removal of anything (crashed,
    // or relaxed outside the core); all must be in the core and late.
    const std::vector<std::size_t> any = d.with(Effect::remove_any, 0);
    const auto late_removers = [&](std::uint32_t x) {
      std::vector<std::size_t> removers = d.with(Effect::remove, x);
      removers.insert(removers.end(), any.begin(), any.end());
      return d.all_late(removers, refused) ? std::optional(removers) : std::nullopt;
    };
    const auto finish = [&](std::uint32_t x, const std::vector<std::size_t>& removers, const std::string& there) {
      shape.name_all(d.ops_of(removers), WhyRole::late);
      shape.sentence = words.named(refused) + " found the " + verbs.object + " empty, but " + there +
                       only_removed_by(d, words, verbs, removers, refused, x) + ".";
      return shape;
    };
    for (std::size_t e = 0; e < d.size(); ++e) {
      if (!d.in_core(e) || d.meaning(e).effect != Effect::insert || !d.op(e).must_take_effect()) continue;
      if (!words.precedes(d.op(e), refused)) continue;
      const std::uint32_t x = d.meaning(e).element;
      const auto removers = late_removers(x);
      if (!removers) continue;
      shape.name(&d.op(e), WhyRole::cause);
      return finish(x, *removers, words.named(d.op(e)) + " " + words.before(refused));
    }
    for (const std::uint32_t x : d.semantics().initial) {
      const auto removers = late_removers(x);
      if (!removers) continue;
      return finish(x, *removers, "the " + verbs.object + " starts with " + d.element(x));
    }
    return std::nullopt;
  }
  if (meaning.effect == Effect::read_set) {
    const std::vector<std::uint32_t>& held = meaning.elements;
    const auto holds = [&](std::uint32_t e) { return std::binary_search(held.begin(), held.end(), e); };
    // An element added before the read began, missing from it.
    for (std::size_t a = 0; a < d.size(); ++a) {
      if (!d.in_core(a) || d.meaning(a).effect != Effect::add || !d.op(a).must_take_effect()) continue;
      const std::uint32_t x = d.meaning(a).element;
      if (holds(x) || !words.precedes(d.op(a), refused)) continue;
      shape.name(&d.op(a), WhyRole::cause);
      shape.sentence = words.named(refused) + " read a set without " + d.element(x) + ", which " +
                       words.named(d.op(a)) + " added: it " + words.before(refused) + ", and a set only grows.";
      return shape;
    }
    // An element an earlier read saw, missing from it.
    for (std::size_t e = 0; e < d.size(); ++e) {
      if (e == r || !d.in_core(e) || d.meaning(e).effect != Effect::read_set || !words.precedes(d.op(e), refused)) {
        continue;
      }
      for (const std::uint32_t x : d.meaning(e).elements) {
        if (holds(x)) continue;
        shape.name(&d.op(e), WhyRole::cause);
        shape.sentence = words.named(refused) + " read a set without " + d.element(x) + ", which " +
                         words.named(d.op(e)) + " had read in it: that read " + words.before(refused) +
                         ", and a set only grows.";
        return shape;
      }
    }
    // An element never added (or added only later).
    for (const std::uint32_t x : held) {
      const std::vector<std::size_t> adders = d.with(Effect::add, x);
      if (d.initially_holds(x) || !d.all_late(adders, refused)) continue;
      shape.sentence = words.named(refused) + " read a set holding " + d.element(x) + ", but " +
                       nothing_supplies(d, words, verbs, adders, refused, x, shape) + ".";
      return shape;
    }
    return std::nullopt;
  }
  if (meaning.effect == Effect::acquire) {
    std::vector<std::size_t> releases;
    for (std::size_t i = 0; i < d.size(); ++i) {
      if (d.meaning(i).effect == Effect::release) releases.push_back(i);
    }
    for (std::size_t a = 0; a < d.size(); ++a) {
      if (a == r || !d.in_core(a) || d.meaning(a).effect != Effect::acquire || !d.op(a).must_take_effect()) continue;
      const Operation& first = d.op(a);
      if (!words.precedes(first, refused)) continue;
      const bool none_between = std::all_of(releases.begin(), releases.end(), [&](std::size_t i) {
        return d.in_core(i) && (words.precedes(refused, d.op(i)) || words.precedes(d.op(i), first));
      });
      if (!none_between) continue;
      shape.name(&first, WhyRole::cause);
      for (const std::size_t i : releases) {
        shape.name(&d.op(i), words.precedes(refused, d.op(i)) ? WhyRole::late : WhyRole::source);
      }
      // Both ops are acquires: "the acquire" would not say which, so they go by id.
      const std::string one = "op " + std::to_string(first.id);
      const std::string other = "op " + std::to_string(refused.id);
      shape.sentence =
          words.named(refused) + " took the lock while " + words.named(first) + " held it: " +
          (words.real_time() ? one + " completed before " + other + " began"
                             : one + " came before " + other + " in process " + std::to_string(refused.process)) +
          ", and no release could come between them";
      shape.sentence += releases.empty() ? " (no op releases the lock)."
                                         : " (" + words.ids(d.ops_of(releases)) + " came before or after both).";
      return shape;
    }
    return std::nullopt;
  }
  if (meaning.effect == Effect::release) {
    std::vector<std::size_t> acquires;
    for (std::size_t i = 0; i < d.size(); ++i) {
      if (d.meaning(i).effect == Effect::acquire) acquires.push_back(i);
    }
    if (!d.all_late(acquires, refused)) return std::nullopt;
    shape.name_all(d.ops_of(acquires), WhyRole::late);
    shape.sentence = words.named(refused) + " released a lock no one held: ";
    shape.sentence += acquires.empty()
                          ? "no op acquires it."
                          : "every acquire (" + words.ids(d.ops_of(acquires)) + ") " + words.after(refused) + ".";
    return shape;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Shape> collection_shape(const ShapeInput& in) {
  const models::Semantics* semantics = in.relevance.semantics();
  if (!semantics || semantics->theory == Theory::registers) return std::nullopt;
  const Described described(in);
  // The failing op first: it is the result the report leads with.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < described.size(); ++i) {
    if (!described.in_core(i) || !described.op(i).must_take_effect()) continue;
    if (&described.op(i) == in.failing) {
      order.insert(order.begin(), i);
    } else {
      order.push_back(i);
    }
  }
  for (const std::size_t r : order) {
    if (auto shape = shape_for(described, in.words, r)) return shape;
  }
  // The lock counted: k acquires that took effect need k - 1 releases between them
  // (it starts free), and each release takes effect at most once.
  if (semantics->theory == Theory::mutex) {
    std::vector<const Operation*> acquires;
    std::size_t releases = 0;
    for (std::size_t i = 0; i < described.size(); ++i) {
      const Effect effect = described.meaning(i).effect;
      if (effect == Effect::release) ++releases;
      if (effect == Effect::acquire && described.in_core(i) && described.op(i).must_take_effect()) {
        acquires.push_back(&described.op(i));
      }
    }
    if (acquires.size() >= 2 && releases + 1 < acquires.size()) {
      Shape shape;
      shape.name_all(acquires, WhyRole::refused);
      shape.sentence =
          "The " + std::to_string(acquires.size()) + " acquires of the core (" + in.words.ids(acquires) +
          ") all took the lock, which starts free, so it was released " +
          (acquires.size() == 2 ? std::string("once") : std::to_string(acquires.size() - 1) + " times") +
          " between them, but the history has " +
          (releases == 0 ? std::string("no release.")
                         : "only " + std::to_string(releases) + (releases == 1 ? " release." : " releases."));
      return shape;
    }
  }
  return std::nullopt;
}

}  // namespace ariadne::explain
