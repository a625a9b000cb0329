// Pairs events into operations as they arrive (see build_history in
// include/ariadne/history.hpp for the semantics). As an EventSink it sits behind any
// reader, so a file is turned into a History in one pass without an EventLog.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "history/event_sink.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ariadne {

class HistoryBuilder final : public EventSink {
 public:
  // `expected_events`, when known, reserves room for that many operations up front:
  // growing a vector of ten million operations by doubling would briefly hold two
  // copies of it.
  HistoryBuilder(std::string source, const Model& model, std::size_t expected_events = 0);

  void add(Event&& event) override;
  // Keeps only the operations `keep` accepts at their invocation (read_history's
  // filtered form); the others are paired and dropped. Set before the first add().
  void keep_only(std::function<bool(const Operation&)> keep) { keep_ = std::move(keep); }
  // Hands every operation on instead of keeping any (check --follow keeps only what is
  // undecided): `called` sees each client op at its invocation, `ended` takes it at its
  // completion (:ok, :fail or :info), unvetted. Set before the first add().
  void hand_on(std::function<void(const Operation&)> called, std::function<void(Operation&&)> ended) {
    keep_ = [](const Operation&) { return false; };
    called_ = std::move(called);
    ended_ = std::move(ended);
  }
  // How many threads finish() may vet operations on, the calling thread among them;
  // 0 (the default): available_cpus().
  void use_jobs(unsigned jobs) { jobs_ = jobs; }
  void warn(ReadWarning warning) override { history_.warnings.push_back(std::move(warning)); }
  // Vets every operation's shape with the model, drops :fail pairs the model does not
  // observe, and returns the history. Throws InputError naming the event's position.
  History finish() &&;
  // Client ops invoked and neither completed nor crashed yet.
  std::uint64_t open_ops() const { return open_ops_; }
  // Refuses (InputError at `where`) a history without a single event: almost always a
  // harness that recorded nothing (a cluster that never started, a log cut before the
  // test ran), which checked would pass without a word. Events of fault injectors alone
  // are a history Knossos calls valid (its own mongodb-v0-ack-rollback-.edn): checked,
  // with a warning that no client recorded anything. `until` says what ended the
  // reading: "the end of the file".
  void require_events(SourcePos where, const std::string& until);
  // Events seen, ignored ones included, and invocations of client (integer)
  // processes among them, kept or not.
  std::uint64_t events_seen() const { return position_; }
  std::uint64_t client_invocations() const { return client_invocations_; }

 private:
  // ProcessState::open of an operation keep_only() dropped: it waits in parked_.
  static constexpr std::size_t kParked = SIZE_MAX;
  struct ProcessState {
    std::size_t open = 0;  // index into ops of the open operation (or kParked), when has_open
    bool has_open = false;
    bool crashed = false;
    SourcePos crashed_at;
  };

  [[noreturn]] void fail(const Event& event, const std::string& message) const;
  void note_ignored(const Event& event);
  ProcessState& process_state(std::int64_t process);

  Operation& open_op(std::int64_t process, const ProcessState& ps) {
    return ps.open == kParked ? parked_[process] : history_.ops[ps.open];
  }

  const Model& model_;
  std::function<bool(const Operation&)> keep_;
  std::function<void(const Operation&)> called_;
  std::function<void(Operation&&)> ended_;
  unsigned jobs_ = 0;
  History history_;
  std::uint64_t position_ = 0;  // events seen, ignored ones included: op ids and time
  std::uint64_t client_invocations_ = 0;
  std::uint64_t open_ops_ = 0;
  // Jepsen numbers its clients from 0 and gives a crashed one the next free number, so
  // the ids seen stay small: those index a vector, the rest a hash map.
  static constexpr std::int64_t kDenseProcesses = 1 << 16;
  std::vector<ProcessState> dense_processes_;
  std::unordered_map<std::int64_t, ProcessState> processes_;
  // The open operations keep_only() does not keep, by process, until they complete:
  // apart from ProcessState, which stays a few words (a history may use 65,536 dense
  // process ids, and most reads keep every operation).
  std::unordered_map<std::int64_t, Operation> parked_;
  std::unordered_map<std::string, std::size_t> ignored_at_;  // process's EDN -> index in history_.ignored
};

}  // namespace ariadne
