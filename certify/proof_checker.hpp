// Checking a proof directory (proof_format.hpp) without the solver that wrote it:
// `verify-proof DIR`.
#pragma once

#include <ariadne/consistency.hpp>

#include <functional>
#include <string>
#include <vector>

namespace ariadne::certify {

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

}  // namespace ariadne::certify
