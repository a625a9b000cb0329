// The check of a growing history in bounded memory (check --follow, docs/follow.md).
//
// Operations arrive as the test writes them and go to their partition's window (one
// window for an unpartitioned model). A window is checked by Lowe's JIT from the state
// its partition was settled in, its pending ops taken as crashed (follow_check.cpp
// argues why a refutation then stands). When a window has no pending op and JIT ends
// in a single configuration, nothing to come can tell apart the ways it was reached:
// its ops are settled and dropped, and the window goes on from that configuration's
// state (replayed by the certificate checker, not taken from the search) with the
// crashed ops it left unlinearized. Memory is then what is undecided: the open
// windows, plus a linearization point per settled op for the witness.
//
// The witness: each settled op gets a point p in [call, ret], p = max(call, the
// point of the op before it in its partition's order). Sorting every op by its point
// (ties by settling order) gives one order of the whole history: within a partition it
// is the partition's certified order, and an op that returned before another was
// called has the smaller point, so real time holds (locality, [HerlihyWing90], does
// the rest). The points are checked against each op's interval as they are given.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ariadne::follow {

class WindowedCheck {
 public:
  WindowedCheck(std::string source, const Model& model, const CheckOptions& options);

  // From the pairing (HistoryBuilder::hand_on): an op invoked, an op ended.
  void called(const Operation& op);
  void ended(Operation&& op);

  // Checks the windows with ops ended since their last check: all of them when
  // `caught_up` (the reader waits on the writer, so a violation is found as soon as its
  // lines are in), else those that doubled since (the reader is behind: amortised
  // linear work). Returns true when some partition is found not linearizable.
  bool check_windows(bool caught_up);

  // The partition found not linearizable first in order of appearance (its first op's
  // id), as the offline check reports it; nullopt when none is.
  std::optional<Value> refuted_partition() const;
  // Whether some window has ops ended since its last check (one waiting out its
  // interval, say).
  bool has_news() const;

  // At the end, when no partition is refuted: every window checked to its end, and the
  // witness of the whole history, certified. Returns the linearizable result, or a
  // refuted partition (refuted_partition() then says which), or unknown with a reason.
  CheckResult finish();

  std::uint64_t ops() const { return ops_; }
  std::uint64_t pending() const { return pending_; }
  std::uint64_t settled() const { return settled_; }
  std::uint64_t held() const { return held_; }  // ops in the windows now
  std::uint64_t crashed() const { return crashed_; }
  std::size_t partitions() const { return windows_.size(); }  // seen so far

 private:
  struct Window {
    Value key;
    std::uint32_t first_id = 0;
    std::unique_ptr<Model> model;  // from the settled state; null: the command's model
    std::vector<Operation> ops;    // in call order: crashed ops carried first
    std::uint64_t pending = 0;
    std::uint64_t ended_since_check = 0;
    std::size_t size_at_check = 0;  // ops at its last check that did not settle it
    std::uint64_t last_point = 0;
    bool refuted = false;
    // A window that does not settle is checked again, however caught up the reader is,
    // no sooner than three times its last check's time after it: its checks then take
    // a quarter of the time at most.
    std::chrono::steady_clock::time_point next_check{};
    // The portfolio's time for it when JIT gives up; doubled each time it is not enough.
    double portfolio_seconds = 1;
  };

  std::size_t window_of(const Operation& op);  // its index in windows_, made when new
  void check_window(Window& window, bool at_the_end);
  void settle(Window& window, const Model& model, const std::vector<std::uint32_t>& order,
              const std::vector<std::uint32_t>& open, bool at_the_end);

  std::string source_;
  const Model& model_;
  CheckOptions options_;
  std::vector<Window> windows_;
  std::vector<std::size_t> with_news_;  // windows with ops ended since their last check
  std::unordered_map<Value, std::size_t, ValueHash> index_;
  // Per settled op, in settling order: its point (an event position, below 2^32) and
  // its place in that order in one key, point above, so that sorting the keys sorts by
  // point, ties in settling order; and its id. Deques, not vectors: ten million of them
  // would otherwise be copied, twice the size, as the vector doubles.
  std::deque<std::uint64_t> point_keys_;
  std::deque<std::uint32_t> point_ids_;
  std::uint64_t ops_ = 0;
  std::uint64_t pending_ = 0;
  std::uint64_t settled_ = 0;
  std::uint64_t held_ = 0;
  std::uint64_t ok_ended_ = 0;
  std::uint64_t ok_placed_ = 0;
  std::uint64_t crashed_ = 0;
  std::string gave_up_;
  std::chrono::steady_clock::time_point next_sweep_{};  // why a window could not be decided, when one could not
};

}  // namespace ariadne::follow
