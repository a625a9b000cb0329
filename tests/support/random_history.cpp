#include "support/random_history.hpp"

#include <map>

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
  struct Open {
    OpDraw op;
    bool open = false;
    bool crashed = false;
  };
  std::vector<Open> procs(shape.processes);
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
  while (true) {
    std::vector<int> can_invoke, can_complete;
    for (int p = 0; p < shape.processes; ++p) {
      if (procs[p].crashed) continue;
      (procs[p].open ? can_complete : can_invoke).push_back(p);
    }
    bool invoke = invoked < shape.operations && !can_invoke.empty() && (can_complete.empty() || coin(rng) < 0.5);
    if (invoke) {
      int p = can_invoke[pick(rng, static_cast<int>(can_invoke.size()))];
      procs[p].op = draw(model, rng);
      procs[p].open = true;
      emit(p, EventType::invoke, procs[p].op, procs[p].op.invoke_value);
      ++invoked;
      continue;
    }
    if (can_complete.empty()) break;
    int p = can_complete[pick(rng, static_cast<int>(can_complete.size()))];
    procs[p].open = false;
    double r = coin(rng);
    if (r < shape.crash_probability) {
      procs[p].crashed = true;
      // Half the crashes are reported (:info), half never complete at all.
      if (coin(rng) < 0.5) emit(p, EventType::info, procs[p].op, procs[p].op.invoke_value);
    } else if (r < shape.crash_probability + shape.fail_probability) {
      emit(p, EventType::fail, procs[p].op, procs[p].op.invoke_value);
    } else {
      emit(p, EventType::ok, procs[p].op, procs[p].op.ok_value);
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
