// The unique-value engine (unique_values.hpp): one engine whatever the object kind,
// so the race and --engine know one name, `unique`; the kind picks the test.
#include "search/unique_values.hpp"

#include "search/search_engine.hpp"

#include <algorithm>

namespace ariadne::search {

bool UniqueAnswer::refute(std::vector<std::uint32_t> ops, std::string why) {
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  ops.erase(std::remove(ops.begin(), ops.end(), kNoUniqueOp), ops.end());
  result_.answer = UniqueValueAnalysis::Answer::not_linearizable;
  result_.violation = std::move(ops);
  result_.why = std::move(why);
  return false;
}

UniqueValueAnalysis analyse_unique_values(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                          const UniqueStopPoll& should_stop) {
  switch (semantics.theory) {
    case models::Theory::registers: return analyse_unique_register(ops, semantics, should_stop);
    case models::Theory::fifo_queue: return analyse_unique_queue(ops, semantics, should_stop);
    case models::Theory::set: return analyse_unique_set(ops, semantics, should_stop);
    case models::Theory::unordered_queue: return analyse_unique_bag(ops, semantics, should_stop);
    case models::Theory::stack: return analyse_unique_stack(ops, semantics, should_stop);
    case models::Theory::mutex: break;
  }
  UniqueValueAnalysis declined;
  declined.why = "no unique-value test for this kind of object";
  return declined;
}

namespace {

// The engine: the analysis, once; declining is a withdrawal with its reason.
class UniqueValueEngine final : public SearchEngine {
 public:
  UniqueValueEngine(const SubHistory& sub, const Model& model, const StopSignal& stop)
      : sub_(sub), model_(model), stop_(stop) {}

  Engine id() const override { return Engine::unique; }
  std::vector<std::uint32_t> linearization() const override { return analysis_.order; }
  std::vector<std::uint32_t> refuting_ops() const override { return analysis_.violation; }
  std::uint64_t steps() const override { return sub_.ops.size(); }
  StopSignal::Why stop_reason() const override { return stop_reason_; }
  std::string withdrawal_reason() const override {
    return analysis_.answer == UniqueValueAnalysis::Answer::declined ? analysis_.why : std::string();
  }

  Outcome run(std::uint64_t) override {
    if (!ran_) {
      ran_ = true;
      const auto out_of_reach = models::unique_values_out_of_reach(model_, sub_.ops);
      const auto semantics = out_of_reach ? std::nullopt : models::semantics_of(model_, sub_.ops);
      if (out_of_reach) {
        analysis_.why = *out_of_reach;
      } else if (semantics) {
        analysis_ = analyse_unique_values(sub_.ops, *semantics, [this] {
          stop_reason_ = stop_.check();
          return stop_reason_ != StopSignal::Why::none;
        });
      } else {
        analysis_.why = "the model describes no semantics";
      }
    }
    switch (analysis_.answer) {
      case UniqueValueAnalysis::Answer::linearizable: return Outcome::linearizable;
      case UniqueValueAnalysis::Answer::not_linearizable: return Outcome::not_linearizable;
      case UniqueValueAnalysis::Answer::declined:
      case UniqueValueAnalysis::Answer::stopped: return Outcome::stopped;
    }
    return Outcome::stopped;
  }

 private:
  const SubHistory& sub_;
  const Model& model_;
  const StopSignal& stop_;
  StopSignal::Why stop_reason_ = StopSignal::Why::none;
  bool ran_ = false;
  UniqueValueAnalysis analysis_;
};

}  // namespace

std::unique_ptr<SearchEngine> make_unique_values(const SubHistory& sub, const Model& model, const StopSignal& stop) {
  return std::make_unique<UniqueValueEngine>(sub, model, stop);
}

}  // namespace ariadne::search
