// Pairs events into operations with Jepsen's semantics (see include/ariadne/history.hpp)
// and rejects histories no test harness could have recorded: a completion with no
// open invocation, a second invocation while one is open, a crashed process invoking
// again, a completion whose :f differs from its invocation's, or a value of the wrong
// shape for the model. Each error names the event's file:line:column.
#include "history/history_builder.hpp"
#include "history/timestamp_order.hpp"

#include <ariadne/limits.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <utility>

namespace ariadne {

namespace {

std::string at(const SourcePos& pos) { return std::to_string(pos.line) + ":" + std::to_string(pos.column); }

// The operations of a large history fill hundreds of megabytes that the builder
// touches for the first time, a page fault every 4 KiB: huge pages, where the kernel
// allows them on request, make that one fault every 2 MiB. Only a hint.
void advise_huge_pages(const std::vector<Operation>& ops) {
#ifdef MADV_HUGEPAGE
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(ops.data());
  const std::uintptr_t end = begin + ops.capacity() * sizeof(Operation);
  const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  if (end > first + kHugePage) madvise(reinterpret_cast<void*>(first), (end - first) & ~(kHugePage - 1), MADV_HUGEPAGE);
#else
  (void)ops;
#endif
}

// Below this many operations the model vets them on the calling thread alone.
constexpr std::size_t kParallelVetting = 100000;

// The first operation the model rejects, by position, and why. A large history is
// vetted in one slice per job, on `jobs` threads (the calling thread among them); the
// earliest rejection of all is the one reported, as a single pass would report it.
std::optional<std::pair<std::size_t, std::string>> first_rejected(const std::vector<Operation>& ops, const Model& model,
                                                                  unsigned jobs) {
  using Rejection = std::optional<std::pair<std::size_t, std::string>>;
  auto vet = [&](std::size_t begin, std::size_t end) -> Rejection {
    for (std::size_t i = begin; i < end; ++i) {
      if (auto problem = model.check_operation(ops[i])) return std::pair{i, std::move(*problem)};
    }
    return std::nullopt;
  };
  const std::size_t slices =
      std::min<std::size_t>(jobs != 0 ? jobs : available_cpus(), ops.size() / kParallelVetting + 1);
  if (slices <= 1) return vet(0, ops.size());
  std::vector<Rejection> found(slices);
  std::vector<std::thread> threads;
  const std::size_t per = (ops.size() + slices - 1) / slices;
  for (std::size_t s = 1; s < slices; ++s) {
    threads.emplace_back([&, s] { found[s] = vet(s * per, std::min(ops.size(), (s + 1) * per)); });
  }
  found[0] = vet(0, std::min(ops.size(), per));
  for (std::thread& thread : threads) thread.join();
  for (Rejection& rejection : found) {
    if (rejection) return rejection;
  }
  return std::nullopt;
}

}  // namespace

HistoryBuilder::HistoryBuilder(std::string source, const Model& model, std::size_t expected_events) : model_(model) {
  history_.source = std::move(source);
  // Every operation has an invocation, so there are at most as many as events. The
  // reservation is address space only: pages nobody writes are never resident.
  history_.ops.reserve(expected_events);
  advise_huge_pages(history_.ops);
}

HistoryBuilder::ProcessState& HistoryBuilder::process_state(std::int64_t process) {
  if (process < 0 || process >= kDenseProcesses) return processes_[process];
  const auto index = static_cast<std::size_t>(process);
  if (index >= dense_processes_.size()) dense_processes_.resize(index + 1);
  return dense_processes_[index];
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
  ProcessState& ps = process_state(p);
  std::vector<Operation>& ops = history_.ops;

  if (e.type == EventType::invoke) {
    ++client_invocations_;
    if (ps.has_open) {
      const Operation& open = open_op(p, ps);
      fail(e, "process " + std::to_string(p) + " invokes :" + shorten(e.f) + " while its :" + shorten(open.f) +
                  " invoked at " + at(open.call_pos) + " is still open (a process runs one operation at a time)");
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
    ++open_ops_;
    if (keep_ && !keep_(op)) {
      Operation& parked = parked_[p] = std::move(op);
      ops.pop_back();
      ps.open = kParked;
      if (called_) called_(parked);
    }
    return;
  }

  if (!ps.has_open) {
    // An :info with nothing open is a note, not a completion (Knossos ignores it).
    if (e.type == EventType::info) return;
    fail(e, std::string("completion (:") + (e.type == EventType::ok ? "ok" : "fail") + ") for process " +
                std::to_string(p) + ", which has no open invocation (an op completed twice, or never invoked)");
  }
  Operation& op = open_op(p, ps);
  if (!e.f.empty() && e.f != op.f) {
    fail(e, "completion :" + shorten(e.f) + " does not match process " + std::to_string(p) +
                "'s open invocation :" + shorten(op.f) + " at " + at(op.call_pos));
  }
  ps.has_open = false;
  --open_ops_;
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
  if (ps.open == kParked) {
    if (ended_) ended_(std::move(op));
    parked_.erase(p);
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
  if (const auto bad = first_rejected(ops, model_, jobs_)) {
    const Operation& op = ops[bad->first];
    const SourcePos pos = op.status == OpStatus::ok ? op.ret_pos : op.call_pos;
    throw InputError(history_.source, pos, bad->second);
  }
  // In place, so a large history is never copied.
  std::erase_if(
      ops, [&](const Operation& op) { return op.status == OpStatus::failed && !model_.failed_is_observation(op); });
  history_.event_count = position_;
  return std::move(history_);
}

void HistoryBuilder::require_events(SourcePos where, const std::string& until) {
  if (position_ == 0) {
    throw InputError(history_.source, where,
                     "no client operation in " + history_.source + " (no event at all before " + until +
                         "): an empty history is almost always a harness that recorded nothing, so it is refused "
                         "rather than passed");
  }
  if (client_invocations_ == 0) {
    warn({{},
          "no client operation: the " + std::to_string(position_) +
              " events are all of processes that are no client, so there is nothing to check"});
  }
}

History build_history(const EventLog& log, const Model& model) {
  HistoryBuilder builder(log.source, model, log.events.size());
  TimestampOrder ordered(builder, log.source);
  for (const Event& event : log.events) ordered.add(Event(event));
  ordered.finish();
  for (const ReadWarning& warning : log.warnings) builder.warn(warning);
  return std::move(builder).finish();
}

}  // namespace ariadne
