// Proofs of "not linearizable" that need no trust in ariadne's solvers: `check
// --proof DIR` writes them, `verify-proof DIR` checks them.
//
// DIR holds:
//   core.edn     the core's relaxed history as an ordinary history file: the core's ops
//                as recorded, every other op of the partition as a crashed op invoked
//                first (each op map's :index is the op's id in the original file);
//   formula.cnf  DIMACS: the clauses ariadne's encoder produces for core.edn, then the
//                transitivity lemmas (each forbids one cycle of order atoms and real-
//                time facts), with comments naming every order atom and presence
//                variable;
//   proof.drat   a DRAT refutation of formula.cnf written by a fresh CaDiCaL;
//   proof.json   the manifest: model, file names, clause counts, the core's op ids;
//   README.txt   how to check it, with ariadne or with drat-trim.
//
// verify-proof re-reads core.edn, re-encodes it, and checks three things: the CNF's
// base clauses are exactly that encoding; every lemma is a cycle that no order can
// have; and the DRAT proof refutes the lot, with our own checker (certify/), which
// shares no code with CaDiCaL.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace ariadne::explain {

struct ProofWritten {
  std::size_t base_clauses = 0;
  std::size_t lemmas = 0;
  std::int32_t variables = 0;
  std::uintmax_t proof_bytes = 0;
  std::size_t core_ops = 0;       // the ops the proof keeps as recorded
  bool whole_partition = false;   // the core's own formula took too long; this proves the partition
};

// `partition`: the refuted partition in call order; `core`: indices into it. Creates
// `dir` if needed. When the solver cannot refute the core's formula within
// `core_attempt` (and what the limits leave), proves the whole partition instead
// (whole_partition). Every step stops at the limits: then it throws LimitReached.
// Throws std::runtime_error when the history cannot be encoded (the unrolling's state
// limit) or a file cannot be written, and std::logic_error if the solver finds the
// formula satisfiable (a bug).
ProofWritten write_proof(const std::string& dir, std::span<const Operation* const> partition,
                         std::span<const std::uint32_t> core, const Model& model, const Limits& limits,
                         std::chrono::steady_clock::duration core_attempt = std::chrono::seconds(20));
// The same without limits (tests, and callers that bound nothing but the attempt).
ProofWritten write_proof(const std::string& dir, std::span<const Operation* const> partition,
                         std::span<const std::uint32_t> core, const Model& model,
                         std::chrono::steady_clock::duration core_attempt = std::chrono::seconds(20));

struct ProofCheck {
  bool valid = false;
  std::vector<std::string> passed;  // one line per check that passed
  std::string failure;              // when invalid: the first check that failed, and why
  bool stopped = false;             // `should_stop` ended the check first: not checked, not invalid
};

// Never throws for bad or missing files: they make the proof invalid, with a reason.
// `should_stop` (a limit of the command's) is polled through the DRAT check.
ProofCheck verify_proof(const std::string& dir, const std::function<bool()>& should_stop = {});

}  // namespace ariadne::explain
