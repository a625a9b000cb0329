// Priority queues: `priority-queue` hands out the lowest priority first, as Java's
// PriorityQueue and C++'s std::priority_queue with std::greater; `max-priority-queue`
// the highest first, as the priority queues of Lee and Mathur's fastlin and of fptlin
// (their poll takes the largest value). The ops:
//   :insert [p x]  adds element x with priority p (an integer); :insert n means [n n],
//                  an element that is its own priority, as in fastlin's histories
//   :poll x        removes x, legal only while x has the top priority (among elements
//                  of equal priority, any may go first)
//   :peek x        the same without removing it
//   :poll :empty, :peek :empty
//                  found the queue empty: legal only while it is empty, changes
//                  nothing (an observation, as fastlin's -1 and Violin's `return empty`;
//                  JSON's "empty" is the same, as for the containers: container_op.hpp)
// Crashed ops: an insert applies; a poll whose result is unknown removes one of the
// elements of top priority (one successor per distinct one), or nothing from an empty
// queue, where it is the same as not taking effect; a peek changes nothing either way.
// A :fail never happened. The initial state, if given, is a vector of entries.
//
// A state is the sorted list (with repeats) of its entries' ids, an entry being an
// interned (priority, element) pair, ordered by priority and then id, so that the same
// multiset always interns to the same state; the top priority's entries sit together
// at one end.
#include "models/builtin_model.hpp"
#include "models/container_op.hpp"
#include "models/content_table.hpp"
#include "models/model_factories.hpp"
#include "models/step_cache.hpp"
#include "models/value_table.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <map>
#include <utility>

namespace ariadne::models {

namespace {

// `highest_first`: which end the top is at.
struct PriorityQueueKind {
  std::string_view name;
  bool highest_first;
};

constexpr PriorityQueueKind kLowestFirst{"priority-queue", false};
constexpr PriorityQueueKind kHighestFirst{"max-priority-queue", true};

// An insert's value as (priority, element); nullopt when it has neither shape.
std::optional<std::pair<std::int64_t, Value>> read_entry(const Value& v) {
  if (v.is_integer()) return std::pair{v.as_integer(), v};
  if (is_pair(v) && v.elements()[0].is_integer()) return std::pair{v.elements()[0].as_integer(), v.elements()[1]};
  return std::nullopt;
}

enum class Step : std::uint8_t {
  any,       // changes nothing, legal anywhere: a :fail, a crashed peek
  insert,    // adds entry `id`
  poll,      // removes the top entry whose element is `id`
  peek,      // observes that element `id` has the top priority
  empty,     // a poll or peek that found the queue empty
  poll_any,  // a crashed poll: removes one of the top entries
  never,     // legal nowhere
};

struct PqOp {
  Step step = Step::any;
  std::uint32_t id = 0;  // insert: an entry; poll, peek: an element
};

class CompiledPriorityQueue final : public CompiledModel {
 public:
  CompiledPriorityQueue(const PriorityQueueKind& kind, const Value& init, std::span<const Operation* const> ops)
      : highest_first_(kind.highest_first) {
    for (const Value& entry : init.elements()) scratch_.push_back(intern_entry(*read_entry(entry)));
    sort(scratch_);
    initial_ = states_.intern(scratch_);
    ops_.reserve(ops.size());
    for (const Operation* op : ops) ops_.push_back(translate(*op));
  }

  StateId initial() override { return initial_; }

  void step(StateId state, std::uint32_t op, std::vector<StateId>& next) override {
    const PqOp& o = ops_[op];
    const auto id = static_cast<std::uint32_t>(state);
    switch (o.step) {
      case Step::any: next.push_back(state); break;
      case Step::insert: cache_.append_successor(state, op, next, [&] { return insert(id, o.id); }); break;
      case Step::poll: cache_.append_successor(state, op, next, [&] { return poll(id, o.id); }); break;
      case Step::peek:
        if (top_holds(id, o.id)) next.push_back(state);
        break;
      case Step::empty:
        if (states_.at(id).empty()) next.push_back(state);
        break;
      case Step::poll_any: poll_each(id, next); break;
      case Step::never: break;
    }
  }

  std::string describe_state(StateId state) const override {
    // Top first, each entry as [priority element], or as the integer that is both;
    // equal priorities by element, so that the same multiset always reads the same.
    std::vector<std::pair<std::int64_t, Value>> sorted;
    for (const std::uint32_t entry : states_.at(static_cast<std::uint32_t>(state))) {
      sorted.emplace_back(priorities_[entry], values_.at(elements_[entry]));
    }
    std::ranges::sort(sorted, [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
    if (highest_first_) std::ranges::reverse(sorted);
    std::vector<Value> entries;
    for (const auto& [priority, element] : sorted) {
      const Value p = Value::integer(priority);
      entries.push_back(element == p ? p : Value::vector({p, element}));
    }
    return Value::vector(std::move(entries)).to_edn();
  }

  std::size_t memory_bytes() const override {
    return values_.memory_bytes() + states_.memory_bytes() + cache_.memory_bytes() +
           priorities_.capacity() * sizeof(std::int64_t) + elements_.capacity() * sizeof(std::uint32_t) +
           entry_ids_.size() * (sizeof(std::pair<std::int64_t, std::uint32_t>) + 4 * sizeof(void*)) +
           scratch_.capacity() * sizeof(std::uint32_t);
  }

 private:
  PqOp translate(const Operation& op) {
    if (op.status == OpStatus::failed) return {Step::any};  // never happened
    if (is_f(op, "insert")) return {Step::insert, intern_entry(*read_entry(op.value))};
    const bool poll = is_f(op, "poll");
    if (!poll && !is_f(op, "peek")) return {Step::never};
    if (op.status == OpStatus::crashed) return {poll ? Step::poll_any : Step::any};
    if (is_empty_marker(op.value)) return {Step::empty};
    return {poll ? Step::poll : Step::peek, values_.intern(op.value)};
  }

  std::uint32_t intern_entry(const std::pair<std::int64_t, Value>& entry) {
    const std::uint32_t element = values_.intern(entry.second);
    auto [it, inserted] =
        entry_ids_.try_emplace({entry.first, element}, static_cast<std::uint32_t>(priorities_.size()));
    if (inserted) {
      priorities_.push_back(entry.first);
      elements_.push_back(element);
    }
    return it->second;
  }

  void sort(std::vector<std::uint32_t>& entries) const {
    std::ranges::sort(entries, [this](std::uint32_t a, std::uint32_t b) { return before(a, b); });
  }
  bool before(std::uint32_t a, std::uint32_t b) const {
    return priorities_[a] != priorities_[b] ? priorities_[a] < priorities_[b] : a < b;
  }

  // The positions [first, last) of the top priority's entries in `entries` (sorted).
  std::pair<std::size_t, std::size_t> top_range(std::span<const std::uint32_t> entries) const {
    if (entries.empty()) return {0, 0};
    if (highest_first_) {
      std::size_t first = entries.size() - 1;
      while (first > 0 && priorities_[entries[first - 1]] == priorities_[entries.back()]) --first;
      return {first, entries.size()};
    }
    std::size_t last = 1;
    while (last < entries.size() && priorities_[entries[last]] == priorities_[entries.front()]) ++last;
    return {0, last};
  }

  bool top_holds(std::uint32_t state, std::uint32_t element) const {
    const auto entries = states_.at(state);
    const auto [first, last] = top_range(entries);
    for (std::size_t i = first; i < last; ++i) {
      if (elements_[entries[i]] == element) return true;
    }
    return false;
  }

  StateId insert(std::uint32_t state, std::uint32_t entry) {
    const auto entries = states_.at(state);
    const auto position =
        std::ranges::upper_bound(entries, entry, [this](std::uint32_t a, std::uint32_t b) { return before(a, b); });
    scratch_.assign(entries.begin(), position);
    scratch_.push_back(entry);
    scratch_.insert(scratch_.end(), position, entries.end());
    return states_.intern(scratch_);
  }

  StateId poll(std::uint32_t state, std::uint32_t element) {
    const auto entries = states_.at(state);
    const auto [first, last] = top_range(entries);
    for (std::size_t i = first; i < last; ++i) {
      if (elements_[entries[i]] == element) return remove_at(state, i);
    }
    return StepCache::kNoSuccessor;
  }

  void poll_each(std::uint32_t state, std::vector<StateId>& next) {
    const auto [first, last] = top_range(states_.at(state));
    // Index-based: interning may move the arena under a span of the state.
    for (std::size_t i = first; i < last; ++i) {
      const auto entries = states_.at(state);
      if (i > first && entries[i] == entries[i - 1]) continue;  // one successor per distinct entry
      next.push_back(remove_at(state, i));
    }
  }

  StateId remove_at(std::uint32_t state, std::size_t index) {
    const auto entries = states_.at(state);
    scratch_.assign(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(index));
    scratch_.insert(scratch_.end(), entries.begin() + static_cast<std::ptrdiff_t>(index) + 1, entries.end());
    return states_.intern(scratch_);
  }

  bool highest_first_;
  ValueTable values_;
  std::map<std::pair<std::int64_t, std::uint32_t>, std::uint32_t> entry_ids_;  // (priority, element) -> entry
  std::vector<std::int64_t> priorities_;                                       // per entry
  std::vector<std::uint32_t> elements_;                                        // per entry
  ContentTable<std::uint32_t> states_;
  StepCache cache_;
  std::vector<PqOp> ops_;
  std::vector<std::uint32_t> scratch_;
  std::uint32_t initial_ = 0;
};

class PriorityQueueModel final : public BuiltinModel {
 public:
  PriorityQueueModel(const PriorityQueueKind& kind, Value init)
      : BuiltinModel(kind.name), kind_(kind), init_(std::move(init)) {}

  std::string spec() const override { return spec_with_init(name(), init_); }

  std::optional<std::string> check_operation(const Operation& op) const override {
    if (is_f(op, "poll") || is_f(op, "peek")) return std::nullopt;
    if (!is_f(op, "insert")) return unknown_operation(op, {"insert", "poll", "peek"});
    if (!value_matters(op)) return std::nullopt;
    const auto entry = read_entry(op.value);
    if (!entry) return bad_value(op, "an integer priority or [priority element]");
    // Reserved: a poll or peek of :empty says the queue was empty.
    if (is_empty_marker(entry->second)) return bad_value(op, "an element other than :empty, which marks an empty poll");
    return std::nullopt;
  }

  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    return std::make_unique<CompiledPriorityQueue>(kind_, init_, ops);
  }

  // The same reading as CompiledPriorityQueue::translate(), in the encoder's terms:
  // element ids for what polls and peeks return, each insert's priority as an urgency
  // (Semantics::initial_urgency).
  std::optional<Semantics> semantics(std::span<const Operation* const> ops) const override {
    ValueTable values;
    Semantics s;
    s.theory = Theory::priority_queue;
    const auto urgency = [this](std::int64_t priority) { return kind_.highest_first ? priority : ~priority; };
    for (const Value& entry : init_.elements()) {
      const auto [priority, element] = *read_entry(entry);
      s.initial.push_back(values.intern(element));
      s.initial_urgency.push_back(urgency(priority));
    }
    s.ops.reserve(ops.size());  // one meaning per op: never moved again
    for (const Operation* op : ops) {
      OpMeaning& m = s.ops.emplace_back();
      m.must_take_effect = op->status == OpStatus::ok;
      const bool poll = is_f(*op, "poll");
      if (op->status == OpStatus::failed) {
        m.effect = Effect::none;  // never happened
      } else if (is_f(*op, "insert")) {
        const auto [priority, element] = *read_entry(op->value);
        m.effect = Effect::insert;
        m.element = values.intern(element);
        m.urgency = urgency(priority);
      } else if (!poll && !is_f(*op, "peek")) {
        m.effect = Effect::impossible;  // check_operation rejects these beforehand
      } else if (op->status == OpStatus::crashed) {
        m.effect = poll ? Effect::remove_any : Effect::none;
      } else if (is_empty_marker(op->value)) {
        m.effect = Effect::remove_empty;
      } else {
        m.effect = poll ? Effect::remove : Effect::peek;
        m.element = values.intern(op->value);
      }
    }
    name_values(s, values);
    return s;
  }

 private:
  PriorityQueueKind kind_;
  Value init_;  // a vector of entries
};

std::unique_ptr<Model> make(const PriorityQueueKind& kind, const Value& init) {
  if (init.is_nil()) return std::make_unique<PriorityQueueModel>(kind, Value::vector({}));
  if (!init.is_sequential()) reject_init(kind.name, "a vector of entries, each [priority element] or an integer", init);
  for (const Value& entry : init.elements()) {
    const auto read = read_entry(entry);
    if (!read || is_empty_marker(read->second)) {
      reject_init(kind.name, "a vector of entries, each [priority element] or an integer", init);
    }
  }
  return std::make_unique<PriorityQueueModel>(kind, Value::vector(init.elements()));
}

}  // namespace

std::unique_ptr<Model> make_priority_queue(const Value& init) { return make(kLowestFirst, init); }
std::unique_ptr<Model> make_max_priority_queue(const Value& init) { return make(kHighestFirst, init); }

}  // namespace ariadne::models
