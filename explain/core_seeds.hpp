// Model-aware seeds for a first core: ops that a core around the failing op needs
// wherever they are in the history, which no window of nearby ops would contain.
//
// The one family that needs them is the mutex. Relaxing an op makes it free to take
// effect anywhere (relaxed_history.hpp), so a lock acquired twice with no release
// between them in real time is a core only together with every release of the
// history, however far away: any release left out could, relaxed, fall between the
// two acquires. Likewise a release of a free lock needs every acquire. Registers,
// containers and sets have no such op: a relaxed op there matters only through the
// values it writes, which the rules of relevant_relaxed.hpp already follow.
//
// Seeds are only guesses: the caller decides each one before using it.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace ariadne::explain {

// Per op of the partition: whether it belongs with every window around `failing_op`
// (an index into `ops`). All false when the model needs no companions.
std::vector<bool> seed_companions(std::span<const Operation* const> ops, const Model& model,
                                  std::uint32_t failing_op);

}  // namespace ariadne::explain
