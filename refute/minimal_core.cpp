#include "refute/minimal_core.hpp"

#include "refute/core_seeds.hpp"
#include "refute/decision_race.hpp"
#include "refute/relaxed_check.hpp"
#include "refute/switchable_check.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace ariadne::refute {

namespace {

std::size_t count(const std::vector<bool>& keep) {
  std::size_t n = 0;
  for (const bool k : keep) n += k ? 1 : 0;
  return n;
}

class Minimiser {
 public:
  Minimiser(std::span<const Operation* const> ops, const Model& model, const search::StopSignal& stop,
            std::uint64_t memory_limit, std::shared_ptr<const RelaxedRelevance> relevance)
      : ops_(ops),
        model_(model),
        stop_(stop),
        memory_limit_(memory_limit),
        checker_(ops, model, stop, memory_limit, std::move(relevance)),
        keep_(ops.size(), true) {}

  // The whole search; returns whether it finished (the core is then 1-minimal).
  bool run(std::optional<std::uint32_t> failing_op, std::span<const std::uint32_t> refuting_ops) {
    // A phase that starts past its limits does nothing: the whole partition is the
    // core, not shrunk.
    if (stop_.check() != search::StopSignal::Why::none) return false;
    bool seeded = false;
    if (!try_patterns(failing_op, refuting_ops, seeded)) return false;
    if (seeded) return shrink_on(nullptr);
    // A small partition: the first core is a small refuted window around the
    // failing op, or else what the solver's refutation of the whole partition
    // mentions; it is shrunk without building a switchable formula until a candidate
    // needs one. Windows get a short budget each here: some take the search and the
    // solver alike tens of milliseconds (a relaxed prefix leaves everything free),
    // where the whole partition's refutation, nothing relaxed, takes one.
    if (ops_.size() <= kSwitchableOps) return start(failing_op, kWindowBudget) && shrink_on(nullptr);
    // A larger one: a refuted window first (start()), shrunk alone until it is small
    // enough for a switchable formula.
    if (!start(failing_op)) return false;
    if (count(keep_) > kSwitchableOps) {
      bool handed_over = false;
      if (!deletion_pass(kSwitchableOps, &handed_over)) return false;
      if (!handed_over) return true;  // the pass finished on its own
    }
    std::unique_ptr<SwitchableCheck> switchable = switchable_core();
    if (switchable) return shrink_on(std::move(switchable));
    if (stop_.check() != search::StopSignal::Why::none) return false;
    return deletion_pass(0, nullptr);
  }

  // Adopts the first seed that is refuted, setting `seeded`: the refuting engine's
  // own ops, if it named any, else the model's patterns and reads-from seeds
  // (core_seeds.hpp). Returns false if the stop signal fired.
  bool try_patterns(std::optional<std::uint32_t> failing_op, std::span<const std::uint32_t> refuting_ops,
                    bool& seeded) {
    if (!refuting_ops.empty()) {
      if (!adopt_seed(refuting_ops, seeded)) return false;
      if (seeded) return true;
    }
    const models::Semantics* semantics = checker_.relevance().semantics();
    std::vector<std::vector<std::uint32_t>> seeds = pattern_seeds(
        ops_, semantics, kMaxPatternSeeds, [this] { return stop_.check() != search::StopSignal::Why::none; });
    if (failing_op) {
      for (std::vector<std::uint32_t>& seed : reads_from_seeds(ops_, semantics, *failing_op)) {
        seeds.push_back(std::move(seed));
      }
    }
    for (const std::vector<std::uint32_t>& seed : seeds) {
      if (!adopt_seed(seed, seeded)) return false;
      if (seeded) return true;
    }
    // Registers with repeated values: a stale read found by real time alone. The
    // failing-op search often runs out of its budget on such partitions of thousands
    // of ops, and without a seed the first core would be the solver's refutation of
    // the whole partition, which can take longer than the core's whole budget.
    const auto should_stop = [this] { return stop_.check() != search::StopSignal::Why::none; };
    for (const std::vector<std::uint32_t>& seed : stale_read_seeds(ops_, semantics, kMaxStaleReadSeeds, should_stop)) {
      if (!adopt_seed(seed, seeded)) return false;
      if (seeded) return true;
    }
    return true;
  }

  // Decides `seed` alone and adopts it if refuted (setting `seeded`); returns false if
  // the stop signal fired.
  bool adopt_seed(std::span<const std::uint32_t> seed, bool& seeded) {
    std::vector<bool> keep(ops_.size(), false);
    for (const std::uint32_t i : seed) keep[i] = true;
    const RelaxedDecision decision = checker_.decide_quickly(keep);
    if (decision.verdict == RelaxedVerdict::undecided) return stop_.check() == search::StopSignal::Why::none;
    if (decision.verdict == RelaxedVerdict::not_linearizable) {
      keep_ = std::move(keep);
      seeded = true;
    }
    return true;
  }

  // Finds a first core to shrink; returns false if the stop signal fired.
  // With `window_budget`, a window undecided after that long ends the windows.
  bool start(std::optional<std::uint32_t> failing_op,
             std::optional<std::chrono::steady_clock::duration> window_budget = std::nullopt) {
    if (failing_op) {
      bool found = false;
      if (!grow_from(*failing_op, found, window_budget)) return false;
      if (found) return refine();
    }
    RelaxedDecision whole = checker_.decide(keep_);
    if (whole.verdict == RelaxedVerdict::undecided) return false;
    if (whole.verdict == RelaxedVerdict::linearizable) {
      throw std::logic_error("core: the refuted partition is linearizable to the SAT engine");
    }
    last_ = std::move(whole);
    return refine();
  }

  // Cores are local: the first failing op and a few ops that completed shortly
  // before it. Try the k ops that completed last up to the failing op's completion
  // (it included), k growing fourfold, until one such window is refuted. With the
  // relaxed ops that cannot matter left out (relevant_relaxed.hpp), a window's
  // decision costs about its size, so this costs a few decisions the size of the
  // core's span in time rather than one the size of the partition. Ops that completed
  // after the failing op are left out of windows, though a core may need them (a
  // relaxed twin is free of real time, and may go anywhere), except for the model's
  // companions (core_seeds.hpp), which join every window. Sets `found` when a window
  // is refuted (and adopted). With `budget`, a window still undecided after that long
  // ends the growing (found stays false).
  bool grow_from(std::uint32_t failing_op, bool& found, std::optional<std::chrono::steady_clock::duration> budget) {
    const std::uint64_t cut = ops_[failing_op]->ret;
    std::vector<std::uint32_t> nearest;
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (ops_[i]->ret <= cut) nearest.push_back(i);
    }
    std::stable_sort(nearest.begin(), nearest.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return ops_[a]->ret > ops_[b]->ret; });
    const std::vector<bool> companions = seed_companions(ops_, checker_.relevance().semantics(), failing_op);
    for (std::size_t k = kFirstWindow;; k *= 4) {
      const std::size_t size = std::min(k, nearest.size());
      std::vector<bool> window = companions;
      for (std::size_t n = 0; n < size; ++n) window[nearest[n]] = true;
      RelaxedDecision decision = checker_.decide_quickly(window, budget);
      if (decision.verdict == RelaxedVerdict::undecided) {
        return budget && stop_.check() == search::StopSignal::Why::none;
      }
      if (decision.verdict == RelaxedVerdict::not_linearizable) {
        keep_ = std::move(window);
        last_ = std::move(decision);
        found = true;
        return true;
      }
      if (size == nearest.size()) return true;
    }
  }

  // One deletion pass, latest op first: the first failing op and the ops just before
  // it tend to be needed, so trying the others first lets refinement drop them early.
  // Ops are tried in chunks that double while whole chunks can go and halve when one
  // cannot, down to single ops, so a core of k ops among n costs about k log(n/k)
  // decisions rather than n.
  // With `hand_over` > 0, returns (true, setting *handed_over) as soon as the core is
  // that small, for the switchable formula to finish.
  bool deletion_pass(std::size_t hand_over, bool* handed_over) {
    std::vector<std::uint32_t> order;
    for (std::uint32_t i = static_cast<std::uint32_t>(ops_.size()); i-- > 0;) {
      if (keep_[i]) order.push_back(i);
    }
    std::size_t next = 0;
    std::size_t size = 1;
    while (next < order.size()) {
      // As in shrink_on(): the looks may answer every candidate without polling.
      if (stop_.check() != search::StopSignal::Why::none) return false;
      std::vector<bool> candidate = keep_;
      std::size_t taken = 0;
      std::size_t end = next;
      for (; end < order.size() && taken < size; ++end) {
        if (candidate[order[end]]) {
          candidate[order[end]] = false;
          ++taken;
        }
      }
      if (taken == 0) break;  // refinement already dropped the rest
      RelaxedDecision decision = checker_.decide_quickly(candidate);
      if (decision.verdict == RelaxedVerdict::undecided) return false;
      if (decision.verdict == RelaxedVerdict::not_linearizable) {
        keep_ = std::move(candidate);
        last_ = std::move(decision);
        if (!refine()) return false;
        if (hand_over > 0 && count(keep_) <= hand_over) {
          *handed_over = true;
          return true;
        }
        next = end;
        size *= 2;
      } else if (taken == 1) {
        next = end;  // a necessary op: relaxing it alone makes room for an order
      } else {
        size = std::max<std::size_t>(1, taken / 2);
      }
    }
    return true;
  }

  std::vector<std::uint32_t> core() const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (keep_[i]) out.push_back(i);
    }
    return out;
  }
  std::uint64_t decisions() const { return checker_.decisions() + switchable_decisions_; }

 private:
  // A switchable formula over the core, once its first refutation has shrunk the core
  // to what it needs. The formula's size grows with the cube of its ops (each kept
  // read against every twin that could write its value, against every other writer),
  // so when that refutation drops most of the candidate, a formula over what is left
  // is built anew: on a 219-op register history, 28 times fewer clauses, and each
  // later solve that much faster. nullptr when no formula could be built, or the stop
  // signal fired.
  std::unique_ptr<SwitchableCheck> switchable_core() {
    std::unique_ptr<SwitchableCheck> switchable =
        SwitchableCheck::make(ops_, model_, checker_.relevance(), keep_, stop_, memory_limit_, kEncodingBudget);
    for (int rebuilt = 0; switchable; ++rebuilt) {
      const std::size_t before = count(keep_);
      const RelaxedDecision first = switchable->decide(keep_);
      if (!adopt_switchable(first, "the refuted set")) return nullptr;
      if (rebuilt == kMaxRebuilds || 2 * count(keep_) > before) return switchable;
      std::unique_ptr<SwitchableCheck> smaller =
          SwitchableCheck::make(ops_, model_, checker_.relevance(), keep_, stop_, memory_limit_, kEncodingBudget);
      if (!smaller) return switchable;
      switchable_decisions_ += switchable->decisions();
      switchable = std::move(smaller);
    }
    return nullptr;
  }

  // Deletion, latest op first: relax each op once; an order marks it necessary, a
  // refutation drops it (and, from the switchable formula, every op its failed
  // assumptions do not name). Necessity is monotone (a smaller core relaxes more), so
  // one pass leaves a core from which no single op can be dropped.
  //
  // Most candidates are settled by the native search (the closure look first,
  // relaxed_closure.hpp) in microseconds, where the solver needs milliseconds to
  // model and decode the whole formula, and building the formula costs more than
  // most whole passes: so `switchable` is built only for the first candidate the
  // search leaves undecided, over the core as it is then. Without a formula (none
  // could be built), the relaxed checker decides such a candidate alone.
  bool shrink_on(std::unique_ptr<SwitchableCheck> switchable) {
    bool cannot_build = false;
    int quick_misses = 0;
    // The formula's decisions are counted whichever way the pass ends.
    struct Count {
      const std::unique_ptr<SwitchableCheck>& check;
      std::uint64_t& total;
      ~Count() {
        if (check) total += check->decisions();
      }
    } counted{switchable, switchable_decisions_};
    for (std::uint32_t i = static_cast<std::uint32_t>(ops_.size()); i-- > 0;) {
      if (!keep_[i]) continue;
      // Polled here, not only where a look leaves a candidate open: a mutex's sweep
      // answers every candidate (relaxed_mutex.hpp), and on a 20,000-op history the
      // pass would otherwise run on for seconds after a signal.
      if (stop_.check() != search::StopSignal::Why::none) return false;
      std::vector<bool> candidate = keep_;
      candidate[i] = false;
      const RelaxedHistory relaxed = checker_.relaxed_of(candidate);
      // The closure look settles most candidates of register histories in
      // microseconds. Where it does not apply, a short native search does the same
      // for many (mutex histories), until it has missed twice in a row: the race
      // below runs the same search anyway.
      RelaxedDecision quick;
      if (checker_.closure_applies()) {
        quick = checker_.look(relaxed);
      } else if (quick_misses < kQuickMissesBeforeRacing) {
        quick = checker_.decide_by_search_only(relaxed, kQuickSearchSteps);
        quick_misses = quick.verdict == RelaxedVerdict::undecided ? quick_misses + 1 : 0;
      }
      if (quick.verdict == RelaxedVerdict::linearizable) continue;
      if (quick.verdict == RelaxedVerdict::not_linearizable) {
        keep_ = std::move(candidate);
        continue;
      }
      if (stop_.check() != search::StopSignal::Why::none) return false;
      RelaxedDecision decision =
          cannot_build ? checker_.decide_quickly(relaxed) : race(switchable, cannot_build, candidate, relaxed);
      // No formula could be had (too large to build in time: a mutex's, whose
      // alternation is cubic in the ops), which stopped the search racing it: the
      // relaxed checker's own race instead.
      if (decision.verdict == RelaxedVerdict::undecided && cannot_build) decision = checker_.decide_quickly(relaxed);
      if (decision.verdict == RelaxedVerdict::undecided) return false;
      if (decision.verdict != RelaxedVerdict::not_linearizable) continue;
      if (!decision.hinted) {
        keep_ = std::move(candidate);
      } else if (!adopt_switchable(std::move(decision), "")) {
        return false;
      }
    }
    return true;
  }

  // The switchable formula and the native search on the same candidate at once
  // (decision_race.hpp). Without a formula yet, the search gets a head start: most
  // candidates it answers in a millisecond or two, and a formula costs tens of
  // milliseconds to build (25 ms on a 42-op etcd core). Only when it has not answered
  // by then is the formula built, over the core as it is, while the search goes on;
  // once built, it serves every later candidate.
  // `relaxed`: the relaxed history of `candidate`, for the search.
  RelaxedDecision race(std::unique_ptr<SwitchableCheck>& switchable, bool& cannot_build,
                       const std::vector<bool>& candidate, const RelaxedHistory& relaxed) {
    return race_decision(
        stop_,
        // Each side may hold up to half the memory limit.
        [&](const search::StopSignal& stop) { return checker_.search_until_stopped(relaxed, stop, memory_limit_ / 2); },
        [&](const search::StopSignal& stop) {
          if (!switchable) {
            const auto until = std::chrono::steady_clock::now() + kSearchHeadStart;
            while (std::chrono::steady_clock::now() < until) {
              if (stop.check() != search::StopSignal::Why::none) return RelaxedDecision{};
              std::this_thread::sleep_for(std::chrono::microseconds(50));
            }
            switchable = SwitchableCheck::make(ops_, model_, checker_.relevance(), keep_, stop_, memory_limit_ / 2,
                                               kEncodingBudget);
            if (!switchable) {
              cannot_build = true;
              return RelaxedDecision{};
            }
          }
          return switchable->decide(candidate, &stop);
        });
  }

  // Adopts a refutation's failed assumptions as the core. `must_refute` names what was
  // decided when only a refutation makes sense (an order there means two encodings
  // disagree).
  bool adopt_switchable(RelaxedDecision decision, const char* must_refute) {
    if (decision.verdict == RelaxedVerdict::undecided) return false;
    if (decision.verdict == RelaxedVerdict::linearizable) {
      throw std::logic_error(std::string("core: the switchable formula finds an order for ") + must_refute);
    }
    if (decision.needed.empty()) throw std::logic_error("core: a refutation that needs no kept op");
    keep_.assign(ops_.size(), false);
    for (const std::uint32_t i : decision.needed) keep_[i] = true;
    return true;
  }

  // Shrinks to the ops the last refutation's groups mention, for as long as that
  // gives a smaller set that is still refuted.
  bool refine() {
    // A hint that proved wrong twice will likely keep doing so (the refutation leans
    // on real-time facts of ops no group mentions); stop paying a decision for it.
    while (last_.hinted && wrong_hints_ < 2) {
      std::vector<bool> hinted(ops_.size(), false);
      for (const std::uint32_t i : last_.needed) hinted[i] = keep_[i];
      if (count(hinted) >= count(keep_)) return true;
      const std::size_t before = count(keep_);
      if (!adopt_if_refuted(hinted)) return false;
      if (count(keep_) == before) {  // the hinted set is linearizable
        ++wrong_hints_;
        return true;
      }
    }
    return true;
  }

  // Returns false only if the stop signal fired.
  bool adopt_if_refuted(const std::vector<bool>& candidate) {
    if (count(candidate) >= count(keep_)) return true;
    RelaxedDecision decision = checker_.decide(candidate);
    if (decision.verdict == RelaxedVerdict::undecided) return false;
    if (decision.verdict == RelaxedVerdict::not_linearizable) {
      keep_ = candidate;
      last_ = std::move(decision);
    }
    return true;
  }

  static constexpr std::size_t kFirstWindow = 8;
  // Pattern seeds tried before anything else; each is a few ops, decided in
  // microseconds.
  static constexpr std::size_t kMaxPatternSeeds = 32;
  // Stale-read seeds tried after those (core_seeds.hpp); each is a core by
  // construction, so the first is adopted unless the stop signal fires.
  static constexpr std::size_t kMaxStaleReadSeeds = 4;
  // The most ops a switchable formula is built over: each candidate op is in it twice,
  // and relaxed twins are free of real time, so nothing prunes the encodings'
  // candidates and the formula grows with the cube of this (switchable_core()). A
  // partition this small goes to the formula whole; a larger one is shrunk to this.
  static constexpr std::size_t kSwitchableOps = 400;
  // Past this, a switchable formula is not worth building (the mutex's, whose
  // alternation is cubic in the ops, on a 2,000-op history): the native search alone
  // shrinks the core instead.
  static constexpr std::chrono::milliseconds kEncodingBudget{100};
  // How long a window of a small partition may take (run()).
  static constexpr std::chrono::milliseconds kWindowBudget{4};
  // Quick searches in a row that ran out of steps before shrink_on() goes straight to
  // the race.
  static constexpr int kQuickMissesBeforeRacing = 2;
  // The native search's head start before a switchable formula is built (race()).
  static constexpr std::chrono::milliseconds kSearchHeadStart{3};
  // How often switchable_core() may build a smaller formula.
  static constexpr int kMaxRebuilds = 2;
  // The native search's steps before the switchable formula decides instead (about
  // half a millisecond of WGL).
  static constexpr std::uint64_t kQuickSearchSteps = 1 << 14;

  std::span<const Operation* const> ops_;
  const Model& model_;
  const search::StopSignal& stop_;
  std::uint64_t memory_limit_;
  RelaxedChecker checker_;
  std::uint64_t switchable_decisions_ = 0;
  std::vector<bool> keep_;
  RelaxedDecision last_;
  int wrong_hints_ = 0;
};

}  // namespace

CoreSearch find_minimal_core(std::span<const Operation* const> ops, const Model& model,
                             std::optional<std::uint32_t> failing_op, const search::StopSignal& stop,
                             std::uint64_t memory_limit, std::span<const std::uint32_t> refuting_ops,
                             std::shared_ptr<const RelaxedRelevance> relevance) {
  Minimiser minimiser(ops, model, stop, memory_limit, std::move(relevance));
  CoreSearch result;
  result.minimal = minimiser.run(failing_op, refuting_ops);
  result.core = minimiser.core();
  result.decisions = minimiser.decisions();
  return result;
}

}  // namespace ariadne::refute
