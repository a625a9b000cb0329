// `verify-proof DIR` checks a proof that `check --proof DIR` wrote, and
// `verify-witness` checks a claimed linearization on its own (a linearizable
// answer's proof is its witness).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ariadne::cli {

struct VerifyProofOptions {
  std::string dir;  // what check --proof wrote
};

// Adds DIR to `verify`, bound to `options`.
void add_verify_proof_options(CLI::App& verify, VerifyProofOptions& options);

// Exit 0 when the proof checks, 1 when it does not (the reason on stdout).
int run_verify_proof_command(const VerifyProofOptions& options);

struct VerifyWitnessOptions {
  std::string file;
  std::string model;
  std::optional<std::string> init;
  std::string format = "auto";
  std::string witness;  // a JSON array of op ids, or an object with "linearization"
};

// Adds FILE, --model, --init, --format and --witness to `verify`, bound to `options`.
void add_verify_witness_options(CLI::App& verify, VerifyWitnessOptions& options);

// Exit 0 when the witness is a linearization of the history, 1 when not (with the
// reason), 65 when the history or the witness file is malformed.
int run_verify_witness_command(const VerifyWitnessOptions& options);

}  // namespace ariadne::cli
