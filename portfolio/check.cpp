// check(): split the history into partitions, schedule the engines over them, and
// certify the answer before anyone sees it. Threads are started here, in race.cpp and
// in parallel.cpp only.
//
// Scheduling: partitions are time-sliced (a budget of model steps per turn, doubling
// each turn) across the worker threads, so a key that is hard to decide cannot keep a
// worker from the key that refutes the whole history; the first refutation stops
// everyone. With --engine auto, the native WGL search gets the first
// kRaceAfter of a partition to itself, which decides nearly every real history
// without starting a thread; a partition still open after that goes to the race
// (race.cpp): WGL carries on beside the SAT engine, and JIT and SMT join them a
// second later if neither has answered. The worker that started the race referees
// it and comes back to the queue when it ends.
// --engine sat and smt run the solver alone, in a race of one, whose referee enforces
// the deadline for the solver.
#include <ariadne/check.hpp>

#include "certify/witness_checker.hpp"
#include "engines/engine_table.hpp"
#include "portfolio/independent.hpp"
#include "portfolio/merge.hpp"
#include "portfolio/race.hpp"
#include "portfolio/refutation.hpp"
#include "encoder/encode.hpp"
#include "solvers/solver_engine.hpp"
#include "search/search_engine.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace ariadne {

namespace {

using search::Outcome;
using search::StopSignal;
using search::SubHistory;

// A native search decides almost every real history within this much of its own
// time; only partitions still open after it pay for the race's threads.
constexpr std::chrono::milliseconds kRaceAfter(100);
// How long the first two entrants of a race run alone before the others join.
constexpr std::chrono::milliseconds kSecondWave(1000);
// Histories with at least this many operations (over several partitions) start every
// worker at once; smaller ones start on the calling thread alone.
constexpr std::size_t kEagerHelpersOps = 20'000;

struct Partition {
  Value key;
  SubHistory sub;
  std::unique_ptr<search::SearchEngine> engine;
  Outcome outcome = Outcome::undecided;
  std::uint64_t slice = 0;
  std::vector<const Operation*> linearization;  // once decided, until certified
  std::vector<portfolio::ChainLink> chain;     // then, for the merge
  std::uint64_t steps = 0;
  std::chrono::steady_clock::duration searched{};  // time in this partition's engines
  std::string winner;                                // the engine that decided it
  std::string withdrawal;                            // why the engines gave up, if they did
  StopSignal::Why race_stop_reason = StopSignal::Why::none;
  RaceDiagnostics race;  // entrants empty unless this partition was raced
  bool tried_first = false;  // the race's first engines (EngineRow::first_in_race) ran
  std::vector<std::uint32_t> refuting_ops;  // the refuting engine's, see SearchEngine::refuting_ops
  // Engines of this partition stop when another partition refutes the history (the
  // scheduler's signal) or when this partition's race has its answer (settled). Held
  // by pointer because engines keep a reference and partitions move.
  std::unique_ptr<std::atomic<bool>> settled = std::make_unique<std::atomic<bool>>(false);
  std::unique_ptr<StopSignal> stop;
};

std::vector<Partition> split(const History& history, const Model& model) {
  std::vector<Partition> parts;
  if (!model.is_partitioned()) {
    if (history.ops.empty()) return parts;
    parts.emplace_back();
    for (const Operation& op : history.ops) parts.back().sub.ops.push_back(&op);
    return parts;
  }
  std::unordered_map<Value, std::size_t, ValueHash> index;
  for (const Operation& op : history.ops) {
    Value key = model.partition_key(op);
    auto [it, inserted] = index.try_emplace(key, parts.size());
    if (inserted) {
      parts.emplace_back();
      parts.back().key = key;
    }
    parts[it->second].sub.ops.push_back(&op);
  }
  return parts;
}

// An engine's name as the progress line counts it; nullopt for a name with no row.
std::optional<Engine> running_kind(std::string_view name) {
  if (const engines::EngineRow* row = engines::engine_row(name)) return row->engine;
  return std::nullopt;
}

// Marks an engine running for the progress line while it lives.
class RunningScope {
 public:
  RunningScope(const Limits& limits, std::string_view name) : limits_(limits), kind_(running_kind(name)) {
    if (kind_) limits_.engine_started(*kind_);
  }
  ~RunningScope() {
    if (kind_) limits_.engine_stopped(*kind_);
  }
  RunningScope(const RunningScope&) = delete;
  RunningScope& operator=(const RunningScope&) = delete;

 private:
  const Limits& limits_;
  std::optional<Engine> kind_;
};

// Engines keep their memory account in a MemoryBudget, which wants a number.
constexpr std::uint64_t kNoMemoryLimit = std::uint64_t{1} << 62;

class Scheduler {
 public:
  Scheduler(std::vector<Partition>& parts, const Model& model, const CheckOptions& options, const Limits& limits,
            Engine engine)
      : parts_(parts),
        model_(model),
        limits_(limits),
        engine_(engine),
        memory_(limits.memory_limit() > 0 ? limits.memory_limit() : kNoMemoryLimit, &limits),
        history_(parts.size()) {
    stop_.deadline = limits.deadline();
    stop_.limits = &limits;
    stop_.decided = &decided_;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      queue_.push_back(i);
      parts_[i].stop = std::make_unique<StopSignal>(stop_);
      parts_[i].stop->settled = parts_[i].settled.get();
    }
    unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    workers_ = std::min<std::size_t>(options.jobs ? options.jobs : hw, parts_.size());
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
    return s;
  }
  StopSignal::Why stop_reason() const { return stop_reason_; }
  std::uint64_t memory_limit() const { return memory_.limit(); }

 private:
  void work(bool may_start_helpers) {
    const bool sliced = parts_.size() > 1 || engine_ == Engine::automatic;
    while (true) {
      std::size_t i;
      {
        std::unique_lock lock(mutex_);
        // An empty queue with partitions in flight is not the end: they may come back.
        changed_.wait(lock, [&] { return !queue_.empty() || in_flight_ == 0 || decided_.load(); });
        if (queue_.empty() || decided_.load()) return;
        i = queue_.front();
        queue_.pop_front();
        ++in_flight_;
      }
      Partition& p = parts_[i];
      Outcome o = Outcome::out_of_memory;
      // Nothing may escape a worker thread (it would terminate the process): running
      // out of memory is an honest unknown, anything else a bug reported after join.
      try {
        if (engine_ == Engine::sat || engine_ == Engine::smt) {
          o = race(i, /*with_native=*/false);
        } else {
          if (!p.engine && engine_ == Engine::automatic && !p.tried_first) {
            p.tried_first = true;
            p.engine = first_answer(p);
          }
          if (!p.engine) {
            p.engine = make_engine(p.sub, *p.stop);
            p.slice = 1000;
          }
          const auto started = std::chrono::steady_clock::now();
          {
            const RunningScope running(limits_, p.engine->name());
            o = p.engine->run(sliced ? p.slice : UINT64_MAX);
          }
          p.searched += std::chrono::steady_clock::now() - started;
          p.slice *= 2;
          p.steps = p.engine->steps();
          if (o == Outcome::stopped && !p.engine->withdrawal_reason().empty()) {
            // An engine run alone that gave up on its own (unique: not its kind of history).
            p.withdrawal = p.engine->name() + ": " + p.engine->withdrawal_reason();
            p.race.withdrawals.push_back(p.withdrawal);
          } else if (o != Outcome::undecided) {
            p.winner = p.engine->name();
          } else if (engine_ == Engine::automatic && p.searched >= kRaceAfter) {
            o = race(i, /*with_native=*/true);
          }
        }
        if (o == Outcome::linearizable) certify_legality(p);
      } catch (const std::bad_alloc&) {
        o = Outcome::out_of_memory;
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex_);
        if (failure_.empty()) failure_ = e.what();
        o = Outcome::out_of_memory;
      }
      std::lock_guard lock(mutex_);
      --in_flight_;
      p.outcome = o;
      switch (o) {
        case Outcome::undecided:
          queue_.push_back(i);
          if (may_start_helpers) start_helpers();
          break;
        case Outcome::linearizable:
          break;
        case Outcome::out_of_memory:
          // Over the engines' own account: the command's memory limit is reached, for
          // every phase after this one too.
          limits_.note_memory_exceeded();
          [[fallthrough]];
        case Outcome::not_linearizable:
          decided_.store(true);
          if (p.engine) p.refuting_ops = p.engine->refuting_ops();
          p.engine.reset();
          break;
        case Outcome::stopped: {
          const StopSignal::Why why = p.engine ? p.engine->stop_reason() : p.race_stop_reason;
          if (stop_reason_ == StopSignal::Why::none) stop_reason_ = why;
          if (why != StopSignal::Why::decided) decided_.store(true);
          break;
        }
      }
      changed_.notify_all();
    }
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
  void certify_legality(Partition& p) {
    if (p.engine) {
      for (std::uint32_t local : p.engine->linearization()) p.linearization.push_back(p.sub.ops[local]);
      p.engine.reset();  // frees the memo table
    }
    if (auto problem = certify::check_legality(model_, p.linearization)) {
      throw InternalError("the " + p.winner + " engine's linearization failed the certificate check" +
                          (model_.is_partitioned() ? " on key " + p.key.to_edn() : std::string()) + ": " + *problem);
    }
    p.chain = portfolio::make_chain(p.linearization);
    p.linearization = {};
  }

  // The engines the table runs first in the race, in order: the first that answers
  // (it is run once more by the caller, which returns its answer at once), or nullptr
  // when each declined. Declining is how such a test says "not mine", not a
  // withdrawal from the race, so it is not reported.
  std::unique_ptr<search::SearchEngine> first_answer(Partition& p) {
    for (const engines::EngineRow& row : engines::engine_rows()) {
      if (!row.first_in_race) continue;
      std::unique_ptr<search::SearchEngine> engine = row.make(p.sub, model_, memory_, *p.stop);
      const Outcome o = engine->run(UINT64_MAX);
      if (o == Outcome::linearizable || o == Outcome::not_linearizable) return engine;
    }
    return nullptr;
  }

  // The race starts from WGL.
  std::unique_ptr<search::SearchEngine> make_engine(const SubHistory& sub, const StopSignal& stop) {
    return engines::engine_row(engine_ == Engine::automatic ? Engine::wgl : engine_).make(sub, model_, memory_, stop);
  }

  // Races the engines on partition i and referees until one answers or all stop. The
  // partition's native engine, if it has one, joins the race where it left off.
  Outcome race(std::size_t i, bool with_native) {
    Partition& p = parts_[i];
    // On two cores, two engines at a time: the native search carries on beside the
    // SAT engine (which decides most hard histories first), and JIT and SMT join
    // only if neither has answered after kSecondWave.
    std::vector<std::unique_ptr<search::SearchEngine>> entrants;
    std::vector<std::chrono::milliseconds> start_after;
    const bool solvers_apply = encoder::supports(model_, p.sub.ops).has_value();
    if (with_native) {
      entrants.push_back(std::move(p.engine));
      start_after.emplace_back(0);
    }
    if (engine_ == Engine::sat || (with_native && solvers_apply)) {
      entrants.push_back(solvers::make_sat_engine(p.sub, model_, memory_, *p.stop));
      start_after.emplace_back(0);
    }
    if (with_native) {
      entrants.push_back(search::make_jit(p.sub, model_, memory_, *p.stop));
      start_after.push_back(solvers_apply ? kSecondWave : std::chrono::milliseconds(0));
    }
    if (engine_ == Engine::smt || (with_native && solvers_apply)) {
      entrants.push_back(solvers::make_smt_engine(p.sub, model_, memory_, *p.stop));
      start_after.push_back(with_native ? kSecondWave : std::chrono::milliseconds(0));
    }

    portfolio::RaceSettings settings;
    settings.settled = p.settled.get();
    settings.stop = p.stop.get();
    // The referee measures growth from the race's start, when the first engine may
    // already hold memory the budget counts; allowing the whole limit on top of that
    // would let the process hold it twice over. It gets what the budget has left.
    const std::int64_t budget_left = static_cast<std::int64_t>(memory_.limit()) - memory_.used();
    settings.resident_allowance = static_cast<std::uint64_t>(std::max<std::int64_t>(1, budget_left));
    settings.start_after = std::move(start_after);
    settings.certify = [&](const std::vector<std::uint32_t>& order) { return certify_partition(i, order); };
    settings.started = [this](const search::SearchEngine& e) {
      if (const auto kind = running_kind(e.name())) limits_.engine_started(*kind);
    };
    settings.stopped = [this](const search::SearchEngine& e) {
      if (const auto kind = running_kind(e.name())) limits_.engine_stopped(*kind);
    };
    const auto started = std::chrono::steady_clock::now();
    portfolio::RaceResult r = portfolio::run_race(entrants, settings);
    p.searched += std::chrono::steady_clock::now() - started;

    p.steps = r.steps;
    p.winner = r.winner;
    p.race.entrants = r.entrants;
    p.race.losers_stopped_ms = r.stop_latency_ms;
    p.race.slowest_loser = r.slowest_to_stop;
    p.race.withdrawals = r.withdrawals;
    p.race_stop_reason = r.stop_reason;
    for (const std::string& w : r.withdrawals) p.withdrawal += (p.withdrawal.empty() ? "" : "; ") + w;
    if (!r.failure.empty()) {
      std::lock_guard lock(mutex_);
      if (failure_.empty()) failure_ = r.failure;
    }
    if (r.outcome == Outcome::linearizable) {
      for (std::uint32_t local : r.linearization) p.linearization.push_back(p.sub.ops[local]);
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
    return certify::check_linearization(h, model_, ids);
  }

  std::vector<Partition>& parts_;
  const Model& model_;
  const Limits& limits_;
  Engine engine_;
  search::MemoryBudget memory_;
  std::vector<History> history_;  // per partition, built when a race certifies one
  StopSignal stop_;
  std::atomic<bool> decided_{false};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::size_t> queue_;
  std::size_t in_flight_ = 0;
  std::vector<std::thread> helpers_;
  std::string failure_;
  std::size_t workers_ = 1;
  StopSignal::Why stop_reason_ = StopSignal::Why::none;
};

std::string describe_partition(const Model& model, const Partition& p) {
  return model.is_partitioned() ? " on key " + shorten(p.key.to_edn()) : std::string();
}

}  // namespace

namespace portfolio {

CheckResult decide(const History& history, const Model& model, const CheckOptions& options,
                   bool describe_refuted) {
  const auto started = std::chrono::steady_clock::now();
  CheckResult result;
  result.operations = history.ops.size();
  const Engine engine = options.engine;
  result.engine = std::string(engine_name(engine == Engine::automatic ? Engine::wgl : engine));

  // Without the command's limits, the check makes its own from the options.
  std::optional<Limits> own_limits;
  if (!options.limits) own_limits.emplace(options.timeout_seconds, options.memory_limit, options.cancel);
  const Limits& limits = options.limits ? *options.limits : *own_limits;
  limits.enter(Phase::verdict);

  std::vector<Partition> parts = split(history, model);
  result.partitions = parts.size();
  auto finish = [&]() -> CheckResult {
    result.elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (const Limit reached = limits.first_reached(); reached != Limit::none) {
      result.limit = reached;
      result.limit_phase = limits.phase_when_reached();
    }
    return result;
  };

  if (engine == Engine::brute) {
    for (const Partition& p : parts) {
      if (p.sub.ops.size() > kBruteForceMaxOps) {
        result.verdict = Verdict::unknown;
        result.reason = "the brute-force engine handles at most " + std::to_string(kBruteForceMaxOps) +
                        " operations per partition, and this history has " + std::to_string(p.sub.ops.size()) +
                        describe_partition(model, p);
        return finish();
      }
    }
  }

  Scheduler scheduler(parts, model, options, limits, engine);
  scheduler.run();
  result.peak_search_bytes = scheduler.peak_bytes();
  for (const Partition& p : parts) result.steps += p.steps;
  // The engine that answered: the refuting partition's, else the one that decided the
  // partition that took longest, which is where the race (if any) was run.
  const Partition* slowest = nullptr;
  for (const Partition& p : parts) {
    if (!p.winner.empty() && (!slowest || p.searched > slowest->searched)) slowest = &p;
  }
  if (slowest) result.engine = slowest->winner;
  for (const Partition& p : parts) {
    if (p.race.entrants.empty()) continue;
    if (result.race.entrants.empty() || &p == slowest) result.race.entrants = p.race.entrants;
    if (p.race.losers_stopped_ms >= result.race.losers_stopped_ms) {
      result.race.losers_stopped_ms = p.race.losers_stopped_ms;
      result.race.slowest_loser = p.race.slowest_loser;
    }
    result.race.withdrawals.insert(result.race.withdrawals.end(), p.race.withdrawals.begin(), p.race.withdrawals.end());
  }

  // A refutation is final whatever else happened; report the first partition refuted.
  for (const Partition& p : parts) {
    if (p.outcome != Outcome::not_linearizable) continue;
    result.verdict = Verdict::not_linearizable;
    result.engine = p.winner;
    if (!p.race.entrants.empty()) result.race.entrants = p.race.entrants;
    if (model.is_partitioned()) result.failing_partition = p.key.to_edn();
    const auto verdict_time = std::chrono::steady_clock::now() - started;
    result.verdict_ms = std::chrono::duration<double, std::milli>(verdict_time).count();
    portfolio::Refutation refutation;
    refutation.sub = &p.sub;
    refutation.partition = describe_partition(model, p);
    refutation.winner = p.winner;
    refutation.steps = p.steps;
    refutation.refuting_ops = p.refuting_ops;
    refutation.verdict_time = verdict_time;
    refutation.limits = scheduler.limits();
    if (describe_refuted) portfolio::describe_refutation(refutation, model, options, limits, result);
    return finish();
  }
  // Unknown: memory is the more specific reason, since running out of it stops the
  // other partitions too (they then merely report having been stopped).
  const Partition* undecided = nullptr;
  for (const Partition& p : parts) {
    if (p.outcome == Outcome::out_of_memory) {
      limits.note_memory_exceeded();
      result.verdict = Verdict::unknown;
      result.reason = limits.describe(Limit::memory) + describe_partition(model, p);
      return finish();
    }
    if (p.outcome != Outcome::linearizable && !undecided) undecided = &p;
  }
  if (undecided) {
    result.verdict = Verdict::unknown;
    const Limit reached = limits.first_reached();
    if (reached == Limit::none && !undecided->withdrawal.empty()) {
      result.reason = undecided->withdrawal + describe_partition(model, *undecided);
    } else if (reached == Limit::cancelled || reached == Limit::memory) {
      result.reason = limits.describe(reached) + describe_partition(model, *undecided);
    } else {
      // The deadline, whether the limits or an engine noticed it first.
      if (reached == Limit::none) (void)limits.reached();
      result.reason = limits.describe(Limit::timeout) + describe_partition(model, *undecided);
    }
    return finish();
  }

  std::vector<std::vector<portfolio::ChainLink>> chains;
  chains.reserve(parts.size());
  for (Partition& p : parts) chains.push_back(std::move(p.chain));
  result.linearization = portfolio::merge_chains(chains);
  // Each partition's legality was replayed as it was decided (certify_legality).
  if (auto problem = certify::check_order(history, model, result.linearization)) {
    throw InternalError("the " + result.engine + " engine's linearization failed the certificate check: " +
                        *problem);
  }
  result.verdict = Verdict::linearizable;
  return finish();
}

}  // namespace portfolio

CheckResult check(const History& history, const Model& model, const CheckOptions& options) {
  if (const Model* inner = independent_inner_model(model)) {
    return portfolio::check_independent(history, model, *inner, options);
  }
  return portfolio::decide(history, model, options, /*describe_refuted=*/true);
}

}  // namespace ariadne
