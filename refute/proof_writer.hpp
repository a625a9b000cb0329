// Writing a proof directory (certify/proof_format.hpp) for a refuted partition and
// its core: `check --proof DIR`.
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <chrono>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace ariadne::refute {

struct ProofWritten {
  std::size_t base_clauses = 0;
  std::size_t lemmas = 0;
  std::int32_t variables = 0;
  std::uintmax_t proof_bytes = 0;
  std::size_t core_ops = 0;      // the ops the proof keeps as recorded
  bool whole_partition = false;  // the core's own formula took too long; this proves the partition
};

// The core's relaxed history is past what the encoder takes (its unrolling's state
// limit: a register whose relaxed ops write more distinct values than it tracks, as
// real histories with unique values do): no proof can be written for it. The
// refutation itself stands, certified by its minimal core; only the DRAT file is missing.
class ProofBeyondEncoder : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `partition`: the refuted partition in call order; `core`: indices into it. Creates
// `dir` if needed. When the solver cannot refute the core's formula within
// `core_attempt` (and what the limits leave), proves the whole partition instead
// (whole_partition). Every step stops at the limits: then it throws LimitReached.
// Throws ProofBeyondEncoder when the history cannot be encoded (the unrolling's state
// limit), std::runtime_error when a file cannot be written, and std::logic_error if the
// solver finds the formula satisfiable (a bug).
//
// Under the sequential conditions (`consistency`) the formula keeps program order in
// place of real time, proof.json says "consistency", and verify-proof re-encodes so.
ProofWritten write_proof(const std::string& dir, std::span<const Operation* const> partition,
                         std::span<const std::uint32_t> core, const Model& model, const Limits& limits,
                         std::chrono::steady_clock::duration core_attempt = std::chrono::seconds(20),
                         Consistency consistency = Consistency::linearizable);
// The same without limits (tests, and callers that bound nothing but the attempt).
ProofWritten write_proof(const std::string& dir, std::span<const Operation* const> partition,
                         std::span<const std::uint32_t> core, const Model& model,
                         std::chrono::steady_clock::duration core_attempt = std::chrono::seconds(20));

}  // namespace ariadne::refute
