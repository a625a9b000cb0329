// The unique-value engine (unique_values.hpp): one engine whatever the object kind,
// so the race and --engine know one name, `unique`; the kind picks the test.
#include "search/unique_values.hpp"

#include "search/search_engine.hpp"
#include "search/stale_reads.hpp"

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
    case models::Theory::fifo_queue:
      return with_empty_observations(ops, semantics, should_stop, analyse_unique_queue(ops, semantics, should_stop));
    case models::Theory::set: return analyse_unique_set(ops, semantics, should_stop);
    case models::Theory::unordered_queue:
      // The bag's test declines empty observations; the priority queue's sweep, every
      // element of one priority, takes them.
      if (has_empty_observation(semantics)) return analyse_unique_priority_queue(ops, semantics, should_stop);
      return analyse_unique_bag(ops, semantics, should_stop);
    case models::Theory::stack:
      return with_empty_observations(ops, semantics, should_stop, analyse_unique_stack(ops, semantics, should_stop));
    case models::Theory::priority_queue: return analyse_unique_priority_queue(ops, semantics, should_stop);
    case models::Theory::mutex: break;
  }
  UniqueValueAnalysis declined;
  declined.why = "no unique-value test for this kind of object";
  return declined;
}

namespace {

// A register history the tests declined (values written more than once, appends),
// refuted still by its first stale read if it has one (stale_reads.hpp): with crashed
// ops a search may not finish at all where this costs a pass (a 5,000-op cas-register
// history with 5% crashed ops and one stale read: unknown after 60 s without it). The
// violation is the read's seed for the relaxed history (refute/relaxed_history.hpp),
// so that it is not linearizable by itself as every violation named here is: it
// needs the ops' relaxed twins (an etcd cas that failed could, relaxed, write the
// value read), described only once a stale read is found.
void refute_stale_read(std::span<const Operation* const> ops, const models::Semantics& semantics, const Model& model,
                       UniqueValueAnalysis& analysis, const UniqueStopPoll& should_stop) {
  if (semantics.theory != models::Theory::registers) return;
  const std::vector<StaleRead> stale = stale_reads(ops, &semantics, 1, should_stop);
  if (stale.empty()) return;
  std::vector<Operation> twins;
  twins.reserve(ops.size());
  for (const Operation* op : ops) twins.push_back(models::relaxed_twin(*op));
  std::vector<const Operation*> both(ops.begin(), ops.end());
  for (const Operation& twin : twins) both.push_back(&twin);
  const std::optional<models::Semantics> with_twins = models::semantics_of(model, both);
  std::vector<std::vector<std::uint32_t>> seeds =
      reads_from_seeds(ops, with_twins ? &*with_twins : &semantics, stale.front().op);
  if (stale.front().read >= seeds.size()) return;
  analysis.answer = UniqueValueAnalysis::Answer::not_linearizable;
  analysis.violation = std::move(seeds[stale.front().read]);  // ascending, as a seed is
  analysis.why =
      "a stale read: every write of the value it read that real time allows before it was overwritten "
      "before it began";
}

}  // namespace

UniqueValueAnalysis analyse_as_unique_engine(std::span<const Operation* const> ops, const Model& model,
                                             UniqueTests tests, const UniqueStopPoll& should_stop) {
  UniqueValueAnalysis analysis;
  const auto out_of_reach = models::unique_values_out_of_reach(model, ops);
  // Semantics cost a pass over the ops; the stale reads need them even out of the
  // unique-value tests' reach.
  const auto semantics =
      out_of_reach && tests == UniqueTests::unique_values ? std::nullopt : models::semantics_of(model, ops);
  if (!semantics) {
    analysis.why = out_of_reach ? *out_of_reach : "the model describes no semantics";
  } else if (tests == UniqueTests::stale_reads) {
    analysis.why = "no stale read";
  } else if (out_of_reach) {
    analysis.why = *out_of_reach;
  } else {
    analysis = analyse_unique_values(ops, *semantics, should_stop);
  }
  if (semantics && tests != UniqueTests::unique_values && analysis.answer == UniqueValueAnalysis::Answer::declined) {
    refute_stale_read(ops, *semantics, model, analysis, should_stop);
  }
  return analysis;
}

namespace {

// The engine: the analysis, once; declining is a withdrawal with its reason.
class UniqueValueEngine final : public SearchEngine {
 public:
  UniqueValueEngine(const SubHistory& sub, const Model& model, const StopSignal& stop, UniqueTests tests)
      : sub_(sub), model_(model), stop_(stop), tests_(tests) {}

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
      analysis_ = analyse_as_unique_engine(sub_.ops, model_, tests_, [this] {
        stop_reason_ = stop_.check();
        return stop_reason_ != StopSignal::Why::none;
      });
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
  UniqueTests tests_;
  bool ran_ = false;
  UniqueValueAnalysis analysis_;
};

}  // namespace

std::unique_ptr<SearchEngine> make_unique_values(const SubHistory& sub, const Model& model, const StopSignal& stop,
                                                 UniqueTests tests) {
  return std::make_unique<UniqueValueEngine>(sub, model, stop, tests);
}

}  // namespace ariadne::search
