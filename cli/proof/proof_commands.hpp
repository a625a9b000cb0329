// Proofs on the command line: `check --proof DIR` writes one, `verify-proof DIR`
// checks one, and `verify-witness` checks a claimed linearization on its own (a
// linearizable answer's proof is its witness).
#pragma once

#include "certify/proof_checker.hpp"
#include "refute/proof_writer.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ariadne::cli {

// After `check` answered not linearizable: writes the core's proof into `dir`.
// Throws UsageError when it cannot (the answer is not a refutation with a core, the
// history cannot be encoded, a file cannot be written).
// Stops at `limits` (LimitReached). `core_attempt` bounds the solver on the core's
// formula; past it the proof covers the whole failing partition instead (see
// refute::write_proof).
refute::ProofWritten write_core_proof_files(const std::string& dir, const History& history, const Model& model,
                                             const CheckResult& result, const Limits& limits,
                                             std::chrono::steady_clock::duration core_attempt = std::chrono::seconds(20));

// One line for the report: what was written where, and how to check it.
std::string describe_written_proof(const std::string& dir, const refute::ProofWritten& written);

// write_core_proof_files, described; for a linearizable or unknown answer, or when a
// limit stopped it, says why no proof was written instead.
std::string write_core_proof(const std::string& dir, const History& history, const Model& model,
                             const CheckResult& result, const Limits& limits);

struct VerifyProofOptions {
  std::string dir;  // what check --proof wrote
};

// Adds DIR to `verify`, bound to `options`.
void add_verify_proof_options(CLI::App& verify, VerifyProofOptions& options);

// Exit 0 when the proof checks, 1 when it does not (the reason on stdout).
int run_verify_proof_command(const VerifyProofOptions& options);

// The op ids of a witness file: a JSON array of ids, or an object whose
// "linearization" is one (what `check --json` prints). Throws InputError.
std::vector<std::uint32_t> read_witness_file(const std::string& path);

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
