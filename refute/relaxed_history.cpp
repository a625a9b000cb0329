#include "refute/relaxed_history.hpp"

#include "models/semantics.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>

namespace ariadne::refute {

namespace {

// Process ids no op of the history uses, smallest first. Counting up from the
// largest process would overflow when a history uses INT64_MAX (a fuzz finding,
// corpus/fuzz/relaxed-process-overflow.edn). At most two ids are handed out per op (a
// relaxed twin, and a kept crashed op) and at most one id per op is used, so every id
// handed out is below 3n + 1: a bitmap of the used ones that low says which to skip,
// in one pass (sorting the ids took a tenth of a 10^6-op core's time).
class FreshProcesses {
 public:
  explicit FreshProcesses(std::span<const Operation* const> ops) : used_(3 * ops.size() + 1, false) {
    for (const Operation* op : ops) {
      if (op->process >= 0 && static_cast<std::uint64_t>(op->process) < used_.size()) {
        used_[static_cast<std::size_t>(op->process)] = true;
      }
    }
  }

  std::int64_t next() {
    while (candidate_ < used_.size() && used_[candidate_]) ++candidate_;
    return static_cast<std::int64_t>(candidate_++);
  }

 private:
  std::vector<bool> used_;
  std::size_t candidate_ = 0;
};

}  // namespace

std::vector<const Operation*> RelaxedHistory::pointers() const {
  std::vector<const Operation*> out;
  out.reserve(ops.size());
  for (const Operation& op : ops) out.push_back(&op);
  return out;
}

History RelaxedHistory::as_history(std::string source) const {
  History history;
  history.source = std::move(source);
  history.ops = ops;
  std::uint64_t events = 0;
  for (const Operation& op : ops) events = std::max(events, (op.ret == kNever ? op.call : op.ret) + 1);
  history.event_count = static_cast<std::size_t>(events);
  return history;
}

namespace {

// relax() and relax_both_ways(): relaxed twins of the ops `twin` marks, then the ops
// `keep` marks as recorded.
RelaxedHistory build_relaxed(std::span<const Operation* const> ops, const std::vector<bool>& twin,
                             const std::vector<bool>& keep, bool keep_crashed_processes = false) {
  RelaxedHistory relaxed;
  // Relaxed ops get fresh processes: each is open from the start, and one process
  // has one open op at a time.
  FreshProcesses fresh(ops);
  // Reserved, so that a 10^6-op partition's ops are not moved again at each doubling.
  std::size_t size = 0;
  for (std::uint32_t i = 0; i < ops.size(); ++i) size += (twin[i] ? 1 : 0) + (keep[i] ? 1 : 0);
  relaxed.ops.reserve(size);
  relaxed.original_id.reserve(size);
  relaxed.source_index.reserve(size);
  relaxed.kept.reserve(size);

  std::uint64_t time = 0;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (!twin[i]) continue;
    Operation op = models::relaxed_twin(*ops[i]);
    op.process = fresh.next();
    op.call = time++;
    relaxed.original_id.push_back(op.id);
    relaxed.ops.push_back(std::move(op));
    relaxed.source_index.push_back(i);
    relaxed.kept.push_back(false);
  }
  // Kept events keep their relative order; renumbering them after the relaxed
  // invocations preserves every real-time fact among kept ops.
  std::vector<std::uint64_t> kept_times;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (!keep[i]) continue;
    kept_times.push_back(ops[i]->call);
    if (ops[i]->ret != kNever) kept_times.push_back(ops[i]->ret);
  }
  std::sort(kept_times.begin(), kept_times.end());
  std::unordered_map<std::int64_t, std::uint64_t> last_kept_call;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (keep[i]) last_kept_call[ops[i]->process] = std::max(last_kept_call[ops[i]->process], ops[i]->call);
  }
  const auto renumber = [&](std::uint64_t t) {
    return time +
           static_cast<std::uint64_t>(std::lower_bound(kept_times.begin(), kept_times.end(), t) - kept_times.begin());
  };
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (!keep[i]) continue;
    Operation op = *ops[i];
    // A crashed op stays open to the end, so it too needs a process of its own,
    // unless its process has no later kept op and its order is to be kept.
    if (op.ret == kNever && !(keep_crashed_processes && last_kept_call[op.process] == op.call)) {
      op.process = fresh.next();
    }
    op.call = renumber(op.call);
    if (op.ret != kNever) op.ret = renumber(op.ret);
    relaxed.original_id.push_back(op.id);
    relaxed.ops.push_back(std::move(op));
    relaxed.source_index.push_back(i);
    relaxed.kept.push_back(true);
  }
  // Ids are invocation positions in relaxed_events(): the relaxed invocations, then the
  // kept events, whose positions renumber() gave.
  for (Operation& op : relaxed.ops) op.id = static_cast<std::uint32_t>(op.call);
  return relaxed;
}

}  // namespace

RelaxedHistory relax(std::span<const Operation* const> ops, const std::vector<bool>& keep,
                     const std::vector<bool>* leave_out, bool keep_crashed_processes) {
  std::vector<bool> twin(ops.size());
  for (std::uint32_t i = 0; i < ops.size(); ++i) twin[i] = !keep[i] && !(leave_out && (*leave_out)[i]);
  return build_relaxed(ops, twin, keep, keep_crashed_processes);
}

RelaxedHistory relax_both_ways(std::span<const Operation* const> ops, const std::vector<bool>& candidate,
                               const std::vector<bool>& leave_out) {
  std::vector<bool> twin(ops.size());
  for (std::uint32_t i = 0; i < ops.size(); ++i) twin[i] = !leave_out[i];
  return build_relaxed(ops, twin, candidate);
}

EventLog relaxed_events(const RelaxedHistory& relaxed, const std::string& source) {
  EventLog log;
  log.source = source;
  struct Timed {
    std::uint64_t time;
    Event event;
  };
  std::vector<Timed> timed;
  std::vector<Event> closing;
  for (std::size_t i = 0; i < relaxed.ops.size(); ++i) {
    const Operation& op = relaxed.ops[i];
    Event invoke;
    invoke.process = Value::integer(op.process);
    invoke.type = EventType::invoke;
    invoke.f = op.f;
    invoke.value = op.invoke_value;
    invoke.key = op.key;
    invoke.index = static_cast<std::int64_t>(relaxed.original_id[i]);  // the op's id in the original history
    Event done = invoke;
    done.index.reset();
    timed.push_back({op.call, std::move(invoke)});
    switch (op.status) {
      case OpStatus::ok:
        done.type = EventType::ok;
        done.value = op.value;
        timed.push_back({op.ret, std::move(done)});
        break;
      case OpStatus::failed:
        done.type = EventType::fail;
        timed.push_back({op.ret, std::move(done)});
        break;
      case OpStatus::crashed:
        done.type = EventType::info;
        closing.push_back(std::move(done));
        break;
    }
  }
  std::stable_sort(timed.begin(), timed.end(), [](const Timed& a, const Timed& b) { return a.time < b.time; });
  for (Timed& t : timed) log.events.push_back(std::move(t.event));
  for (Event& e : closing) log.events.push_back(std::move(e));
  return log;
}

}  // namespace ariadne::refute
