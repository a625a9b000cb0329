#include "explore/trace_history.hpp"

namespace ariadne::explore {

namespace {

using systems::ClientOp;
using systems::EventKind;
using systems::TraceEvent;

Value register_value(systems::Val v) { return v == systems::kNil ? Value() : Value::integer(v); }

Event client_event(const TraceEvent& event) {
  Event out;
  out.process = Value::integer(event.process);
  switch (event.kind) {
    case EventKind::invoke: out.type = EventType::invoke; break;
    case EventKind::ok: out.type = EventType::ok; break;
    case EventKind::fail: out.type = EventType::fail; break;
    default: out.type = EventType::info; break;
  }
  switch (static_cast<ClientOp>(event.what)) {
    case ClientOp::read: out.f = "read"; break;
    case ClientOp::write: out.f = "write"; break;
    case ClientOp::cas: out.f = "cas"; break;
  }
  out.value = static_cast<ClientOp>(event.what) == ClientOp::cas
                  ? Value::vector({register_value(event.value), register_value(event.value2)})
                  : register_value(event.value);
  return out;
}

}  // namespace

void write_trace_history(Trace& trace, const TraceHistoryNames& names) {
  trace.history = EventLog{"trajectory", {}};
  trace.event_step.clear();
  for (std::size_t s = 0; s < trace.steps.size(); ++s) {
    const systems::Step& step = trace.steps[s];
    for (std::uint8_t e = 0; e < step.event_count; ++e) {
      const TraceEvent& event = step.events[e];
      Event out;
      if (event.kind == EventKind::note) {
        out.process = Value::keyword(names.actor(static_cast<std::uint8_t>(event.process)));
        out.type = EventType::info;
        out.f = names.note(event.what);
        if (event.value != systems::kNoArgument)
          out.value = Value::keyword(names.actor(static_cast<std::uint8_t>(event.value)));
      } else {
        out = client_event(event);
      }
      out.pos = SourcePos{static_cast<std::uint32_t>(trace.history.events.size() + 1), 1};
      trace.history.events.push_back(std::move(out));
      trace.event_step.push_back(s);
    }
  }
}

}  // namespace ariadne::explore
