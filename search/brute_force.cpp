// The test oracle: tries every order of the ops that respects real time (or program
// order, under the sequential conditions: sub.consistency), with no memoization and
// no cleverness, so that it shares no idea (and no bug) with WGL or the program-order
// search. Only for tiny histories; the scheduler refuses it beyond kBruteForceMaxOps.
#include "search/search_engine.hpp"

namespace ariadne::search {

namespace {

class BruteForce final : public SearchEngine {
 public:
  BruteForce(const SubHistory& sub, const Model& model, const StopSignal& stop)
      : sub_(sub), stop_(stop), compiled_(model.compile(sub.ops)), placed_(sub.ops.size(), false) {}

  Engine id() const override { return Engine::brute; }
  std::uint64_t steps() const override { return steps_; }
  StopSignal::Why stop_reason() const override { return stop_reason_; }
  std::vector<std::uint32_t> linearization() const override { return found_; }

  Outcome run(std::uint64_t /*step_budget*/) override {
    // check() refuses larger histories with a reason; this guards direct callers.
    if (sub_.ops.size() > kBruteForceMaxOps) return Outcome::out_of_memory;
    std::vector<std::uint32_t> order;
    switch (search(compiled_->initial(), order)) {
      case Result::found: return Outcome::linearizable;
      case Result::none: return Outcome::not_linearizable;
      case Result::stopped: return Outcome::stopped;
    }
    return Outcome::stopped;
  }

 private:
  enum class Result { found, none, stopped };

  // An op may come next if every op the condition orders before it is placed.
  bool may_come_next(std::size_t i) const {
    for (std::size_t j = 0; j < sub_.ops.size(); ++j) {
      if (!placed_[j] && must_precede(*sub_.ops[j], *sub_.ops[i], sub_.consistency)) return false;
    }
    return true;
  }

  bool all_required_placed() const {
    for (std::size_t j = 0; j < sub_.ops.size(); ++j) {
      if (!placed_[j] && sub_.ops[j]->must_take_effect()) return false;
    }
    return true;
  }

  Result search(StateId state, std::vector<std::uint32_t>& order) {
    if ((++steps_ & 4095) == 0) {
      if (auto why = stop_.check(); why != StopSignal::Why::none) {
        stop_reason_ = why;
        return Result::stopped;
      }
    }
    if (all_required_placed()) {
      found_ = order;
      return Result::found;
    }
    for (std::uint32_t i = 0; i < sub_.ops.size(); ++i) {
      if (placed_[i] || !may_come_next(i)) continue;
      std::vector<StateId> next;
      compiled_->step(state, i, next);
      for (StateId s : next) {
        placed_[i] = true;
        order.push_back(i);
        Result r = search(s, order);
        order.pop_back();
        placed_[i] = false;
        if (r != Result::none) return r;
      }
    }
    return Result::none;
  }

  const SubHistory& sub_;
  const StopSignal& stop_;
  std::unique_ptr<CompiledModel> compiled_;
  std::vector<bool> placed_;
  std::vector<std::uint32_t> found_;
  std::uint64_t steps_ = 0;
  StopSignal::Why stop_reason_ = StopSignal::Why::none;
};

}  // namespace

std::unique_ptr<SearchEngine> make_brute_force(const SubHistory& sub, const Model& model, const StopSignal& stop) {
  return std::make_unique<BruteForce>(sub, model, stop);
}

}  // namespace ariadne::search
