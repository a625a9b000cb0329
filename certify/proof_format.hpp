// The format of a proof directory, which the proof writer (refute/proof_writer.hpp)
// and the proof checker (certify/proof_checker.cpp) share: its file names, and
// reading the core's history back.
//
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
#include <ariadne/model.hpp>

#include "encoder/formula.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ariadne::certify::proof_format {

inline constexpr const char* kHistoryFile = "core.edn";
inline constexpr const char* kCnfFile = "formula.cnf";
inline constexpr const char* kProofFile = "proof.drat";
inline constexpr const char* kManifestFile = "proof.json";
inline constexpr const char* kReadmeFile = "README.txt";

// Throws std::runtime_error when the file cannot be written.
void write_file(const std::filesystem::path& path, const std::string& text);
std::optional<std::string> read_file(const std::filesystem::path& path);

// The core's relaxed history, read from the text of core.edn exactly as
// verify-proof reads it, so that the formula written is the formula it re-encodes.
struct CoreHistory {
  History history;
  std::vector<const Operation*> ops;
};
CoreHistory read_core_history(const std::string& text, const std::string& source, const Model& model);

}  // namespace ariadne::certify::proof_format
