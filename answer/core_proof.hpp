// Writing the proof of a refutation: `check --proof DIR`, and the certificates of
// `corpus --certify` and `cross-check`. verify_commands.hpp checks what it writes.
#pragma once

#include "answer/side_output.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <chrono>
#include <string>

// What a proof's writer reports (refute/proof_writer.hpp). Declared, not included: the
// command line, which only asks for write_core_proof, sees no header of the checker's.
namespace ariadne::refute {
struct ProofWritten;
}  // namespace ariadne::refute

namespace ariadne::answer {

// After `check` answered not linearizable: writes the core's proof into `dir`.
// Throws UsageError when it cannot (the answer is not a refutation with a core, a
// file cannot be written).
// Stops at `limits` (LimitReached); throws refute::ProofBeyondEncoder when the core's
// relaxed history is past what the encoder takes. `core_attempt` bounds the solver on the core's
// formula; past it the proof covers the whole failing partition instead (see
// refute::write_proof).
refute::ProofWritten write_core_proof_files(
    const std::string& dir, const History& history, const Model& model, const CheckResult& result, const Limits& limits,
    std::chrono::steady_clock::duration core_attempt = std::chrono::seconds(20));

// One line for the report: what was written where, and how to check it.
std::string describe_written_proof(const std::string& dir, const refute::ProofWritten& written);

// `check --proof DIR`: write_core_proof_files in Phase::proof, described. Never
// throws: for a linearizable or unknown answer, when a limit stopped it (the limits
// are asked first, so a limit reached earlier writes nothing) or when it failed,
// says why no proof was written instead.
SideOutput write_core_proof(const std::string& dir, const History& history, const Model& model,
                            const CheckResult& result, const Limits& limits);

}  // namespace ariadne::answer
