// A tiny DSL for writing histories in tests: events in real-time order.
//   HistoryText h;
//   h.invoke(0, "write", 1).ok(0, "write", 1).invoke(1, "read").ok(1, "read", 1);
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <string>

namespace ariadne::testing {

class EventScript {
 public:
  EventScript& invoke(std::int64_t p, const std::string& f, Value v = {}, Value key = {}) {
    return add(p, EventType::invoke, f, std::move(v), std::move(key));
  }
  EventScript& ok(std::int64_t p, const std::string& f, Value v = {}, Value key = {}) {
    return add(p, EventType::ok, f, std::move(v), std::move(key));
  }
  EventScript& fail(std::int64_t p, const std::string& f, Value v = {}, Value key = {}) {
    return add(p, EventType::fail, f, std::move(v), std::move(key));
  }
  EventScript& info(std::int64_t p, const std::string& f, Value v = {}, Value key = {}) {
    return add(p, EventType::info, f, std::move(v), std::move(key));
  }
  EventScript& nemesis(const std::string& f) {
    Event e;
    e.process = Value::keyword("nemesis");
    e.type = EventType::info;
    e.f = f;
    e.pos = SourcePos{static_cast<std::uint32_t>(log_.events.size() + 1), 1};
    log_.events.push_back(std::move(e));
    return *this;
  }
  const EventLog& log() const { return log_; }
  History build(const Model& model) const { return build_history(log_, model); }

 private:
  EventScript& add(std::int64_t p, EventType type, const std::string& f, Value v, Value key) {
    Event e;
    e.process = Value::integer(p);
    e.type = type;
    e.f = f;
    e.value = std::move(v);
    e.key = std::move(key);
    e.pos = SourcePos{static_cast<std::uint32_t>(log_.events.size() + 1), 1};
    log_.events.push_back(std::move(e));
    return *this;
  }
  EventLog log_{"script", {}};
};

inline Value I(std::int64_t i) { return Value::integer(i); }
inline Value pair(std::int64_t a, std::int64_t b) { return Value::vector({I(a), I(b)}); }

}  // namespace ariadne::testing
