// The model's state along an order of operations, for the report's hover cards.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <span>
#include <string>
#include <vector>

namespace ariadne::report {

struct ReplayedStates {
  std::string initial;             // the state before the first op
  std::vector<std::string> after;  // after[i]: the state once order[i] took effect
};

// Replays `order`, ops of one partition in the order they took effect. A crashed op's
// result is unknown, so a step may lead to several states: the replay keeps the set
// of states reachable so far, then walks back and keeps only those from which the
// rest of the order can still be replayed, so each op shows the states that agree
// with the whole order (usually exactly one). Several states read "1 | 2"; texts are
// shortened to kMaxStateText characters. `after` is shorter than `order` when the
// order cannot be replayed to its end (it is not a valid order) or branches into more
// than kMaxTrackedStates states: the states past that point are unknown. Polls
// `limits` as it goes (LimitReached).
ReplayedStates replay_states(const Model& model, std::span<const Operation* const> order,
                             const Limits* limits = nullptr);

inline constexpr std::size_t kMaxTrackedStates = 1024;
inline constexpr std::size_t kMaxStateText = 160;

}  // namespace ariadne::report
