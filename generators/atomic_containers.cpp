// Simulated collections: Knossos' grow-only set, unordered queue and FIFO queue, and
// our stack. A removal from an empty queue or stack completes with :fail (it did not
// happen, and the models drop it), as Jepsen's queue clients record an empty dequeue;
// a crashed removal takes what the model's crashed step would (the front, the top, or
// for the unordered queue any element), or nothing from an empty container.
//
// The violation patterns, each on fresh values inserted once and absent from the
// initial state, so no other operation, crashed or not, can supply another copy:
//   set:             add x completes; a read invoked after it returns a set without x.
//                    The set only grows, so x is in it at every point after the add.
//   unordered-queue: enqueue x, then two dequeues, one after the other, both return x.
//                    Any order may hand elements out, but each copy only once.
//   fifo-queue:      enqueue a completes before enqueue b is invoked; a dequeue of b
//                    completes before a dequeue of a is invoked. a is ahead of b, so b
//                    reaches the front only after a left, which only the later dequeue
//                    of a could do (a crashed dequeue taking a leaves none for it).
//   stack:           push a, push b, pop a, pop b, each completing before the next is
//                    invoked. b lies above a when a is popped unless b was popped
//                    before, which only the later pop of b could do (a crashed pop
//                    taking b leaves none for it).
// Only the pattern's removals take the pattern's elements: another removal that finds
// one where it would take it fails (or, in the unordered queue, takes another), so
// that no element is removed twice and the pattern is the history's only violation.
//
// With ContainerOptions::empty_observations (atomic_containers.hpp), a removal that
// finds the container empty completes :ok with :empty instead (models/container_op.hpp),
// and every discipline has one pattern, which rests on such an observation:
//   insert a completes; a removal invoked after that returns :empty; a removal invoked
//   after that returns a. a is fresh and inserted once, so any removal of a before the
//   observation would leave none for the last removal: a is in the container when the
//   observation takes effect, whatever the other operations did.
// The pattern starts when the container is empty, its observation changes nothing in
// the simulation, and its last removal takes a wherever a lies. In the unordered queue
// that is the truth, and the observation the only violation; in a queue or stack,
// elements that were inserted ahead of a (a queue) or pushed on it (a stack) in the
// meantime and not yet removed then stay where they were, so that last removal may
// break the FIFO or LIFO order too, a second violation beside the observation.
#include "generators/atomic_containers.hpp"
#include "generators/atomic_object.hpp"

#include <algorithm>
#include <deque>
#include <set>

namespace ariadne::generators {

namespace {

constexpr std::uint64_t kAddPercent = 50;  // set: the rest are reads
// Queues and stack: more in than out while the container holds fewer elements than
// there are clients, more out than in above that, so it rarely runs dry and stays
// short. A long queue keeps the relative order of every pair of concurrent enqueues
// in it open until they are dequeued, and a backtracking checker must then carry
// every such order: a queue that only grows makes any checker exponential, which is
// not what these histories are for.
constexpr std::uint64_t kInsertPercentWhenShort = 60;
constexpr std::uint64_t kInsertPercentWhenLong = 35;

class SetObject final : public AtomicObject {
 public:
  explicit SetObject(const ObjectContext& context) : random_(context.random), values_(context.values) {
    for (const Value& element : context.init.elements()) state_.insert(element);
  }

  AtomicOp next_op(std::size_t /*slot*/) override {
    if (random_.below(100) < kAddPercent) return add(Value::integer(values_.draw(random_)));
    return read();
  }

  void take_effect(AtomicOp& op) override {
    if (op.f == "add") {
      state_.insert(op.invoke_value);
      op.result = op.invoke_value;
    } else {
      op.result = Value::set(std::vector<Value>(state_.begin(), state_.end()));
    }
  }

  std::size_t pattern_size() const override { return 2; }

  AtomicOp pattern_op(std::size_t step) override {
    if (step == 1) return read();
    x_ = Value::integer(values_.fresh());
    return add(x_);
  }

  std::string break_pattern(std::span<AtomicOp* const> pattern) override {
    AtomicOp& read = *pattern[1];
    std::vector<Value> without_x;
    for (const Value& element : read.result.elements()) {
      if (element != x_) without_x.push_back(element);
    }
    read.result = Value::set(std::move(without_x));
    return "The violation: " + op_name(*pattern[0]) + " adds " + x_.to_edn() + " and completes before " +
           op_name(read) + ", a read, is invoked; the read returns a set without " + x_.to_edn() +
           ". Every order puts the add before the read, and the set only grows, so " + x_.to_edn() +
           " is in it when the read takes effect: not linearizable, whatever the other operations did.";
  }

 private:
  static AtomicOp add(Value value) {
    AtomicOp op;
    op.f = "add";
    op.invoke_value = std::move(value);
    return op;
  }

  static AtomicOp read() {
    AtomicOp op;
    op.f = "read";
    return op;
  }

  SeededRandom& random_;
  ValueSource& values_;
  std::set<Value> state_;
  Value x_;  // the pattern's element
};

enum class Discipline : std::uint8_t { unordered, fifo, lifo };

class ContainerObject final : public AtomicObject {
 public:
  ContainerObject(const ObjectContext& context, const ContainerOptions& options)
      : empty_observations_(options.empty_observations),
        random_(context.random),
        values_(context.values),
        short_length_(context.processes),
        discipline_(context.model.name() == "stack"        ? Discipline::lifo
                    : context.model.name() == "fifo-queue" ? Discipline::fifo
                                                           : Discipline::unordered),
        insert_(discipline_ == Discipline::lifo ? "push" : "enqueue"),
        remove_(discipline_ == Discipline::lifo ? "pop" : "dequeue") {
    for (const Value& element : context.init.elements()) state_.push_back(element);
  }

  AtomicOp next_op(std::size_t /*slot*/) override {
    const std::uint64_t insert_percent =
        state_.size() < short_length_ ? kInsertPercentWhenShort : kInsertPercentWhenLong;
    if (random_.below(100) < insert_percent) return insert(Value::integer(values_.draw(random_)));
    return remove();
  }

  void take_effect(AtomicOp& op) override {
    if (op.f == insert_) {
      state_.push_back(op.invoke_value);
      op.result = op.invoke_value;
      return;
    }
    if (empty_observations_ && op.pattern_step) {
      take_empty_pattern_effect(op);
      return;
    }
    if (state_.empty()) {
      if (empty_observations_) {
        op.result = kEmpty();
      } else {
        op.completion = EventType::fail;
      }
      return;
    }
    std::size_t index = 0;
    switch (discipline_) {
      case Discipline::fifo: index = 0; break;
      case Discipline::lifo: index = state_.size() - 1; break;
      case Discipline::unordered: index = unordered_choice(op); break;
    }
    // The pattern's elements are the pattern's removals' to take: break_pattern() gives
    // those removals their results, and another removal that took one too would add a
    // second, smaller violation (the element removed twice). Such a removal takes
    // another element where the model lets it (the unordered queue), or else fails,
    // as one on an empty container does (a crashed one does nothing).
    if (!op.pattern_step && is_pattern_element(state_[index])) {
      if (discipline_ == Discipline::unordered) {
        for (std::size_t i = 0; i < state_.size(); ++i) {
          if (!is_pattern_element(state_[i])) index = i;
        }
      }
      if (is_pattern_element(state_[index])) {
        op.completion = EventType::fail;
        return;
      }
    }
    op.result = state_[index];
    state_.erase(state_.begin() + static_cast<std::ptrdiff_t>(index));
  }

  std::size_t pattern_size() const override {
    return discipline_ == Discipline::unordered || empty_observations_ ? 3 : 4;
  }

  bool pattern_may_start() const override { return !empty_observations_ || state_.empty(); }

  AtomicOp pattern_op(std::size_t step) override {
    if (discipline_ == Discipline::unordered || empty_observations_) {
      if (step > 0) return remove();
      a_ = Value::integer(values_.fresh());
      return insert(a_);
    }
    if (step >= 2) return remove();
    Value& value = step == 0 ? a_ : b_;
    value = Value::integer(values_.fresh());
    return insert(value);
  }

  std::string break_pattern(std::span<AtomicOp* const> pattern) override {
    if (empty_observations_) return break_empty(pattern);
    switch (discipline_) {
      case Discipline::unordered: return break_unordered(pattern);
      case Discipline::fifo: return break_fifo(pattern);
      case Discipline::lifo: break;
    }
    return break_lifo(pattern);
  }

 private:
  static Value kEmpty() { return Value::keyword("empty"); }

  // The empty pattern's removals (see the header): the observation changes nothing,
  // and its result is broken afterwards; the last removal takes a, which no other
  // removal takes, wherever it lies.
  void take_empty_pattern_effect(AtomicOp& op) {
    if (op.pattern_step == 1) {
      op.result = state_.empty() ? kEmpty() : state_.front();
      return;
    }
    const auto at = std::find(state_.begin(), state_.end(), a_);
    op.result = a_;
    if (at != state_.end()) state_.erase(at);
  }

  std::string break_empty(std::span<AtomicOp* const> pattern) {
    returns(*pattern[1], kEmpty());
    returns(*pattern[2], a_);
    const std::string a = a_.to_edn();
    const std::string object = discipline_ == Discipline::lifo ? "stack" : "queue";
    return "The violation: " + op_name(*pattern[0]) + " " + insert_ + (insert_ == "push" ? "es " : "s ") + a +
           " and completes before " + op_name(*pattern[1]) + " is invoked, which finds the " + object + " empty; " +
           op_name(*pattern[2]) + ", invoked after that completed, " + remove_ + "s " + a + ". " + a +
           " is fresh and " + (insert_ == "push" ? "pushed" : "enqueued") +
           " once, so a removal of it before the observation would leave none for the later one: " + a + " is in the " +
           object +
           " when the observation takes effect. Not linearizable, whatever the other "
           "operations did.";
  }

  // Any element will do; the pattern's first dequeue takes the pattern's element if it
  // is still there, so that usually only the second dequeue needs changing.
  std::size_t unordered_choice(const AtomicOp& op) {
    if (op.pattern_step == 1) {
      for (std::size_t i = 0; i < state_.size(); ++i) {
        if (state_[i] == a_) return i;
      }
    }
    return random_.below(state_.size());
  }

  bool is_pattern_element(const Value& element) const {
    return (!a_.is_nil() && element == a_) || (!b_.is_nil() && element == b_);
  }

  static void returns(AtomicOp& op, const Value& value) {
    op.completion = EventType::ok;
    op.result = value;
  }

  std::string break_unordered(std::span<AtomicOp* const> pattern) {
    const AtomicOp& enqueue = *pattern[0];
    AtomicOp& first = *pattern[1];
    AtomicOp& second = *pattern[2];
    const bool first_took_it = first.completion == EventType::ok && first.result == a_;
    returns(first, a_);
    returns(second, a_);
    const std::string x = a_.to_edn();
    return "The violation: " + op_name(enqueue) + " enqueues " + x + "; " + op_name(first) + " and then " +
           op_name(second) + " (invoked after the first completed) both dequeue " + x +
           (first_took_it ? "" : " (the first was changed too: another dequeue had taken it)") + ". " + x +
           " is fresh and enqueued once; an unordered queue may hand its elements out in any order, but each copy "
           "only once, so no order explains two dequeues of it (the two dequeues alone prove it, wherever the "
           "enqueue took effect): not linearizable, whatever the other operations did.";
  }

  std::string break_fifo(std::span<AtomicOp* const> pattern) {
    returns(*pattern[2], b_);
    returns(*pattern[3], a_);
    const std::string a = a_.to_edn();
    const std::string b = b_.to_edn();
    return "The violation: " + op_name(*pattern[0]) + " enqueues " + a + " and completes before " +
           op_name(*pattern[1]) + " enqueues " + b + "; " + op_name(*pattern[2]) + ", invoked after that, dequeues " +
           b + " and completes before " + op_name(*pattern[3]) + " dequeues " + a +
           ". Both are fresh and enqueued "
           "once, so every order puts " +
           a + " ahead of " + b + ", and " + b + " reaches the front only after " + a +
           " left the queue: only the later dequeue returns " + a + ", and a crashed dequeue that took " + a +
           " would leave none for it. Not linearizable, whatever the other operations did.";
  }

  std::string break_lifo(std::span<AtomicOp* const> pattern) {
    returns(*pattern[2], a_);
    returns(*pattern[3], b_);
    const std::string a = a_.to_edn();
    const std::string b = b_.to_edn();
    return "The violation: " + op_name(*pattern[0]) + " pushes " + a + ", then " + op_name(*pattern[1]) + " pushes " +
           b + ", then " + op_name(*pattern[2]) + " pops " + a + ", then " + op_name(*pattern[3]) + " pops " + b +
           ", each completing before the next is invoked. Both are fresh and pushed once, so every "
           "order has " +
           b + " above " + a + " when " + a + " is popped unless " + b +
           " was popped before: only the "
           "later pop returns " +
           b + ", and a crashed pop that took " + b +
           " would leave none for it. Not "
           "linearizable, whatever the other operations did.";
  }

  AtomicOp insert(Value value) const {
    AtomicOp op;
    op.f = insert_;
    op.invoke_value = std::move(value);
    return op;
  }

  AtomicOp remove() const {
    AtomicOp op;
    op.f = remove_;
    return op;
  }

  bool empty_observations_;
  SeededRandom& random_;
  ValueSource& values_;
  std::size_t short_length_;  // below this many elements, inserts outnumber removals
  Discipline discipline_;
  std::string insert_;
  std::string remove_;
  std::deque<Value> state_;  // front (fifo) or bottom (stack) first
  Value a_;                  // the pattern's elements: the first inserted, and the second
  Value b_;
};

}  // namespace

std::unique_ptr<AtomicObject> make_set_object(const ObjectContext& context) {
  return std::make_unique<SetObject>(context);
}

std::unique_ptr<AtomicObject> make_container_object(const ObjectContext& context, const ContainerOptions& options) {
  return std::make_unique<ContainerObject>(context, options);
}

}  // namespace ariadne::generators
