// Re-checking a witness order without trusting whoever produced it. It is
// implemented apart from every engine (certify/), so that a bug in an engine cannot
// also hide in the check of its answer.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ariadne {

// The independent certificate checker check() runs on its own witnesses, for a witness
// from anywhere else (a file, another checker): nullopt when `order` (op ids) is a
// linearization of `history` under `model`, that is every :ok op exactly once, crashed
// ops and failed ops the model keeps as observations at most once (a left-out
// observation must fit somewhere its interval allows), no unknown id, real-time order
// respected, and the model reproducing every observed result; otherwise a sentence
// saying what is wrong.
std::optional<std::string> verify_linearization(const History& history, const Model& model,
                                                std::span<const std::uint32_t> order);

}  // namespace ariadne
