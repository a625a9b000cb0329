// Pairs events into operations with Jepsen's semantics (see include/ariadne/history.hpp)
// and rejects histories no test harness could have recorded: a completion with no
// open invocation, a second invocation while one is open, a crashed process invoking
// again, a completion whose :f differs from its invocation's, or a value of the wrong
// shape for the model. Each error names the event's file:line:column.
#include "history/history_builder.hpp"

#include <algorithm>
#include <string>

namespace ariadne {

namespace {

std::string at(const SourcePos& pos) { return std::to_string(pos.line) + ":" + std::to_string(pos.column); }

}  // namespace

HistoryBuilder::HistoryBuilder(std::string source, const Model& model, std::size_t expected_events) : model_(model) {
  history_.source = std::move(source);
  // Every operation has an invocation, so there are at most as many as events. The
  // reservation is address space only: pages nobody writes are never resident.
  history_.ops.reserve(expected_events);
}

void HistoryBuilder::fail(const Event& event, const std::string& message) const {
  throw InputError(history_.source, event.pos, message);
}

void HistoryBuilder::add(Event&& e) {
  const std::uint64_t position = position_++;
  // An integer is a client however large (Clojure's integer? holds for a bigint), so
  // dropping it like a :nemesis would silently check another history.
  if (e.process.kind() == Value::Kind::big_integer) {
    fail(e, "process " + shorten(e.process.text()) +
                " does not fit in 64 bits; ariadne needs client process ids between -2^63 and 2^63-1");
  }
  // Fault injectors and bookkeeping (:nemesis, node names) never take part; those
  // that look like a client's are counted for a warning (finish()).
  if (!e.process.is_integer()) {
    if (e.type != EventType::info) note_ignored(e);
    return;
  }
  if (position > UINT32_MAX) {
    fail(e, "more than 4,294,967,296 events: operation ids are 32-bit (split the history, e.g. by key)");
  }
  const std::int64_t p = e.process.as_integer();
  ProcessState& ps = processes_[p];
  std::vector<Operation>& ops = history_.ops;

  if (e.type == EventType::invoke) {
    if (ps.has_open) {
      fail(e, "process " + std::to_string(p) + " invokes :" + shorten(e.f) + " while its :" + shorten(ops[ps.open].f) +
                  " invoked at " + at(ops[ps.open].call_pos) +
                  " is still open (a process runs one operation at a time)");
    }
    if (ps.crashed) {
      fail(e, "process " + std::to_string(p) + " invokes again after its operation crashed (:info at " +
                  at(ps.crashed_at) + "); Jepsen gives a crashed client a fresh process id");
    }
    Operation& op = ops.emplace_back();
    op.id = static_cast<std::uint32_t>(position);
    op.process = p;
    op.f = std::move(e.f);
    op.value = e.value;
    op.invoke_value = std::move(e.value);
    op.key = std::move(e.key);
    op.status = OpStatus::crashed;  // until a completion says otherwise
    op.call = position;
    op.ret = kNever;
    op.index = e.index;
    op.call_pos = e.pos;
    ps.open = ops.size() - 1;
    ps.has_open = true;
    return;
  }

  if (!ps.has_open) {
    // An :info with nothing open is a note, not a completion (Knossos ignores it).
    if (e.type == EventType::info) return;
    fail(e, std::string("completion (:") + (e.type == EventType::ok ? "ok" : "fail") + ") for process " +
                std::to_string(p) + ", which has no open invocation");
  }
  Operation& op = ops[ps.open];
  if (!e.f.empty() && e.f != op.f) {
    fail(e, "completion :" + shorten(e.f) + " does not match process " + std::to_string(p) +
                "'s open invocation :" + shorten(op.f) + " at " + at(op.call_pos));
  }
  ps.has_open = false;
  switch (e.type) {
    case EventType::ok:
      op.status = OpStatus::ok;
      op.value = std::move(e.value);
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
    case EventType::invoke: break;
  }
}

void HistoryBuilder::note_ignored(const Event& e) {
  const auto [at, added] = ignored_at_.try_emplace(e.process.to_edn(), history_.ignored.size());
  if (added) history_.ignored.push_back({e.process, 0, e.pos});
  ++history_.ignored[at->second].events;
}

History HistoryBuilder::finish() && {
  for (const IgnoredEvents& ignored : history_.ignored) {
    history_.warnings.push_back(
        {ignored.first, std::to_string(ignored.events) + " events of process " + shorten(ignored.process.to_edn()) +
                            " look like a client's (:invoke, :ok or :fail) and are left out, this the first: only "
                            "integer processes are clients"});
  }
  std::vector<Operation>& ops = history_.ops;
  for (const Operation& op : ops) {
    if (auto problem = model_.check_operation(op)) {
      const SourcePos pos = op.status == OpStatus::ok ? op.ret_pos : op.call_pos;
      throw InputError(history_.source, pos, *problem);
    }
  }
  // In place, so a large history is never copied.
  std::erase_if(
      ops, [&](const Operation& op) { return op.status == OpStatus::failed && !model_.failed_is_observation(op); });
  history_.event_count = position_;
  return std::move(history_);
}

History build_history(const EventLog& log, const Model& model) {
  HistoryBuilder builder(log.source, model, log.events.size());
  for (const Event& event : log.events) builder.add(Event(event));
  for (const ReadWarning& warning : log.warnings) builder.warn(warning);
  return std::move(builder).finish();
}

}  // namespace ariadne
