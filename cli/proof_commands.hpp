// Proofs on the command line: `check --proof DIR` writes one, `verify-proof DIR`
// checks one, and `verify-witness` checks a claimed linearization on its own (a
// linearizable answer's proof is its witness).
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <optional>
#include <string>

namespace ariadne::cli {

// After `check` answered not linearizable: writes the core's proof into `dir` and
// returns a one-line summary for the report. Throws UsageError when it cannot.
std::string write_core_proof(const std::string& dir, const History& history, const Model& model,
                             const CheckResult& result);

// Exit 0 when the proof checks, 1 when it does not (the reason on stdout).
int run_verify_proof_command(const std::string& dir);

struct VerifyWitnessOptions {
  std::string file;
  std::string model;
  std::optional<std::string> init;
  std::string format = "auto";
  std::string witness;  // a JSON array of op ids, or an object with "linearization"
};

// Exit 0 when the witness is a linearization of the history, 1 when not (with the
// reason), 65 when the history or the witness file is malformed.
int run_verify_witness_command(const VerifyWitnessOptions& options);

}  // namespace ariadne::cli
