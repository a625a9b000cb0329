// The interface every native search engine implements, so the scheduler in
// portfolio/ can run them in budgeted slices, interleave partitions, and stop them.
//
// An engine searches one partition (a sub-history in invocation order). run() takes a
// budget of model steps and returns early with `undecided` when it is spent, keeping
// its whole state so the next run() resumes where it stopped. This is what lets one
// thread time-slice many partitions fairly: a hard key cannot starve an easy one that
// would refute the whole history (Porcupine's kv/c50-bad key 0 is such a hard key).
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/engine.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include "base/limits_ledger.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ariadne::search {

struct SubHistory {
  std::vector<const Operation*> ops;  // ascending call time
  // The condition to decide: which order the ops must keep (consistency.hpp). Engines
  // that know only real time refuse the others (engines/engine_table.hpp).
  Consistency consistency = Consistency::linearizable;
};

// Shared across the engines of one check: the byte budget of --memory-limit.
class MemoryBudget {
 public:
  // With `limits`, the command's resident-memory measure is asked too before an
  // engine grows (MemoryShare::would_fit): the engines' accounts count only what they
  // hold, not what the rest of the process does.
  explicit MemoryBudget(std::uint64_t limit, const Limits* limits = nullptr) : limit_(limit), limits_(limits) {}
  const Limits* limits() const { return limits_; }
  // Records a change in an engine's usage; returns false if the total is now over.
  bool adjust(std::int64_t delta) {
    std::int64_t now = used_.fetch_add(delta, std::memory_order_relaxed) + delta;
    std::int64_t peak = peak_.load(std::memory_order_relaxed);
    while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
    return now <= static_cast<std::int64_t>(limit_);
  }
  std::uint64_t peak() const { return static_cast<std::uint64_t>(peak_.load(std::memory_order_relaxed)); }
  bool over() const { return used_.load(std::memory_order_relaxed) > static_cast<std::int64_t>(limit_); }
  std::uint64_t limit() const { return limit_; }
  std::int64_t used() const { return used_.load(std::memory_order_relaxed); }

 private:
  std::uint64_t limit_;
  const Limits* limits_;
  std::atomic<std::int64_t> used_{0};
  std::atomic<std::int64_t> peak_{0};
};

// One engine's part of the budget: it reports its current usage as it changes, and
// whatever it last reported is given back when the engine is destroyed.
class MemoryShare {
 public:
  explicit MemoryShare(MemoryBudget& budget) : budget_(budget) {}
  ~MemoryShare() { budget_.adjust(-reported_); }
  MemoryShare(const MemoryShare&) = delete;
  MemoryShare& operator=(const MemoryShare&) = delete;

  // Records the engine's usage now; returns false if the budget is over.
  bool report(std::int64_t usage) {
    const bool ok = budget_.adjust(usage - reported_);
    reported_ = usage;
    return ok;
  }
  const MemoryBudget& budget() const { return budget_; }
  // Whether the engine's usage could become `usage` without the budget going over,
  // asked before an allocation rather than reported after it: growing a container
  // allocates its new array while the old one is still held, so a report afterwards
  // would notice only once the memory past the limit was taken.
  bool would_fit(std::int64_t usage) const {
    const std::int64_t growth = usage - reported_;
    if (growth > 0 && budget_.limits() && !base::would_fit(*budget_.limits(), static_cast<std::uint64_t>(growth)))
      return false;
    return budget_.used() + growth <= static_cast<std::int64_t>(budget_.limit());
  }

 private:
  MemoryBudget& budget_;
  std::int64_t reported_ = 0;
};

// When to give up: the command's limits (its deadline, a cancel request, the memory
// limit seen exceeded), a phase's own earlier deadline, a caller's cancel flag,
// another partition having already refuted the history, or another engine racing on
// this partition having already answered.
struct StopSignal {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  const std::atomic<bool>* cancel = nullptr;
  const std::atomic<bool>* decided = nullptr;
  const std::atomic<bool>* settled = nullptr;
  // Set when a twin racing this work on the same question answered first (the core's
  // decisions, refute/minimal_core.cpp): stops it as `decided` does.
  const std::atomic<bool>* superseded = nullptr;
  // The end of a refutation's grace (portfolio/scheduler.cpp) in steady_clock ticks,
  // 0 while there is none: once it has passed, as `decided`. A time the engines' polls
  // compare, not a timer thread's flag, so that one job needs no thread for it.
  const std::atomic<std::chrono::steady_clock::rep>* decided_after = nullptr;
  const Limits* limits = nullptr;

  // memory: the command's memory limit was seen exceeded (LimitsWatch, or an engine's
  // account), which stops every phase, not only the engine that noticed.
  enum class Why : std::uint8_t { none, timeout, cancelled, decided, memory };
  Why check() const {
    if (decided && decided->load(std::memory_order_relaxed)) return Why::decided;
    if (settled && settled->load(std::memory_order_relaxed)) return Why::decided;
    if (decided_after) {
      const std::chrono::steady_clock::rep after = decided_after->load(std::memory_order_relaxed);
      if (after != 0 && std::chrono::steady_clock::now().time_since_epoch().count() >= after) return Why::decided;
    }
    if (cancel && cancel->load(std::memory_order_relaxed)) return Why::cancelled;
    if (limits) {
      switch (limits->reached()) {
        case Limit::none: break;
        case Limit::timeout: return Why::timeout;
        case Limit::memory: return Why::memory;
        case Limit::cancelled: return Why::cancelled;
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) return Why::timeout;
    // Last: the command's own reasons to stop are the ones to report.
    if (superseded && superseded->load(std::memory_order_relaxed)) return Why::decided;
    return Why::none;
  }
};

// Freeing what a solver holds takes time that counts against the deadline too:
// CaDiCaL's destructor took 50-150 ms for 165-230 MB (measured on the 2-core
// machine), which put a check with --timeout 1 at 1.06-1.17 s. An engine holding
// `held_bytes` therefore stops once what is left before the deadline would not cover
// freeing them, reckoned at one byte a nanosecond (1 GB/s, below the rate measured).
inline bool teardown_due(const StopSignal& stop, std::uint64_t held_bytes) {
  if (stop.deadline == std::chrono::steady_clock::time_point::max()) return false;
  return std::chrono::steady_clock::now() + std::chrono::nanoseconds(held_bytes) >= stop.deadline;
}

enum class Outcome : std::uint8_t {
  linearizable,
  not_linearizable,
  undecided,      // budget spent: call run() again
  stopped,        // the StopSignal fired
  out_of_memory,  // memory the engine cannot give back (model interning) is over budget
  // Never returned by run(): the portfolio's word for an engine that threw (a bug, or
  // a certificate check that failed), which check() reports as an InternalError.
  engine_failed,
};

class SearchEngine {
 public:
  virtual ~SearchEngine() = default;
  // Which engine this is (<ariadne/engine.hpp>): what the portfolio decides by (its
  // budgets, the race's plan) and names it by (engine_name()).
  virtual Engine id() const = 0;
  virtual Outcome run(std::uint64_t step_budget) = 0;
  // After `linearizable`: indices into the SubHistory's ops, in linearization order.
  virtual std::vector<std::uint32_t> linearization() const = 0;
  virtual std::uint64_t steps() const = 0;
  virtual StopSignal::Why stop_reason() const = 0;
  // Thread-safe: asks a running run() to return `stopped` soon. Native engines poll
  // their StopSignal and need nothing more; solver engines forward it to the solver,
  // which cannot poll (Z3's interrupt()).
  virtual void interrupt() {}
  // After `stopped` with no stop reason: why the engine gave up on its own, e.g.
  // "no direct encoding and too many states to unroll". Empty otherwise.
  virtual std::string withdrawal_reason() const { return {}; }
  // After `not_linearizable`: a few ops (indices into the SubHistory, ascending) that
  // the engine's own argument shows cannot be linearized together, for the core to
  // start from; empty when the engine has none (a search's refutation is exhaustive,
  // not a pattern).
  virtual std::vector<std::uint32_t> refuting_ops() const { return {}; }
};

// Wing-Gong-Lowe (wgl.cpp). On a history with crashed ops it tries, at each
// configuration, the ops that must take effect before the optional (crashed) ones,
// which it tries only where the required ones are stuck. Every enabled op is still
// tried, so the answer is the same as the textbook order's; what changes is which
// order is found first, and how soon.
std::unique_ptr<SearchEngine> make_wgl(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                       const StopSignal& stop);
// For the differential tests: the textbook order, every candidate in call order.
std::unique_ptr<SearchEngine> make_wgl_in_call_order(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                                     const StopSignal& stop);
// For tests of the memo table's keys: WGL with every configuration's hash a function
// of its state alone, so that every probe meets every configuration of that state and
// only the stored key (wgl.cpp's frontier key) tells them apart. Slow; the answer is
// the same as make_wgl's exactly when the keys are right.
std::unique_ptr<SearchEngine> make_wgl_with_colliding_hashes(const SubHistory& sub, const Model& model,
                                                             MemoryBudget& memory, const StopSignal& stop);
// For the differential tests: WGL with its observers and lookahead (wgl.cpp) at work
// from the first configuration, not only after many dead ends, so that small
// histories exercise them.
std::unique_ptr<SearchEngine> make_wgl_eager(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                             const StopSignal& stop);

// Which ops can never change the state (models::observes_only), worked out from the
// model's semantics the first time a search asks for them: a pass over the ops that a
// search deciding its history without backtracking (most of them, in milliseconds)
// never pays for. Shared by the pieces of a segmented search, asked by one at a time.
class ObserverTable {
 public:
  ObserverTable(const SubHistory& sub, const Model& model) : sub_(sub), model_(model) {}
  // Per op of the sub-history; empty when the model describes no semantics.
  const std::vector<bool>& flags();

 private:
  const SubHistory& sub_;
  const Model& model_;
  bool known_ = false;
  std::vector<bool> flags_;
};

// A search over one time segment of a longer history (see segmented_search.cpp): the
// model is compiled once for the whole history, so a state one segment ends in can
// start the next.
struct SegmentStart {
  std::shared_ptr<CompiledModel> compiled;
  // For each op of the segment, its index among the ops `compiled` was compiled for;
  // empty when they are the same ops.
  std::vector<std::uint32_t> model_index;
  std::optional<StateId> initial;  // the compiled model's own initial state if empty
  // Per op `compiled` was compiled for: whether it can never change the state, which
  // WGL takes at once where it is legal (wgl.cpp); null for none.
  std::shared_ptr<ObserverTable> observers;
};
class SegmentSearch : public SearchEngine {
 public:
  // After `linearizable`: the state the linearization ends in.
  virtual StateId final_state() const = 0;
};
std::unique_ptr<SegmentSearch> make_wgl_segment(const SubHistory& sub, SegmentStart start, MemoryBudget& memory,
                                                const StopSignal& stop);
// WGL's lookahead from the root configuration of `sub` (search/wgl.cpp, "Lookahead"),
// over the whole of it: true when some op can become legal in no order, which refutes
// the history. A segmented search asks it once, when it has taken long: a stale read
// refutes at once, where the pieces' runs would search on.
bool refuted_at_root(const SubHistory& sub, SegmentStart start, MemoryBudget& memory, const StopSignal& stop);
// WGL over a long history split at its quiescent points, into pieces of at least
// `min_piece_ops` operations; see segmented_search.cpp. Plain WGL when there is no
// such point.
inline constexpr std::size_t kMinPieceOps = 256;
std::unique_ptr<SearchEngine> make_segmented_wgl(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                                 const StopSignal& stop, std::size_t min_piece_ops = kMinPieceOps);
// Lowe's just-in-time linearization: configurations carried forward through time.
std::unique_ptr<SearchEngine> make_jit(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                       const StopSignal& stop);
// JIT over the whole of `sub`, and what it ends with (check --follow,
// follow/windowed_check.cpp). With one configuration left, nothing that comes after
// can tell apart the ways it was reached (the configurations JIT prunes are those
// another one dominates), so the ops behind may be dropped and the search go on from
// it alone.
struct JitFrontier {
  Outcome outcome = Outcome::undecided;  // linearizable, not_linearizable, stopped or out_of_memory
  std::size_t configurations = 0;        // left after the last event, when linearizable
  // When linearizable, a witness: the first configuration's ops, in order (indices into
  // sub.ops). With exactly one configuration, it is that one's, and `state` is its state
  // as CompiledModel::state_value() gives it (nullopt when the model cannot) and `open`
  // the open ops it left unlinearized (ascending).
  std::vector<std::uint32_t> order;
  std::optional<Value> state;
  std::vector<std::uint32_t> open;
};
JitFrontier run_jit_to_the_end(const SubHistory& sub, const Model& model, MemoryBudget& memory, const StopSignal& stop);
// The tests for histories whose values are unique (unique_values.hpp): each decides
// at once, or declines (stopped, with a withdrawal reason) at once. With `tests`
// all, a register history they decline is refuted still if a read in it is stale by
// real time alone (stale_reads.hpp); --engine auto runs the two parts apart: the
// unique-value tests on every partition first, the stale reads, which cost a pass
// of O(n log n), only where the opening search did not decide within its first
// 100 ms.
enum class UniqueTests : std::uint8_t { all, unique_values, stale_reads };
std::unique_ptr<SearchEngine> make_unique_values(const SubHistory& sub, const Model& model, const StopSignal& stop,
                                                 UniqueTests tests = UniqueTests::all);
// Exhaustive enumeration of orders, for tiny histories (at most kBruteForceMaxOps,
// <ariadne/engine.hpp>): the test oracle.
std::unique_ptr<SearchEngine> make_brute_force(const SubHistory& sub, const Model& model, const StopSignal& stop);
// Sequential consistency: WGL over program order instead of real time, with the
// observers of each configuration placed without branching (program_order_search.cpp).
// Decides sub.consistency's sequential reading whatever it says.
std::unique_ptr<SearchEngine> make_program_order_search(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                                        const StopSignal& stop);

}  // namespace ariadne::search
