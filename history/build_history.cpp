// Pairs events into operations with Jepsen's semantics (see include/ariadne/history.hpp)
// and rejects histories no test harness could have recorded: a completion with no
// open invocation, a second invocation while one is open, a crashed process invoking
// again, a completion whose :f differs from its invocation's, or a value of the wrong
// shape for the model. Each error names the event's file:line:column.
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <string>
#include <unordered_map>

namespace ariadne {

namespace {

std::string at(const SourcePos& pos) {
  return std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

struct ProcessState {
  std::size_t open = 0;        // index into `ops` of the open operation, when has_open
  bool has_open = false;
  bool crashed = false;
  SourcePos crashed_at;
};

}  // namespace

History build_history(const EventLog& log, const Model& model) {
  History history;
  history.source = log.source;
  history.event_count = log.events.size();

  std::vector<Operation> ops;
  std::unordered_map<std::int64_t, ProcessState> processes;

  auto fail = [&](const Event& e, const std::string& message) -> void {
    throw InputError(log.source, e.pos, message);
  };

  for (std::size_t position = 0; position < log.events.size(); ++position) {
    const Event& e = log.events[position];
    // Fault injectors and bookkeeping (:nemesis, node names) never take part.
    if (!e.process.is_integer()) continue;
    const std::int64_t p = e.process.as_integer();
    ProcessState& ps = processes[p];

    if (e.type == EventType::invoke) {
      if (ps.has_open) {
        fail(e, "process " + std::to_string(p) + " invokes :" + e.f +
                    " while its :" + ops[ps.open].f + " invoked at " + at(ops[ps.open].call_pos) +
                    " is still open (a process runs one operation at a time)");
      }
      if (ps.crashed) {
        fail(e, "process " + std::to_string(p) + " invokes again after its operation crashed (:info at " +
                    at(ps.crashed_at) + "); Jepsen gives a crashed client a fresh process id");
      }
      Operation op;
      op.id = static_cast<std::uint32_t>(position);
      op.process = p;
      op.f = e.f;
      op.value = e.value;
      op.invoke_value = e.value;
      op.key = e.key;
      op.status = OpStatus::crashed;  // until a completion says otherwise
      op.call = position;
      op.ret = kNever;
      op.index = e.index;
      op.call_pos = e.pos;
      ps.open = ops.size();
      ps.has_open = true;
      ops.push_back(std::move(op));
      continue;
    }

    if (!ps.has_open) {
      // An :info with nothing open is a note, not a completion (Knossos ignores it).
      if (e.type == EventType::info) continue;
      fail(e, std::string("completion (:") + (e.type == EventType::ok ? "ok" : "fail") +
                  ") for process " + std::to_string(p) + ", which has no open invocation");
    }
    Operation& op = ops[ps.open];
    if (!e.f.empty() && e.f != op.f) {
      fail(e, "completion :" + e.f + " does not match process " + std::to_string(p) +
                  "'s open invocation :" + op.f + " at " + at(op.call_pos));
    }
    ps.has_open = false;
    switch (e.type) {
      case EventType::ok:
        op.status = OpStatus::ok;
        op.value = e.value;
        op.ret = position;
        op.ret_pos = e.pos;
        break;
      case EventType::fail:
        op.status = OpStatus::failed;
        op.ret = position;
        op.ret_pos = e.pos;
        break;
      case EventType::info:
        // Outcome unknown: the op stays open to the end of time.
        ps.crashed = true;
        ps.crashed_at = e.pos;
        op.ret_pos = e.pos;
        break;
      case EventType::invoke:
        break;
    }
  }

  history.ops.reserve(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) {
    Operation& op = ops[i];
    if (auto problem = model.check_operation(op)) {
      SourcePos pos = op.status == OpStatus::ok ? op.ret_pos : op.call_pos;
      throw InputError(log.source, pos, *problem);
    }
    if (op.status == OpStatus::failed && !model.failed_is_observation(op)) continue;
    history.ops.push_back(std::move(op));
  }
  return history;
}

}  // namespace ariadne
