// The certificate checker: replays a claimed linearization against the history and
// the model. It is deliberately small and shares no code with any engine (it depends
// on history and models only), so a "linearizable" answer can be trusted without
// trusting the search that found it.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ariadne::certify {

// Returns nullopt when `order` (op ids) is a valid linearization of `history`:
// every :ok op (and every failed op kept as an observation) exactly once, crashed ops
// at most once, no unknown or dropped id, real-time order respected, and the model
// reproduces every observed result. Otherwise, a sentence saying what is wrong.
std::optional<std::string> check_linearization(const History& history, const Model& model,
                                               std::span<const std::uint32_t> order);

}  // namespace ariadne::certify
