// What the proof writer and the proof checker share: the file names of a proof
// directory, and reading the core's history back.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "encoder/formula.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ariadne::explain::proof_format {

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

}  // namespace ariadne::explain::proof_format
