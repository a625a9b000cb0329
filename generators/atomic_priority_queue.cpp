// A simulated priority queue (priority-queue, lowest first; max-priority-queue,
// highest first). Each insert gives its element a priority drawn from a small range,
// so that equal priorities meet; with --values unique instead each insert is a fresh
// integer that is its own priority (`:insert n`, as fastlin's histories), every
// priority distinct, the histories the unique-value engine decides
// (search/unique_priority_queue.cpp); a poll takes one of the top entries at random, or
// completes with :empty on an empty queue (an observation the models check, as
// fastlin's -1); a peek returns a top element, or :empty; a crashed poll takes a top
// entry, or nothing from an empty queue.
//
// The violation pattern, on fresh elements inserted once and absent from the initial
// state: insert [P a], then insert [Q b] with Q ahead of P (lower, or higher for
// max-priority-queue; with unique values a and b are their own priorities), then a poll of a, then a poll of b, each
// completing before the next is invoked. b is in the queue from its insert until the only poll that returns it, which
// comes after the poll of a (a crashed poll that took b would leave none for it), so b is there, ahead of a, when a is
// polled. Only the pattern's polls take the pattern's elements: another poll that finds one on top fails (a crashed one
// does nothing), so no element is removed twice and the pattern is the history's only violation. The pattern's polls
// take their elements in the simulation too, so that what the other ops see agrees with the broken results.
#include "generators/atomic_object.hpp"

#include <algorithm>
#include <vector>

namespace ariadne::generators {

namespace {

constexpr std::uint64_t kPriorities = 8;  // priorities drawn from 0..7
constexpr std::uint64_t kPeekPercent = 20;
// As the containers (atomic_containers.cpp): more in than out while the queue is
// short, more out than in when long, so it stays short and rarely runs dry.
constexpr std::uint64_t kInsertPercentWhenShort = 60;
constexpr std::uint64_t kInsertPercentWhenLong = 35;

struct Entry {
  std::int64_t priority = 0;
  Value element;
};

class PriorityQueueObject final : public AtomicObject {
 public:
  explicit PriorityQueueObject(const ObjectContext& context)
      : random_(context.random),
        values_(context.values),
        short_length_(context.processes),
        highest_first_(context.model.name() == "max-priority-queue") {
    for (const Value& entry : context.init.elements()) {
      if (entry.is_integer()) {
        state_.push_back({entry.as_integer(), entry});
      } else {
        state_.push_back({entry.elements()[0].as_integer(), entry.elements()[1]});
      }
    }
  }

  AtomicOp next_op(std::size_t /*slot*/) override {
    const std::uint64_t insert_percent =
        state_.size() < short_length_ ? kInsertPercentWhenShort : kInsertPercentWhenLong;
    const std::uint64_t draw = random_.below(100);
    if (draw < kPeekPercent) return named("peek");
    if (draw - kPeekPercent < insert_percent * (100 - kPeekPercent) / 100) {
      if (values_.unique()) return insert_own_priority(values_.fresh());
      return insert(static_cast<std::int64_t>(random_.below(kPriorities)), Value::integer(values_.draw(random_)));
    }
    return named("poll");
  }

  void take_effect(AtomicOp& op) override {
    if (op.f == "insert") {
      const Value& v = op.invoke_value;
      state_.push_back(v.is_integer() ? Entry{v.as_integer(), v}
                                      : Entry{v.elements()[0].as_integer(), v.elements()[1]});
      op.result = op.invoke_value;
      return;
    }
    if (op.pattern_step) {  // the pattern's polls: a, then b (break_pattern)
      const Value& element = *op.pattern_step == 2 ? a_ : b_;
      std::erase_if(state_, [&](const Entry& e) { return e.element == element; });
      op.result = element;
      return;
    }
    if (state_.empty()) {
      op.result = Value::keyword("empty");
      return;
    }
    const std::size_t index = top_choice();
    if (op.f == "peek") {
      op.result = state_[index].element;
      return;
    }
    if (is_pattern_element(state_[index].element)) {
      op.completion = EventType::fail;  // see the header: only the pattern's polls take them
      return;
    }
    op.result = state_[index].element;
    state_.erase(state_.begin() + static_cast<std::ptrdiff_t>(index));
  }

  std::size_t pattern_size() const override { return 4; }

  AtomicOp pattern_op(std::size_t step) override {
    if (step >= 2) return named("poll");
    if (values_.unique()) {
      // Fresh values grow: b is drawn first where the lowest goes first.
      if (step == 0) {
        const std::int64_t first = values_.fresh();
        const std::int64_t second = values_.fresh();
        a_ = Value::integer(highest_first_ ? first : second);
        b_ = Value::integer(highest_first_ ? second : first);
      }
      return insert_own_priority((step == 0 ? a_ : b_).as_integer());
    }
    const std::int64_t later = highest_first_ ? 3 : 4;  // a's priority; b's is one ahead
    Value& element = step == 0 ? a_ : b_;
    element = Value::integer(values_.fresh());
    return insert(step == 0 ? later : (highest_first_ ? later + 1 : later - 1), element);
  }

  std::string break_pattern(std::span<AtomicOp* const> pattern) override {
    for (std::size_t step = 2; step < 4; ++step) {
      pattern[step]->completion = EventType::ok;
      pattern[step]->result = step == 2 ? a_ : b_;
    }
    const std::string a = a_.to_edn();
    const std::string b = b_.to_edn();
    const std::string ahead = highest_first_ ? "a higher" : "a lower";
    return "The violation: " + op_name(*pattern[0]) + " inserts " + a + ", then " + op_name(*pattern[1]) + " inserts " +
           b + " with " + ahead + " priority, then " + op_name(*pattern[2]) + " polls " + a + ", then " +
           op_name(*pattern[3]) + " polls " + b +
           ", each completing before the next is invoked. Both are fresh and inserted once, so " + b +
           " is in the queue, ahead of " + a +
           ", from its insert until the later poll returns it (a crashed poll "
           "that took " +
           b + " would leave none for it): no order polls " + a +
           " while it is there. Not linearizable, whatever the other operations did.";
  }

 private:
  // One of the entries of top priority, at random.
  std::size_t top_choice() {
    std::int64_t top = state_.front().priority;
    for (const Entry& e : state_) top = highest_first_ ? std::max(top, e.priority) : std::min(top, e.priority);
    std::vector<std::size_t> tops;
    for (std::size_t i = 0; i < state_.size(); ++i) {
      if (state_[i].priority == top) tops.push_back(i);
    }
    return tops[random_.below(tops.size())];
  }

  bool is_pattern_element(const Value& element) const {
    return (!a_.is_nil() && element == a_) || (!b_.is_nil() && element == b_);
  }

  static AtomicOp insert(std::int64_t priority, Value element) {
    AtomicOp op;
    op.f = "insert";
    op.invoke_value = Value::vector({Value::integer(priority), std::move(element)});
    return op;
  }

  static AtomicOp insert_own_priority(std::int64_t n) {
    AtomicOp op;
    op.f = "insert";
    op.invoke_value = Value::integer(n);
    return op;
  }

  static AtomicOp named(const char* f) {
    AtomicOp op;
    op.f = f;
    return op;
  }

  SeededRandom& random_;
  ValueSource& values_;
  std::size_t short_length_;  // below this many entries, inserts outnumber polls
  bool highest_first_;
  std::vector<Entry> state_;
  Value a_;  // the pattern's elements: polled out of order
  Value b_;
};

}  // namespace

std::unique_ptr<AtomicObject> make_priority_queue_object(const ObjectContext& context) {
  return std::make_unique<PriorityQueueObject>(context);
}

}  // namespace ariadne::generators
