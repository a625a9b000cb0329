#include "explain/minimal_core.hpp"

#include "explain/relaxed_check.hpp"

#include <algorithm>
#include <stdexcept>

namespace ariadne::explain {

namespace {

std::size_t count(const std::vector<bool>& keep) {
  std::size_t n = 0;
  for (const bool k : keep) n += k ? 1 : 0;
  return n;
}

class Minimiser {
 public:
  Minimiser(std::span<const Operation* const> ops, const Model& model, const search::StopSignal& stop,
            std::uint64_t memory_limit)
      : ops_(ops), checker_(ops, model, stop, memory_limit), keep_(ops.size(), true) {}

  // Returns false if the stop signal fired.
  bool start(std::optional<std::uint32_t> failing_op) {
    RelaxedDecision whole = checker_.decide(keep_);
    if (whole.verdict == RelaxedVerdict::undecided) return false;
    if (whole.verdict == RelaxedVerdict::linearizable) {
      throw std::logic_error("core: the refuted partition is linearizable to the SAT engine");
    }
    last_ = std::move(whole);
    if (failing_op) {
      // Ops invoked after the failing op completed rarely matter; try without them.
      std::vector<bool> window(ops_.size(), false);
      const std::uint64_t cut = ops_[*failing_op]->ret;
      for (std::uint32_t i = 0; i < ops_.size(); ++i) window[i] = ops_[i]->ret <= cut;
      if (!adopt_if_refuted(window)) return false;
    }
    return refine();
  }

  // One deletion pass, latest op first: the first failing op and the ops just before
  // it tend to be needed, so trying the others first lets refinement drop them early.
  // Ops are tried in chunks that double while whole chunks can go and halve when one
  // cannot, down to single ops, so a core of k ops among n costs about k log(n/k)
  // decisions rather than n.
  bool deletion_pass() {
    std::vector<std::uint32_t> order;
    for (std::uint32_t i = static_cast<std::uint32_t>(ops_.size()); i-- > 0;) {
      if (keep_[i]) order.push_back(i);
    }
    std::size_t next = 0;
    std::size_t size = 1;
    while (next < order.size()) {
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
  std::uint64_t decisions() const { return checker_.decisions(); }

 private:
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

  std::span<const Operation* const> ops_;
  RelaxedChecker checker_;
  std::vector<bool> keep_;
  RelaxedDecision last_;
  int wrong_hints_ = 0;
};

}  // namespace

CoreSearch find_minimal_core(std::span<const Operation* const> ops, const Model& model,
                             std::optional<std::uint32_t> failing_op, const search::StopSignal& stop,
                             std::uint64_t memory_limit) {
  Minimiser minimiser(ops, model, stop, memory_limit);
  CoreSearch result;
  result.minimal = minimiser.start(failing_op) && minimiser.deletion_pass();
  result.core = minimiser.core();
  result.decisions = minimiser.decisions();
  return result;
}

}  // namespace ariadne::explain
