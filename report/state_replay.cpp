// State replay for the report: a forward pass that keeps every state the order can
// reach (as the certificate checker does), then a backward pass that narrows each
// step's set to the states from which the rest of the order still replays. The
// forward sets are kept flat (one array plus offsets) so a 100,000-op order costs a
// few megabytes at most.
#include "report/state_replay.hpp"

#include "report/limit_poll.hpp"

#include <algorithm>
#include <unordered_map>

namespace ariadne::report {

namespace {

void sort_unique(std::vector<StateId>& states) {
  std::sort(states.begin(), states.end());
  states.erase(std::unique(states.begin(), states.end()), states.end());
}

// Describes states once each: orders revisit the same few states over and over.
class StateNames {
 public:
  explicit StateNames(const CompiledModel& model) : model_(model) {}

  std::string describe(const std::vector<StateId>& states) {
    constexpr std::size_t kShown = 3;
    std::string text;
    for (std::size_t i = 0; i < states.size() && i < kShown; ++i) {
      if (i > 0) text += " | ";
      text += name(states[i]);
    }
    if (states.size() > kShown) text += " | ... (" + std::to_string(states.size()) + " possible states)";
    return shorten(std::move(text), kMaxStateText);
  }

 private:
  const std::string& name(StateId state) {
    auto it = names_.find(state);
    if (it == names_.end()) it = names_.emplace(state, model_.describe_state(state)).first;
    return it->second;
  }

  const CompiledModel& model_;
  std::unordered_map<StateId, std::string> names_;
};

}  // namespace

ReplayedStates replay_states(const Model& model, std::span<const Operation* const> order, const Limits* limits) {
  LimitPoll poll(limits);
  auto compiled = model.compile(order);
  // Forward: reachable[offsets[i], offsets[i + 1]) is the set of states before order[i].
  std::vector<StateId> reachable{compiled->initial()};
  std::vector<std::size_t> offsets{0, 1};
  std::vector<StateId> next;
  std::size_t replayed = 0;
  for (; replayed < order.size(); ++replayed) {
    poll.step();
    next.clear();
    for (std::size_t k = offsets[replayed]; k < offsets[replayed + 1]; ++k) {
      compiled->step(reachable[k], static_cast<std::uint32_t>(replayed), next);
    }
    sort_unique(next);
    if (next.empty() || next.size() > kMaxTrackedStates) break;
    reachable.insert(reachable.end(), next.begin(), next.end());
    offsets.push_back(reachable.size());
  }

  // Backward: keep the states of step i that lead into the kept states of step i + 1.
  StateNames names(*compiled);
  ReplayedStates replay;
  replay.after.resize(replayed);
  std::vector<StateId> kept(reachable.begin() + static_cast<std::ptrdiff_t>(offsets[replayed]), reachable.end());
  std::vector<StateId> narrowed;
  for (std::size_t i = replayed; i-- > 0;) {
    poll.step();
    replay.after[i] = names.describe(kept);
    narrowed.clear();
    for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      next.clear();
      compiled->step(reachable[k], static_cast<std::uint32_t>(i), next);
      const bool leads_on = std::any_of(next.begin(), next.end(),
                                        [&](StateId s) { return std::binary_search(kept.begin(), kept.end(), s); });
      if (leads_on) narrowed.push_back(reachable[k]);
    }
    kept.swap(narrowed);
  }
  replay.initial = names.describe(kept);
  return replay;
}

}  // namespace ariadne::report
