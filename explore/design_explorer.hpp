// The Explorer for one design type: the searches of explorer.hpp as templates over
// the design, so that a step is a few state copies and no virtual calls.
#pragma once

#include "explore/explorer.hpp"
#include "explore/fast_random.hpp"
#include "explore/online_checker.hpp"
#include "explore/trace_history.hpp"
#include "explore/visited_table.hpp"
#include "systems/canonical_key.hpp"
#include "systems/system_design.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace ariadne::explore {

// When a search must stop: its own time budget, the command's limits (the deadline,
// Ctrl-C, memory), a cancel flag, or nothing.
class StopWatch {
 public:
  explicit StopWatch(const ExploreLimits& limits)
      : start_(std::chrono::steady_clock::now()),
        timeout_(limits.timeout_seconds),
        cancel_(limits.cancel),
        limits_(limits.limits) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  // Why to stop now, or empty.
  std::string reason() const {
    if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) return "interrupted";
    if (limits_) {
      switch (limits_->reached()) {
        case Limit::none: break;
        case Limit::cancelled: return "interrupted";
        case Limit::timeout: return "time limit reached";
        case Limit::memory: return "memory limit reached";
      }
    }
    if (timeout_ > 0 && seconds() >= timeout_) return "time limit reached";
    return {};
  }

 private:
  std::chrono::steady_clock::time_point start_;
  double timeout_;
  const std::atomic<bool>* cancel_;
  const Limits* limits_;
};

template <systems::SystemDesign D>
class DesignExplorer final : public Explorer {
 public:
  using State = typename D::State;
  using Successors = std::vector<systems::Successor<State>>;

  explicit DesignExplorer(D design) : design_(std::move(design)) {}
  std::string_view name() const override { return D::name(); }

  RandomReport random(const RandomOptions& options, const ExploreLimits& limits,
                      const ProgressCallback& progress) const override {
    RandomReport report;
    const StopWatch watch(limits);
    report.jobs = options.jobs == 0 ? available_cpus() : options.jobs;
    std::atomic<std::uint64_t> next{0};
    std::atomic<std::uint64_t> finished{0};
    std::atomic<std::uint64_t> failures{0};
    std::mutex merge;
    const auto walk_chunks = [&](unsigned index) {
      constexpr std::uint64_t kChunk = 256;
      Walker walker(design_);
      RandomReport mine;
      while (true) {
        const std::uint64_t begin = next.fetch_add(kChunk);
        if (begin >= options.trajectories) break;
        if (std::string why = watch.reason(); !why.empty()) {
          mine.stopped = std::move(why);
          break;
        }
        const std::uint64_t end = std::min(options.trajectories, begin + kChunk);
        const std::uint64_t failed_before = mine.counterexamples;
        for (std::uint64_t t = begin; t < end; ++t) {
          FastRandom draws(options.seed, t);
          const End ended = walker.walk(draws, options.depth);
          ++mine.trajectories;
          mine.steps += walker.actions.size();
          if (ended == End::dead_end) ++mine.dead_ends;
          if (ended == End::violation) {
            ++mine.counterexamples;
            if (!mine.first_failing_trajectory || t < *mine.first_failing_trajectory) {
              mine.first_failing_trajectory = t;
              mine.first_counterexample = walker.actions;
            }
          }
          design_.tally(walker.state, mine.tally);
        }
        finished.fetch_add(end - begin);
        failures.fetch_add(mine.counterexamples - failed_before);
        if (index == 0 && progress) progress(ExploreProgress{finished.load(), 0, failures.load()});
      }
      const std::lock_guard lock(merge);
      report.trajectories += mine.trajectories;
      report.steps += mine.steps;
      report.dead_ends += mine.dead_ends;
      report.counterexamples += mine.counterexamples;
      report.tally.merge(mine.tally);
      if (report.stopped.empty()) report.stopped = mine.stopped;
      if (mine.first_failing_trajectory &&
          (!report.first_failing_trajectory || *mine.first_failing_trajectory < *report.first_failing_trajectory)) {
        report.first_failing_trajectory = mine.first_failing_trajectory;
        report.first_counterexample = std::move(mine.first_counterexample);
      }
    };
    std::exception_ptr failure;  // the first exception a worker threw, rethrown below
    const auto worker = [&](unsigned index) {
      try {
        walk_chunks(index);
      } catch (...) {
        const std::lock_guard lock(merge);
        if (!failure) failure = std::current_exception();
        next.store(options.trajectories);  // the other workers stop at their next chunk
      }
    };
    std::vector<std::thread> threads;
    for (unsigned j = 1; j < report.jobs; ++j) threads.emplace_back(worker, j);
    worker(0);
    for (auto& thread : threads) thread.join();
    if (failure) std::rethrow_exception(failure);
    report.seconds = watch.seconds();
    return report;
  }

  ExhaustiveReport exhaustive(int depth, bool stop_at_first, const ExploreLimits& limits,
                              const ProgressCallback& progress) const override {
    ExhaustiveReport report;
    report.depth = depth;
    const StopWatch watch(limits);
    VisitedTable visited(limits.memory_limit);
    systems::CanonicalKey key;
    std::vector<Frame> frames(static_cast<std::size_t>(depth) + 1);
    frames[0].state = design_.initial();
    frames[0].checker.reset();
    const auto visit = [&](const Frame& frame, int remaining) {
      key.clear();
      design_.canonical(frame.state, key);
      frame.checker.canonical(key);
      return visited.visit(key.hash(), remaining);
    };
    visit(frames[0], depth);
    design_.successors(frames[0].state, frames[0].successors);
    std::size_t level = 0;
    bool full = false;
    while (true) {
      Frame& frame = frames[level];
      if (frame.next == frame.successors.size()) {
        if (level == 0) break;
        --level;
        continue;
      }
      const auto& successor = frame.successors[frame.next++];
      ++report.transitions;
      if ((report.transitions & 0xFFFF) == 0) {
        if (std::string why = watch.reason(); !why.empty()) {
          report.stopped = std::move(why);
          break;
        }
        if (progress) progress(ExploreProgress{0, visited.size(), report.counterexample ? 1u : 0u});
      }
      Frame& child = frames[level + 1];
      child.state = successor.state;
      child.checker = frame.checker;
      child.via = successor.step.action;
      bool linearizable = true;
      for (std::uint8_t e = 0; e < successor.step.event_count && linearizable; ++e)
        linearizable = child.checker.feed(successor.step.events[e]);
      if (!linearizable) {
        if (!report.counterexample) {
          std::vector<Action> path;
          for (std::size_t f = 1; f <= level + 1; ++f) path.push_back(frames[f].via);
          report.counterexample = std::move(path);
        }
        if (stop_at_first) break;
        continue;
      }
      const int remaining = depth - static_cast<int>(level + 1);
      const VisitedTable::Outcome outcome = visit(child, remaining);
      if (outcome == VisitedTable::Outcome::full) {
        full = true;
        break;
      }
      if (outcome == VisitedTable::Outcome::skip || remaining == 0) continue;
      child.successors.clear();
      design_.successors(child.state, child.successors);
      child.next = 0;
      ++level;
    }
    report.states = visited.size();
    report.table_bytes = visited.bytes();
    report.seconds = watch.seconds();
    if (full) report.stopped = "memory limit reached (visited set)";
    report.complete = report.stopped.empty() && !(stop_at_first && report.counterexample);
    return report;
  }

  ShrinkReport shrink(const std::vector<Action>& failing, const ExploreLimits& limits) const override {
    const StopWatch watch(limits);
    ShrinkReport report;
    report.original_steps = failing.size();
    std::optional<std::size_t> fails_at = run(failing);
    if (!fails_at) throw std::invalid_argument("shrink: the trajectory does not fail");
    std::vector<Action> current(failing.begin(), failing.begin() + static_cast<std::ptrdiff_t>(*fails_at + 1));
    // First remove steps, in chunks then one by one [Zeller02], keeping every
    // candidate whose replay still fails (cut at its failing step).
    for (std::size_t chunk = std::max<std::size_t>(1, current.size() / 2); chunk >= 1;) {
      bool removed = false;
      for (std::size_t start = 0; start + chunk <= current.size();) {
        std::vector<Action> candidate = current;
        candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(start),
                        candidate.begin() + static_cast<std::ptrdiff_t>(start + chunk));
        if (const auto at = run(candidate)) {
          candidate.resize(*at + 1);
          current = std::move(candidate);
          removed = true;
        } else {
          ++start;
        }
      }
      if (!removed) {
        if (chunk == 1) break;
        chunk /= 2;
      }
    }
    report.after_removal = current.size();
    // Then look for any shorter failing trajectory, deepening one step at a time, so
    // the first found is a shortest one.
    report.proven_shortest = true;
    for (int depth = 1; depth < static_cast<int>(current.size()); ++depth) {
      ExploreLimits left = limits;
      if (limits.timeout_seconds > 0) {
        left.timeout_seconds = limits.timeout_seconds - watch.seconds();
        if (left.timeout_seconds <= 0) {
          report.proven_shortest = false;
          report.stopped = "time limit reached";
          break;
        }
      }
      const ExhaustiveReport search = exhaustive(depth, true, left, {});
      report.states += search.states;
      if (search.counterexample) {
        current = *search.counterexample;
        break;
      }
      if (!search.complete) {
        report.proven_shortest = false;
        report.stopped = search.stopped;
        break;
      }
    }
    report.actions = std::move(current);
    report.seconds = watch.seconds();
    return report;
  }

  Trace replay(const std::vector<Action>& actions) const override {
    Trace trace;
    State state = design_.initial();
    OnlineChecker checker;
    Successors successors;
    for (const Action& action : actions) {
      successors.clear();
      design_.successors(state, successors);
      const auto chosen =
          std::find_if(successors.begin(), successors.end(), [&](const auto& s) { return s.step.action == action; });
      if (chosen == successors.end())
        throw std::invalid_argument("replay: '" + std::string(design_.action_name(action)) +
                                    "' is not enabled at step " + std::to_string(trace.steps.size() + 1));
      trace.step_names.push_back(design_.action_name(action));
      trace.steps.push_back(chosen->step);
      state = chosen->state;
      if (!trace.failing_step)
        for (std::uint8_t e = 0; e < chosen->step.event_count; ++e)
          if (!checker.feed(chosen->step.events[e])) {
            trace.failing_step = trace.steps.size() - 1;
            break;
          }
    }
    trace.final_state = design_.describe_state(state);
    design_.tally(state, trace.tally);
    TraceHistoryNames names{[this](std::uint8_t i) { return std::string(design_.actor_name(i)); },
                            [this](std::uint8_t i) { return std::string(design_.note_name(i)); }};
    write_trace_history(trace, names);
    return trace;
  }

  std::vector<Action> actions_named(const std::vector<std::string>& names) const override {
    std::vector<Action> actions;
    State state = design_.initial();
    Successors successors;
    for (const std::string& name : names) {
      successors.clear();
      design_.successors(state, successors);
      const auto chosen = std::find_if(successors.begin(), successors.end(), [&](const auto& s) {
        return std::string(design_.action_name(s.step.action)) == name;
      });
      if (chosen == successors.end()) {
        std::string enabled;
        for (const auto& s : successors) enabled += "\n  " + std::string(design_.action_name(s.step.action));
        throw UsageError("--replay: step " + std::to_string(actions.size() + 1) + ", '" + name +
                         "', is not enabled; the steps enabled there are:" + (enabled.empty() ? " none" : enabled));
      }
      actions.push_back(chosen->step.action);
      state = chosen->state;
    }
    return actions;
  }

 private:
  enum class End : std::uint8_t { depth, dead_end, violation };

  // One thread's working memory for random trajectories: reused, never reallocated.
  struct Walker {
    explicit Walker(const D& d) : design(d), state(d.initial()) {}
    End walk(FastRandom& draws, int depth) {
      state = design.initial();
      checker.reset();
      actions.clear();
      for (int d = 0; d < depth; ++d) {
        successors.clear();
        design.successors(state, successors);
        if (successors.empty()) return End::dead_end;
        auto& chosen = successors[draws.below(successors.size())];
        actions.push_back(chosen.step.action);
        state = std::move(chosen.state);
        for (std::uint8_t e = 0; e < chosen.step.event_count; ++e)
          if (!checker.feed(chosen.step.events[e])) return End::violation;
      }
      return End::depth;
    }
    const D& design;
    State state;
    OnlineChecker checker;
    Successors successors;
    std::vector<Action> actions;
  };

  struct Frame {
    State state{};
    OnlineChecker checker;
    Successors successors;
    std::size_t next = 0;
    Action via;
  };

  // Replays `actions`; the index of the step that makes the history non-linearizable,
  // or nothing if none does or some action is not enabled in its turn.
  std::optional<std::size_t> run(const std::vector<Action>& actions) const {
    State state = design_.initial();
    OnlineChecker checker;
    Successors successors;
    for (std::size_t i = 0; i < actions.size(); ++i) {
      successors.clear();
      design_.successors(state, successors);
      const auto chosen = std::find_if(successors.begin(), successors.end(),
                                       [&](const auto& s) { return s.step.action == actions[i]; });
      if (chosen == successors.end()) return std::nullopt;
      state = chosen->state;
      for (std::uint8_t e = 0; e < chosen->step.event_count; ++e)
        if (!checker.feed(chosen->step.events[e])) return i;
    }
    return std::nullopt;
  }

  D design_;
};

}  // namespace ariadne::explore
