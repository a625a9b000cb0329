// Re-checking an answer without trusting whoever produced it: a witness order, or
// the proof directory of a refutation (`check --proof DIR`). Both
// checkers are implemented apart from every engine (certify/), so that a bug in an
// engine cannot also hide in the check of its answer.
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

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

// What verify_proof found: a proof directory checked without the solver that wrote it
// (`verify-proof DIR`).
struct ProofCheck {
  bool valid = false;
  std::vector<std::string> passed;  // one line per check that passed
  std::string failure;              // when invalid: the first check that failed, and why
  bool stopped = false;             // `should_stop` ended the check first: not checked, not invalid
  // The condition the proof is about (proof.json's "consistency"; linearizable when
  // absent).
  Consistency consistency = Consistency::linearizable;
};

// Never throws for bad or missing files: they make the proof invalid, with a reason.
// `should_stop` (a limit of the command's) is polled through the DRAT check.
ProofCheck verify_proof(const std::string& dir, const std::function<bool()>& should_stop = {});

}  // namespace ariadne
