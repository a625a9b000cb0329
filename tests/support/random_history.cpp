#include "support/random_history.hpp"

#include <map>
#include <string_view>

namespace ariadne::testing {

namespace {

Value kw(const char* s) { return Value::keyword(s); }
Value num(std::int64_t i) { return Value::integer(i); }

struct OpDraw {
  std::string f;
  Value invoke_value;
  Value ok_value;
  Value key;
};

int pick(std::mt19937_64& rng, int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

OpDraw draw(const std::string& model, std::mt19937_64& rng) {
  if (model == "register(0)" || model == "cas-register(0)") {
    int choice = pick(rng, model == "register(0)" ? 2 : 3);
    if (choice == 0) {
      Value v = num(pick(rng, 3));
      return {"write", v, v, {}};
    }
    if (choice == 1) return {"read", Value(), pick(rng, 5) == 0 ? Value() : num(pick(rng, 3)), {}};
    Value v = Value::vector({num(pick(rng, 3)), num(pick(rng, 3))});
    return {"cas", v, v, {}};
  }
  if (model == "etcd") {
    int choice = pick(rng, 3);
    if (choice == 0) {
      Value v = num(pick(rng, 3));
      return {"write", v, v, {}};
    }
    if (choice == 1) return {"read", Value(), pick(rng, 4) == 0 ? Value() : num(pick(rng, 3)), {}};
    Value v = Value::vector({num(pick(rng, 3)), num(pick(rng, 3))});
    return {"cas", v, v, {}};
  }
  if (model == "mutex()") {
    return {pick(rng, 2) ? "acquire" : "release", Value(), Value(), {}};
  }
  if (model == "set()") {
    if (pick(rng, 2)) {
      Value v = num(pick(rng, 3));
      return {"add", v, v, {}};
    }
    std::vector<Value> elems;
    for (int i = 0; i < 3; ++i) {
      if (pick(rng, 2)) elems.push_back(num(i));
    }
    return {"read", Value(), Value::set(elems), {}};
  }
  if (model == "unordered-queue()" || model == "fifo-queue()" || model == "stack()") {
    bool stack = model == "stack()";
    if (pick(rng, 2)) {
      Value v = num(pick(rng, 3));
      return {stack ? "push" : "enqueue", v, v, {}};
    }
    return {stack ? "pop" : "dequeue", Value(), num(pick(rng, 3)), {}};
  }
  if (model == "priority-queue()" || model == "max-priority-queue()") {
    // Three priorities and three elements: equal priorities, and elements inserted
    // twice, with the same priority or another, are common.
    const int choice = pick(rng, 5);
    if (choice < 2) {
      Value v = Value::vector({num(pick(rng, 3)), num(pick(rng, 3))});
      return {"insert", v, v, {}};
    }
    return {choice < 4 ? "poll" : "peek", Value(), num(pick(rng, 3)), {}};
  }
  if (model == "multi-register({:x 0 :y 0})") {
    std::vector<Value> micro_invoke, micro_ok;
    int n = 1 + pick(rng, 2);
    for (int i = 0; i < n; ++i) {
      Value k = pick(rng, 2) ? kw("x") : kw("y");
      if (pick(rng, 2)) {
        Value v = num(pick(rng, 2));
        micro_invoke.push_back(Value::vector({kw("write"), k, v}));
        micro_ok.push_back(Value::vector({kw("write"), k, v}));
      } else {
        micro_invoke.push_back(Value::vector({kw("read"), k, Value()}));
        micro_ok.push_back(Value::vector({kw("read"), k, num(pick(rng, 2))}));
      }
    }
    return {"txn", Value::vector(micro_invoke), Value::vector(micro_ok), {}};
  }
  if (model == "kv") {
    Value key = Value::string(pick(rng, 2) ? "a" : "b");
    int choice = pick(rng, 3);
    const char* words[] = {"x", "y"};
    if (choice == 0) {
      Value v = Value::string(words[pick(rng, 2)]);
      return {"put", v, v, key};
    }
    if (choice == 1) {
      Value v = Value::string(words[pick(rng, 2)]);
      return {"append", v, v, key};
    }
    const char* reads[] = {"", "x", "y", "xy", "yx", "xx"};
    return {"get", Value(), Value::string(reads[pick(rng, 6)]), key};
  }
  return {"read", Value(), Value(), {}};
}

// What unique_values draws from, per key (0 for an object without keys): the values
// written so far. Each new value is one more than the last, from 1, so a register's
// initial 0 is never written again.
class WrittenValues {
 public:
  struct Written {
    int key = 0;
    Value value;
  };

  Value new_integer(int key) { return remember(key, num(next_++)); }
  Value new_string(int key) { return remember(key, Value::string("v" + std::to_string(next_++))); }
  const std::vector<Value>& written(int key) { return by_key_[key]; }
  // A value no op writes: one in eight reads and removals return one.
  static bool never_written(std::mt19937_64& rng) { return pick(rng, 8) == 0; }
  // A value written on `key` or `initial`, or now and then one never written.
  Value seen_or(int key, const Value& initial, std::mt19937_64& rng) {
    if (never_written(rng)) return num(-1);
    const std::vector<Value>& seen = written(key);
    const int choice = pick(rng, static_cast<int>(seen.size()) + 1);
    return choice == 0 ? initial : seen[choice - 1];
  }
  // A removal's result: a value written, now and then one never written, and one
  // time in three one removed before (removed twice, which only a value written
  // twice, as by a crashed duplicate, can explain).
  Value removed(int key, std::mt19937_64& rng) {
    std::vector<Value>& before = removed_[key];
    const std::vector<Value>& seen = written(key);
    Value v;
    if (!before.empty() && pick(rng, 3) == 0) {
      v = before[pick(rng, static_cast<int>(before.size()))];
    } else {
      v = seen.empty() || never_written(rng) ? num(-1) : seen[pick(rng, static_cast<int>(seen.size()))];
    }
    before.push_back(v);
    return v;
  }
  // What the draws since start_draw() wrote.
  void start_draw() { drawn_.clear(); }
  const std::vector<Written>& drawn() const { return drawn_; }
  // Values written again by a crashed duplicate: reads and removals return them
  // three times as often as others from now on, since a duplicate no op observes
  // cannot matter.
  void written_again(const std::vector<Written>& values) {
    for (const Written& w : values) by_key_[w.key].insert(by_key_[w.key].end(), 2, w.value);
  }

 private:
  Value remember(int key, Value v) {
    by_key_[key].push_back(v);
    drawn_.push_back({key, v});
    return v;
  }
  std::int64_t next_ = 1;
  std::map<int, std::vector<Value>> by_key_;
  std::map<int, std::vector<Value>> removed_;
  std::vector<Written> drawn_;
};

// draw() for RandomHistoryShape::unique_values: the same ops, with new values
// written and reads of values written.
OpDraw draw_unique(const std::string& model, std::mt19937_64& rng, WrittenValues& values) {
  if (model == "register(0)" || model == "cas-register(0)" || model == "etcd") {
    const Value initial = model == "etcd" ? Value() : num(0);
    const int choice = pick(rng, model == "register(0)" ? 2 : 3);
    if (choice == 0) {
      Value v = values.new_integer(0);
      return {"write", v, v, {}};
    }
    if (choice == 1) return {"read", Value(), values.seen_or(0, initial, rng), {}};
    Value old = values.seen_or(0, initial, rng);
    Value v = Value::vector({old, values.new_integer(0)});
    return {"cas", v, v, {}};
  }
  if (model == "set()") {
    if (pick(rng, 2)) {
      Value v = values.new_integer(0);
      return {"add", v, v, {}};
    }
    std::vector<Value> elems;
    for (const Value& v : values.written(0)) {
      if (pick(rng, 2)) elems.push_back(v);
    }
    if (WrittenValues::never_written(rng)) elems.push_back(num(-1));
    return {"read", Value(), Value::set(elems), {}};
  }
  if (model == "unordered-queue()" || model == "fifo-queue()" || model == "stack()") {
    const bool stack = model == "stack()";
    if (pick(rng, 2)) {
      Value v = values.new_integer(0);
      return {stack ? "push" : "enqueue", v, v, {}};
    }
    return {stack ? "pop" : "dequeue", Value(), values.removed(0, rng), {}};
  }
  if (model == "multi-register({:x 0 :y 0})") {
    std::vector<Value> micro_invoke, micro_ok;
    const int n = 1 + pick(rng, 2);
    for (int i = 0; i < n; ++i) {
      const int key = pick(rng, 2);
      Value k = key ? kw("x") : kw("y");
      if (pick(rng, 2)) {
        Value v = values.new_integer(key);
        micro_invoke.push_back(Value::vector({kw("write"), k, v}));
        micro_ok.push_back(Value::vector({kw("write"), k, v}));
      } else {
        micro_invoke.push_back(Value::vector({kw("read"), k, Value()}));
        micro_ok.push_back(Value::vector({kw("read"), k, values.seen_or(key, num(0), rng)}));
      }
    }
    return {"txn", Value::vector(micro_invoke), Value::vector(micro_ok), {}};
  }
  if (model == "kv") {
    const int key = pick(rng, 2);
    Value key_value = Value::string(key ? "a" : "b");
    const int choice = pick(rng, 3);
    if (choice < 2) {
      Value v = values.new_string(key);
      return {choice == 0 ? "put" : "append", v, v, key_value};
    }
    // A get sees "", one value written, or two written one after the other.
    const std::vector<Value>& seen = values.written(key);
    std::string text;
    const int parts = seen.empty() ? 0 : pick(rng, 3);
    for (int i = 0; i < parts; ++i) text += seen[pick(rng, static_cast<int>(seen.size()))].text();
    if (WrittenValues::never_written(rng)) text += "z";
    return {"get", Value(), Value::string(text), key_value};
  }
  return draw(model, rng);  // mutex(): no values
}

// The ops that write a value, which a crashed duplicate repeats.
bool writes_value(std::string_view f) {
  return f == "write" || f == "cas" || f == "enqueue" || f == "push" || f == "add" || f == "put" || f == "append" ||
         f == "txn";
}

// "independent(MODEL)" -> "MODEL"; empty for any other spec.
std::string independent_inner(const std::string& spec) {
  const std::string_view prefix = "independent(";
  if (spec.size() <= prefix.size() + 1 || spec.compare(0, prefix.size(), prefix) != 0 || spec.back() != ')') return {};
  return spec.substr(prefix.size(), spec.size() - prefix.size() - 1);
}

// One op of `model`: an independent model's on key 0 or 1, its values wrapped in
// [key value] tuples, each key drawing unique values of its own from values[pool].
OpDraw draw_op(const std::string& model, const RandomHistoryShape& shape, std::mt19937_64& rng,
               std::map<int, WrittenValues>& values, int& pool) {
  const std::string inner = independent_inner(model);
  pool = 0;
  // A removal that found the container empty, now and then, when the shape asks.
  const auto maybe_empty = [&](OpDraw d) {
    const bool removal = d.f == "dequeue" || d.f == "pop" || d.f == "poll" || d.f == "peek";
    if (removal && shape.empty_probability > 0 &&
        std::uniform_real_distribution<double>(0, 1)(rng) < shape.empty_probability) {
      d.ok_value = kw("empty");
    }
    return d;
  };
  if (inner.empty()) return maybe_empty(shape.unique_values ? draw_unique(model, rng, values[0]) : draw(model, rng));
  pool = pick(rng, 2);
  const int key = pool;
  OpDraw d = maybe_empty(shape.unique_values ? draw_unique(inner, rng, values[key]) : draw(inner, rng));
  d.invoke_value = Value::vector({num(key), d.invoke_value});
  d.ok_value = Value::vector({num(key), d.ok_value});
  return d;
}

// Whether `needle` is `haystack` or inside it (an element of a vector or set, at any
// depth).
bool mentions(const Value& haystack, const Value& needle) {
  if (haystack == needle) return true;
  if (!haystack.is_sequential() && !haystack.is_set()) return false;
  for (const Value& element : haystack.elements()) {
    if (mentions(element, needle)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> random_history_models() {
  return {"register(0)",
          "cas-register(0)",
          "etcd",
          "mutex()",
          "set()",
          "unordered-queue()",
          "fifo-queue()",
          "stack()",
          "multi-register({:x 0 :y 0})",
          "kv"};
}

EventLog random_history(const std::string& model, const RandomHistoryShape& shape, std::mt19937_64& rng) {
  EventLog log;
  log.source = "random";
  // Every op invoked so far, for the crashed duplicates to copy.
  struct Invoked {
    OpDraw op;
    enum class End : std::uint8_t { open, ok, failed, crashed } end = End::open;
    bool must_crash = false;  // one of a crashed duplicate's two ops
    int pool = 0;             // the values (of its key) it drew from, and what it wrote
    std::vector<WrittenValues::Written> writes = {};
  };
  std::vector<Invoked> invoked_ops;
  struct Open {
    std::size_t op = 0;  // into invoked_ops
    bool open = false;
    bool crashed = false;
  };
  std::vector<Open> procs(shape.processes);
  std::map<int, WrittenValues> values;
  std::uniform_real_distribution<double> coin(0, 1);
  int invoked = 0;
  auto emit = [&](int p, EventType type, const OpDraw& d, const Value& v) {
    Event e;
    e.process = Value::integer(p);
    e.type = type;
    e.f = d.f;
    e.value = v;
    e.key = d.key;
    e.pos = SourcePos{static_cast<std::uint32_t>(log.events.size() + 1), 1};
    log.events.push_back(std::move(e));
  };
  // Makes the op just drawn a copy of an earlier op that wrote a value, with one of
  // the two set to crash; draws nothing unless the shape asks for duplicates.
  // Whether an op that writes nothing has returned what `writer` wrote (its new
  // values when unique, else its invocation's value).
  const auto observed_already = [](const Invoked& writer, const std::vector<Invoked>& ops) {
    std::vector<Value> needles;
    for (const WrittenValues::Written& w : writer.writes) needles.push_back(w.value);
    if (needles.empty()) needles.push_back(writer.op.invoke_value);
    for (const Invoked& op : ops) {
      if (writes_value(op.op.f) || op.pool != writer.pool) continue;
      for (const Value& needle : needles) {
        if (mentions(op.op.ok_value, needle)) return true;
      }
    }
    return false;
  };
  auto maybe_duplicate = [&](Invoked& fresh) {
    if (shape.crashed_duplicate_probability <= 0 || !writes_value(fresh.op.f)) return;
    std::vector<std::size_t> writers;
    for (std::size_t i = 0; i < invoked_ops.size(); ++i) {
      if (writes_value(invoked_ops[i].op.f)) writers.push_back(i);
    }
    if (writers.empty() || coin(rng) >= shape.crashed_duplicate_probability) return;
    // Three times in four, one whose value an op has read or removed already, if
    // any: a duplicate nothing observes cannot matter, and one invoked after the
    // observations is what a test reading ops in call order meets last.
    std::vector<std::size_t> observed;
    for (const std::size_t w : writers) {
      if (observed_already(invoked_ops[w], invoked_ops)) observed.push_back(w);
    }
    const std::vector<std::size_t>& sources = !observed.empty() && coin(rng) < 0.75 ? observed : writers;
    Invoked& earlier = invoked_ops[sources[pick(rng, static_cast<int>(sources.size()))]];
    fresh.op = earlier.op;
    fresh.pool = earlier.pool;
    fresh.writes = earlier.writes;
    if (shape.unique_values) values[earlier.pool].written_again(earlier.writes);
    if (earlier.end == Invoked::End::crashed || earlier.must_crash) return;
    if (earlier.end == Invoked::End::open && coin(rng) < 0.5) {
      earlier.must_crash = true;
    } else {
      fresh.must_crash = true;
    }
  };
  while (true) {
    std::vector<int> can_invoke, can_complete;
    for (int p = 0; p < shape.processes; ++p) {
      if (procs[p].crashed) continue;
      (procs[p].open ? can_complete : can_invoke).push_back(p);
    }
    bool invoke = invoked < shape.operations && !can_invoke.empty() && (can_complete.empty() || coin(rng) < 0.5);
    if (invoke) {
      int p = can_invoke[pick(rng, static_cast<int>(can_invoke.size()))];
      Invoked fresh;
      if (shape.unique_values) {
        for (auto& [pool, pool_values] : values) pool_values.start_draw();
      }
      fresh.op = draw_op(model, shape, rng, values, fresh.pool);
      if (shape.unique_values) fresh.writes = values[fresh.pool].drawn();
      maybe_duplicate(fresh);
      invoked_ops.push_back(std::move(fresh));
      procs[p].op = invoked_ops.size() - 1;
      procs[p].open = true;
      const OpDraw& d = invoked_ops.back().op;
      emit(p, EventType::invoke, d, d.invoke_value);
      ++invoked;
      continue;
    }
    if (can_complete.empty()) break;
    int p = can_complete[pick(rng, static_cast<int>(can_complete.size()))];
    procs[p].open = false;
    Invoked& op = invoked_ops[procs[p].op];
    double r = coin(rng);
    if (op.must_crash || r < shape.crash_probability) {
      procs[p].crashed = true;
      op.end = Invoked::End::crashed;
      // Half the crashes are reported (:info), half never complete at all.
      if (coin(rng) < 0.5) emit(p, EventType::info, op.op, op.op.invoke_value);
    } else if (r < shape.crash_probability + shape.fail_probability) {
      op.end = Invoked::End::failed;
      emit(p, EventType::fail, op.op, op.op.invoke_value);
    } else {
      op.end = Invoked::End::ok;
      emit(p, EventType::ok, op.op, op.op.ok_value);
    }
  }
  return log;
}

std::vector<const Operation*> first_partition(const History& history, const Model& model) {
  std::vector<const Operation*> ops;
  for (const Operation& op : history.ops) {
    if (!model.is_partitioned() || model.partition_key(op) == model.partition_key(history.ops.front())) {
      ops.push_back(&op);
    }
  }
  return ops;
}

}  // namespace ariadne::testing
