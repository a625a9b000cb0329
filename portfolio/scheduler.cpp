#include "portfolio/scheduler.hpp"

#include "base/limits_ledger.hpp"
#include "certify/witness_checker.hpp"
#include "engines/engine_table.hpp"
#include "portfolio/confirmation.hpp"
#include "portfolio/race.hpp"
#include "portfolio/race_plan.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace ariadne::portfolio {

namespace {

using search::Outcome;
using search::StopSignal;
using search::SubHistory;

// Histories with at least this many operations (over several partitions) start every
// worker at once; smaller ones start on the calling thread alone.
constexpr std::size_t kEagerHelpersOps = 20'000;

// How long the partitions before a refuted one may go on once it is refuted, so that
// the report names the first refuted key in order of appearance (the key a sharded
// run, check --merge, names too): as long again as the check took to find the
// refutation, at least this, and never more than a quarter of the time left before
// the deadline, which the core still needs.
// The rule for the key reported when a core is asked for: the first refuted key in
// order of first appearance among the keys decided when the grace ends. Every key
// before it was then found linearizable; a key before it still undecided at the end
// of the grace is the one case where runs (and check --merge over key shards) may
// name different keys, with the same verdict. The grace is not part of the verdict:
// the first refutation is confirmed as soon as it is found (RefutedHook), which is
// when the verdict is known; the grace delays only the core, by at most its bound.
// Without a core (--no-core, corpus rows) there is no grace: the check returns with
// the first refutation, naming the first refuted key in order among those decided by
// then, which may be a later key than a run with a core names.
constexpr std::chrono::milliseconds kMinGrace{1000};

// Marks an engine running for the progress line while it lives.
class RunningScope {
 public:
  RunningScope(const Limits& limits, Engine engine) : limits_(limits), engine_(engine) {
    base::engine_started(limits_, engine_);
  }
  ~RunningScope() { base::engine_stopped(limits_, engine_); }
  RunningScope(const RunningScope&) = delete;
  RunningScope& operator=(const RunningScope&) = delete;

 private:
  const Limits& limits_;
  Engine engine_;
};

// Engines keep their memory account in a MemoryBudget, which wants a number.
constexpr std::uint64_t kNoMemoryLimit = std::uint64_t{1} << 62;

class Scheduler {
 public:
  // Engines left in the partitions (stopped, or undecided when another partition
  // decided) hold a share of memory_ and watch stop_'s flags, which die with the
  // scheduler while the partitions live on: they go first. Found by the Debug build
  // at -O0 (make test-debug), where Ctrl-C or --timeout with wgl or jit then wrote
  // into the scheduler's dead stack frame as the partitions were destroyed.
  ~Scheduler() {
    for (Partition& part : parts_) part.run.engine.reset();
  }
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;
  Scheduler(std::vector<Partition>& parts, const Model& model, const CheckOptions& options, const Limits& limits,
            Engine engine, std::span<const Engine> distrusted, const RefutedHook& on_refuted)
      : parts_(parts),
        model_(model),
        limits_(limits),
        engine_(engine),
        on_refuted_(on_refuted),
        memory_(limits.memory_limit() > 0 ? limits.memory_limit() : kNoMemoryLimit, &limits),
        history_(parts.size()) {
    for (const Engine e : distrusted) distrust(e);
    stop_.deadline = limits.deadline();
    stop_.limits = &limits;
    stop_.decided = &decided_;
    stop_.decided_after = &grace_end_;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      queue_.push_back(i);
      parts_[i].run.stop = std::make_unique<StopSignal>(stop_);
      parts_[i].run.stop->settled = parts_[i].run.settled.get();
    }
    // check() has bounded options.jobs by the command's jobs.
    workers_ = std::min<std::size_t>(options.jobs ? options.jobs : limits.jobs(), parts_.size());
    // The grace chooses which key's core is shrunk and reported; a check that shrinks
    // none (--no-core, corpus rows) returns with its verdict instead.
    grace_for_earlier_ = options.minimal_core && !options.verdict_only;
  }

  // The calling thread starts alone; helpers are started only once some partition
  // needs a second slice, i.e. once there is real work to share. Small keyed histories
  // (most of them) are then decided without paying for threads at all.
  void run() {
    // A large keyed history has work for every core from the start: its partitions
    // are each decided in a slice or two, so waiting for one that needs a second slice
    // would leave the other cores idle through most of it.
    std::size_t total_ops = 0;
    for (const Partition& p : parts_) total_ops += p.sub.ops.size();
    if (workers_ > 1 && total_ops >= kEagerHelpersOps) start_helpers();
    work(/*may_start_helpers=*/workers_ > 1);
    for (auto& t : helpers_) t.join();
    if (!failure_.empty()) throw InternalError("a search engine failed: " + failure_);
  }

  std::uint64_t peak_bytes() const { return memory_.peak(); }
  // The limits of this check, without the "another partition decided" condition.
  StopSignal limits() const {
    StopSignal s = stop_;
    s.decided = nullptr;
    s.decided_after = nullptr;
    return s;
  }

 private:
  void work(bool may_start_helpers) {
    const bool sliced = parts_.size() > 1 || engine_ == Engine::automatic;
    while (true) {
      std::size_t i;
      {
        std::unique_lock lock(mutex_);
        // An empty queue with partitions in flight is not the end: they may come back.
        changed_.wait(lock, [&] { return !queue_.empty() || in_flight_ == 0 || decided(); });
        if (queue_.empty() || decided()) return;
        i = queue_.front();
        queue_.pop_front();
        if (i > first_refuted_) {
          // Refuted by an earlier partition: this one's answer is not wanted.
          parts_[i].answer.outcome = Outcome::stopped;
          changed_.notify_all();
          continue;
        }
        ++in_flight_;
      }
      Partition& p = parts_[i];
      Outcome o = Outcome::out_of_memory;
      // Nothing may escape a worker thread (it would terminate the process): running
      // out of memory is an honest unknown, anything else (an engine's exception, a
      // certificate check that threw) a bug reported after join, as an InternalError.
      try {
        if (engine_ != Engine::automatic && engines::engine_row(engine_).kind == engines::EngineKind::solver) {
          o = race(i, /*with_native=*/false);
        } else {
          if (!p.run.engine && engine_ == Engine::automatic && !p.run.tried_first) {
            p.run.tried_first = true;
            p.run.engine = first_answer(p);
          }
          if (!p.run.engine) {
            p.run.engine = make_searched(p.sub, *p.run.stop);
            p.run.slice = 1000;
          }
          if (!p.run.engine) {
            // The opening search is distrusted: the race, without it, from the start.
            o = race(i, /*with_native=*/false);
          } else {
            const auto started = std::chrono::steady_clock::now();
            {
              const RunningScope running(limits_, p.run.engine->id());
              o = p.run.engine->run(sliced ? p.run.slice : UINT64_MAX);
            }
            p.answer.searched += std::chrono::steady_clock::now() - started;
            p.run.slice *= 2;
            p.answer.steps = p.run.engine->steps();
            if (o == Outcome::stopped && !p.run.engine->withdrawal_reason().empty()) {
              // An engine run alone that gave up on its own (unique: not its kind of history).
              p.answer.withdrawal =
                  std::string(engine_name(p.run.engine->id())) + ": " + p.run.engine->withdrawal_reason();
              p.answer.race.withdrawals.push_back(p.answer.withdrawal);
            } else if (o != Outcome::undecided) {
              p.answer.winner = p.run.engine->id();
            } else if (engine_ == Engine::automatic && p.answer.searched >= kRaceAfter) {
              o = before_race(p);
              if (o == Outcome::undecided) o = race(i, /*with_native=*/true);
            }
          }
        }
        if (o == Outcome::linearizable && !certify_legality(p)) {
          // Dropped: under --engine auto the partition goes back to the queue, its
          // engines less the one that was wrong; an engine chosen alone leaves it
          // undecided, saying why.
          o = engine_ == Engine::automatic ? Outcome::undecided : Outcome::stopped;
        }
      } catch (const std::bad_alloc&) {
        o = Outcome::out_of_memory;
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex_);
        if (failure_.empty()) failure_ = e.what();
        o = Outcome::engine_failed;
      }
      bool newly_first = false;
      std::unique_lock lock(mutex_);
      --in_flight_;
      p.answer.outcome = o;
      switch (o) {
        case Outcome::undecided:
          queue_.push_back(i);
          if (may_start_helpers) start_helpers();
          break;
        case Outcome::linearizable: break;
        case Outcome::out_of_memory:
          // Over the engines' own account: the command's memory limit is reached, for
          // every phase after this one too.
          limits_.note_memory_exceeded();
          decided_.store(true);
          p.run.engine.reset();
          break;
        case Outcome::engine_failed:
          // A bug, not a limit: the check ends and run() throws once the workers are
          // joined; the command's limits are left as they are, so nothing after it
          // reads the failure as memory running out.
          decided_.store(true);
          p.run.engine.reset();
          break;
        case Outcome::not_linearizable:
          if (p.run.engine) p.answer.refuting_ops = p.run.engine->refuting_ops();
          p.run.engine.reset();
          newly_first = refuted(i);
          break;
        case Outcome::stopped: {
          const StopSignal::Why why = p.run.engine ? p.run.engine->stop_reason() : p.run.race_stop_reason;
          if (why != StopSignal::Why::decided) decided_.store(true);
          break;
        }
      }
      if (o != Outcome::undecided && first_refuted_ != kNone && !earlier_pending()) decided_.store(true);
      changed_.notify_all();
      if (newly_first && on_refuted_) {
        // Outside the lock: the other workers go on with the partitions before this
        // one while it is confirmed. No worker touches a refuted partition again.
        lock.unlock();
        run_hook(i);
      }
    }
  }

  // The caller's hook on partition i; what it throws ends the check as an engine's
  // exception does (run() rethrows it as an InternalError after the join).
  void run_hook(std::size_t i) {
    try {
      on_refuted_(i, limits());
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      if (failure_.empty()) failure_ = e.what();
      decided_.store(true);
      changed_.notify_all();
    }
  }

  // Partition i is refuted (mutex_ held). The history is not linearizable; which
  // partition the report names is settled here. The one first in order of appearance
  // wins, so the partitions after it stop at once, and those before it go on until
  // each is decided or the grace runs out (kMinGrace): the report is then the same
  // whatever order the workers happened to decide the partitions in, and the same as
  // check --merge's over key shards.
  // Returns whether i is now the first refuted partition in order.
  bool refuted(std::size_t i) {
    if (i >= first_refuted_) return false;
    const bool first = first_refuted_ == kNone;
    first_refuted_ = i;
    for (std::size_t j = i + 1; j < parts_.size(); ++j) parts_[j].run.settled->store(true);
    if (!first || !earlier_pending()) return true;
    if (!grace_for_earlier_) {
      decided_.store(true);
      return true;
    }
    const auto now = std::chrono::steady_clock::now();
    auto grace = std::max<std::chrono::steady_clock::duration>(kMinGrace, now - started_);
    if (limits_.deadline() != std::chrono::steady_clock::time_point::max()) {
      grace = std::min<std::chrono::steady_clock::duration>(grace, (limits_.deadline() - now) / 4);
    }
    // The partitions still running see the grace end at their next poll (StopSignal::
    // decided_after), and come back to a queue the workers then leave.
    grace_end_.store((now + grace).time_since_epoch().count());
    return true;
  }

  // Whether the check is over: a refutation has no earlier partition left to wait
  // for, or its grace has ended, or a limit stopped it.
  bool decided() const {
    if (decided_.load()) return true;
    const std::chrono::steady_clock::rep grace_end = grace_end_.load();
    return grace_end != 0 && std::chrono::steady_clock::now().time_since_epoch().count() >= grace_end;
  }

  // Whether a partition before the first refuted one is still undecided (mutex_ held).
  bool earlier_pending() const {
    for (std::size_t j = 0; j < first_refuted_ && j < parts_.size(); ++j) {
      if (parts_[j].answer.outcome == Outcome::undecided) return true;
    }
    return false;
  }

  // Called before any helper runs, or with mutex_ held.
  void start_helpers() {
    if (!helpers_.empty()) return;
    for (std::size_t h = 1; h < workers_; ++h) helpers_.emplace_back([this] { work(false); });
  }

  // A partition's linearization, and the certificate checker's replay of the model
  // over it, done by the worker that decided the partition: in parallel, and while the
  // partition's operations are still in cache. check() then only checks membership
  // and real time of the merged order (certify::check_order); together that is
  // certify::check_linearization.
  // False when the certificate checker rejects the order: the engine that found it is
  // then distrusted for the rest of the check and its answer dropped.
  bool certify_legality(Partition& p) {
    if (p.run.engine) {
      for (std::uint32_t local : p.run.engine->linearization()) p.answer.linearization.push_back(p.sub.ops[local]);
      p.run.engine.reset();  // frees the memo table
    }
    if (auto problem = certify::check_legality(model_, p.answer.linearization)) {
      const Engine wrong = p.answer.winner.value_or(engine_);
      p.answer.dropped.push_back(uncertified_linearization(wrong, *problem + describe_partition(model_, p)));
      p.answer.withdrawal = p.answer.dropped.back();
      p.answer.linearization = {};
      p.answer.winner.reset();
      distrust(wrong);
      return false;
    }
    p.answer.chain = make_chain(p.answer.linearization);
    p.answer.linearization = {};
    return true;
  }

  // The engines the table runs first in the race, in order: the first that answers
  // (it is run once more by the caller, which returns its answer at once), or nullptr
  // when each declined. Declining is how such a test says "not mine", not a
  // withdrawal from the race, so it is not reported.
  std::unique_ptr<search::SearchEngine> first_answer(Partition& p) {
    for (const engines::EngineRow& row : engines::engine_rows()) {
      if (row.race != engines::RaceRole::first || !engines::decides(row, p.sub.consistency)) continue;
      if (distrusts(row.engine)) continue;
      const engines::EngineRow::Make make = row.make_first ? row.make_first : row.make;
      std::unique_ptr<search::SearchEngine> engine = make(p.sub, model_, memory_, *p.run.stop);
      const Outcome o = engine->run(UINT64_MAX);
      if (o == Outcome::linearizable || o == Outcome::not_linearizable) return engine;
    }
    return nullptr;
  }

  // The first engines' costlier parts (EngineRow::make_before_race), once, on a
  // partition the opening search has not decided within kRaceAfter. An answer ends
  // the partition as the first pass's would: the engine that gave it replaces the
  // opening search (whose memo table goes with it). Undecided when none answers.
  Outcome before_race(Partition& p) {
    for (const engines::EngineRow& row : engines::engine_rows()) {
      if (row.race != engines::RaceRole::first || !row.make_before_race) continue;
      if (!engines::decides(row, p.sub.consistency) || distrusts(row.engine)) continue;
      std::unique_ptr<search::SearchEngine> engine = row.make_before_race(p.sub, model_, memory_, *p.run.stop);
      const auto started = std::chrono::steady_clock::now();
      Outcome o;
      {
        const RunningScope running(limits_, engine->id());
        o = engine->run(UINT64_MAX);
      }
      p.answer.searched += std::chrono::steady_clock::now() - started;
      if (o != Outcome::linearizable && o != Outcome::not_linearizable) continue;
      p.answer.steps = p.run.engine->steps() + engine->steps();
      p.answer.winner = engine->id();
      p.run.engine = std::move(engine);
      return o;
    }
    return Outcome::undecided;
  }

  bool distrusts(Engine e) const {
    return (distrusted_.load(std::memory_order_relaxed) & (1u << static_cast<unsigned>(e))) != 0;
  }
  void distrust(Engine e) { distrusted_.fetch_or(1u << static_cast<unsigned>(e), std::memory_order_relaxed); }
  std::vector<Engine> distrusted() const {
    std::vector<Engine> out;
    for (const engines::EngineRow& row : engines::engine_rows()) {
      if (distrusts(row.engine)) out.push_back(row.engine);
    }
    return out;
  }

  // The engine searched in slices: the one chosen, or under --engine auto the opening
  // search the race starts from (RaceRole::opening); nullptr when that is distrusted.
  std::unique_ptr<search::SearchEngine> make_searched(const SubHistory& sub, const StopSignal& stop) {
    if (engine_ != Engine::automatic) return engines::engine_row(engine_).make(sub, model_, memory_, stop);
    for (const engines::EngineRow& row : engines::engine_rows()) {
      if (row.race == engines::RaceRole::opening && engines::decides(row, sub.consistency)) {
        if (distrusts(row.engine)) return nullptr;
        return row.make(sub, model_, memory_, stop);
      }
    }
    throw std::logic_error("the engine table has no opening search for the race");
  }

  // Races the engines on partition i and referees until one answers or all stop. The
  // partition's native engine, if it has one, joins the race where it left off.
  Outcome race(std::size_t i, bool with_native) {
    Partition& p = parts_[i];
    RacePlan plan = plan_race(engine_, with_native ? std::move(p.run.engine) : nullptr, p.sub, model_, memory_,
                              *p.run.stop, distrusted());
    RaceSettings settings;
    settings.settled = p.run.settled.get();
    settings.jobs = limits_.jobs();
    settings.stop = p.run.stop.get();
    // The referee measures growth from the race's start, when the first engine may
    // already hold memory the budget counts; allowing the whole limit on top of that
    // would let the process hold it twice over. It gets what the budget has left.
    const std::int64_t budget_left = static_cast<std::int64_t>(memory_.limit()) - memory_.used();
    settings.resident_allowance = static_cast<std::uint64_t>(std::max<std::int64_t>(1, budget_left));
    settings.start_after = std::move(plan.start_after);
    settings.certify = [&](const std::vector<std::uint32_t>& order) { return certify_partition(i, order); };
    settings.started = [this](const search::SearchEngine& e) { base::engine_started(limits_, e.id()); };
    settings.stopped = [this](const search::SearchEngine& e) { base::engine_stopped(limits_, e.id()); };
    const auto started = std::chrono::steady_clock::now();
    RaceResult r = run_race(plan.entrants, settings);
    p.answer.searched += std::chrono::steady_clock::now() - started;

    p.answer.steps = r.steps;
    p.answer.winner = r.winner;
    for (const Engine e : r.entrants) p.answer.race.entrants.emplace_back(engine_name(e));
    p.answer.race.losers_stopped_ms = r.stop_latency_ms;
    if (r.slowest_to_stop) p.answer.race.slowest_loser = engine_name(*r.slowest_to_stop);
    p.answer.race.withdrawals = r.withdrawals;
    p.answer.dropped.insert(p.answer.dropped.end(), r.dropped.begin(), r.dropped.end());
    for (const Engine e : r.distrusted) distrust(e);
    p.run.race_stop_reason = r.stop_reason;
    for (const std::string& w : r.withdrawals) p.answer.withdrawal += (p.answer.withdrawal.empty() ? "" : "; ") + w;
    for (const std::string& d : r.dropped) p.answer.withdrawal += (p.answer.withdrawal.empty() ? "" : "; ") + d;
    if (!r.failure.empty()) {
      std::lock_guard lock(mutex_);
      if (failure_.empty()) failure_ = r.failure;
    }
    if (r.outcome == Outcome::linearizable) {
      for (std::uint32_t local : r.linearization) p.answer.linearization.push_back(p.sub.ops[local]);
    }
    return r.outcome;
  }

  // The certificate check of one partition's linearization, on that partition alone.
  std::optional<std::string> certify_partition(std::size_t i, const std::vector<std::uint32_t>& order) {
    const Partition& p = parts_[i];
    History& h = history_[i];
    if (h.ops.empty()) {
      for (const Operation* op : p.sub.ops) h.ops.push_back(*op);
      std::ranges::sort(h.ops, {}, &Operation::id);
    }
    std::vector<std::uint32_t> ids;
    ids.reserve(order.size());
    for (std::uint32_t local : order) ids.push_back(p.sub.ops[local]->id);
    return certify::check_linearization(h, model_, ids, p.sub.consistency);
  }

  std::vector<Partition>& parts_;
  const Model& model_;
  const Limits& limits_;
  Engine engine_;
  const RefutedHook& on_refuted_;
  std::atomic<std::uint32_t> distrusted_{0};  // engines never run again, a bit per Engine
  search::MemoryBudget memory_;
  std::vector<History> history_;  // per partition, built when a race certifies one
  StopSignal stop_;
  std::atomic<bool> decided_{false};
  std::atomic<std::chrono::steady_clock::rep> grace_end_{0};  // see refuted(); 0: no grace running
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::size_t> queue_;
  std::size_t in_flight_ = 0;
  std::vector<std::thread> helpers_;
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t first_refuted_ = kNone;  // the refuted partition first in order, under mutex_
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::string failure_;
  std::size_t workers_ = 1;
  bool grace_for_earlier_ = true;  // see the constructor
};

}  // namespace

Schedule schedule(std::vector<Partition>& parts, const Model& model, const CheckOptions& options, const Limits& limits,
                  Engine engine, std::span<const Engine> distrusted, const RefutedHook& on_refuted) {
  Scheduler scheduler(parts, model, options, limits, engine, distrusted, on_refuted);
  scheduler.run();
  return {.peak_search_bytes = scheduler.peak_bytes(), .limits = scheduler.limits()};
}

}  // namespace ariadne::portfolio
