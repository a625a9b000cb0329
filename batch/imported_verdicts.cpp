// Reading another checker's verdicts. Knossos reports :valid? as true, false or
// :unknown (when it ran out of time or memory); Porcupine's CheckOperations gives a
// bool and CheckOperationsVerbose an Ok/Illegal/Unknown result. Everything else
// Knossos puts in its map (:configs, :final-paths, :op ...) is ignored: only the
// verdict is compared, since ariadne's own certificates say why.
#include "batch/imported_verdicts.hpp"
#include "base/text.hpp"

#include "answer/text_files.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/value.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

namespace ariadne::batch {

using answer::read_text_file;

namespace fs = std::filesystem;

namespace {

std::string read_results_file(const fs::path& path) { return read_text_file(path, "cannot read the results file"); }

// Case does not matter: Porcupine's CheckResult prints as Ok, Illegal, Unknown.
std::optional<Verdict> listed_verdict(std::string_view text) {
  std::string word(text);
  std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return std::tolower(c); });
  if (word == "true" || word == "ok" || word == "linearizable") return Verdict::linearizable;
  if (word == "false" || word == "illegal" || word == "not-linearizable") return Verdict::not_linearizable;
  if (word == "unknown") return Verdict::unknown;
  return std::nullopt;
}

// Knossos' :valid? is true, false or :unknown.
Verdict knossos_verdict(const Value& result, const std::string& source) {
  if (!result.is_map())
    throw InputError(source, {}, "expected a Knossos result map {:valid? ...}, got " + result.to_edn());
  const Value* valid = result.find_keyword("valid?");
  if (!valid) throw InputError(source, {}, "the result map has no :valid? key");
  if (valid->kind() == Value::Kind::boolean)
    return valid->as_boolean() ? Verdict::linearizable : Verdict::not_linearizable;
  if (valid->is_keyword() && valid->text() == "unknown") return Verdict::unknown;
  throw InputError(source, {}, ":valid? must be true, false or :unknown, got " + valid->to_edn());
}

std::string file_key(const Value& key, const std::string& source) {
  if (key.is_string() || key.is_keyword() || key.kind() == Value::Kind::symbol) return key.text();
  throw InputError(source, {}, "expected a file name as the key, got " + key.to_edn());
}

// A string, keyword or symbol field as text; empty when absent.
std::string text_field(const Value& result, std::string_view name, const std::string& source) {
  const Value* field = result.find_keyword(name);
  if (!field || field->is_nil()) return {};
  if (field->is_string() || field->is_keyword() || field->kind() == Value::Kind::symbol) return field->text();
  throw InputError(source, {}, ":" + std::string(name) + " must be a string or keyword, got " + field->to_edn());
}

ImportedResult knossos_result(const Value& result, const std::string& source) {
  ImportedResult r;
  r.verdict = knossos_verdict(result, source);
  r.analyzer = text_field(result, "analyzer", source);
  r.error = text_field(result, "error", source);
  r.cause = text_field(result, "cause", source);
  r.skipped = text_field(result, "skipped", source);
  r.model = text_field(result, "knossos-model", source);
  r.row_model = text_field(result, "model", source);
  if (const Value* ms = result.find_keyword("time-ms"); ms && !ms->is_nil()) {
    if (ms->kind() == Value::Kind::integer) {
      r.ms = static_cast<double>(ms->as_integer());
    } else if (ms->kind() == Value::Kind::floating) {
      r.ms = ms->as_floating();
    } else {
      throw InputError(source, {}, ":time-ms must be a number, got " + ms->to_edn());
    }
  }
  return r;
}

// One more result for `file`; two for the same file and analyzer are refused, since
// which one counts would be a guess.
void add_result(ImportedVerdicts& imported, const std::string& file, ImportedResult result, const std::string& source) {
  std::vector<ImportedResult>& results = imported.by_file[file];
  for (const ImportedResult& earlier : results) {
    if (earlier.analyzer == result.analyzer && earlier.row_model == result.row_model) {
      throw InputError(source, {},
                       "two results for " + file + (result.analyzer.empty() ? "" : " by " + result.analyzer) +
                           (result.row_model.empty() ? "" : " with the model " + result.row_model));
    }
  }
  if (!result.analyzer.empty() &&
      std::find(imported.analyzers.begin(), imported.analyzers.end(), result.analyzer) == imported.analyzers.end()) {
    imported.analyzers.push_back(result.analyzer);
  }
  results.push_back(std::move(result));
}

void read_knossos_file(const fs::path& path, ImportedVerdicts& imported) {
  const std::string source = path.string();
  const Value document = parse_edn_value(read_results_file(path), source);
  if (document.is_map() && !document.find_keyword("valid?")) {
    for (const auto& [key, result] : document.entries()) {
      const std::string where = source + " at " + key.to_edn();
      add_result(imported, file_key(key, source), knossos_result(result, where), where);
    }
    return;
  }
  if (document.is_sequential()) {
    for (const Value& result : document.elements()) {
      const Value* file = result.is_map() ? result.find_keyword("file") : nullptr;
      if (!file) throw InputError(source, {}, "each result map in the vector needs :file, got " + result.to_edn());
      add_result(imported, file_key(*file, source), knossos_result(result, source), source);
    }
    return;
  }
  throw InputError(source, {},
                   "expected a map from file name to Knossos result map, or a vector of result maps with :file "
                   "(a single result map belongs in a directory, named after its history plus .edn)");
}

void read_knossos_directory(const fs::path& directory, ImportedVerdicts& imported) {
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(directory, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (!it->is_regular_file() || it->path().extension() != ".edn") continue;
    const Value result = parse_edn_value(read_results_file(it->path()), it->path().string());
    std::string name = it->path().lexically_relative(directory).generic_string();
    name.resize(name.size() - std::string_view(".edn").size());
    add_result(imported, name, knossos_result(result, it->path().string()), it->path().string());
  }
  if (error) throw InputError(directory.string(), {}, "cannot read directory: " + error.message());
  if (imported.by_file.empty()) throw InputError(directory.string(), {}, "no Knossos result maps (*.edn) in it");
}

void read_listing(const fs::path& path, ImportedVerdicts& imported) {
  const std::string source = path.string();
  std::istringstream lines(read_results_file(path));
  std::string line;
  std::uint32_t number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const std::string_view text = base::trim(line);
    if (text.empty() || text.front() == '#') continue;
    const auto tab = line.rfind('\t');
    if (tab == std::string::npos) throw InputError(source, {number, 1}, "expected file<TAB>true|false|unknown");
    const std::string_view word = base::trim(std::string_view(line).substr(tab + 1));
    const auto verdict = listed_verdict(word);
    if (!verdict) {
      throw InputError(source, {number, static_cast<std::uint32_t>(tab + 2)},
                       "expected true, false or unknown (or ok, illegal, linearizable, not-linearizable), got '" +
                           std::string(word) + "'");
    }
    const std::string_view file = base::trim(std::string_view(line).substr(0, tab));
    if (file.empty()) throw InputError(source, {number, 1}, "empty file name");
    ImportedResult result;
    result.verdict = *verdict;
    add_result(imported, std::string(file), std::move(result), source + ":" + std::to_string(number));
  }
  if (imported.by_file.empty()) throw InputError(source, {}, "no verdicts in it");
}

}  // namespace

std::vector<ImportedResult> ImportedVerdicts::find(const CorpusRow& row) const {
  const std::vector<ImportedResult>* found = nullptr;
  if (const auto it = by_file.find(row.name); it != by_file.end()) {
    found = &it->second;
  } else {
    const std::string base = fs::path(row.name).filename().string();
    for (const auto& [file, results] : by_file) {
      if (fs::path(file).filename().string() != base) continue;
      if (found) return {};  // two candidates: ambiguous, so missing
      found = &results;
    }
  }
  if (!found) return {};
  std::vector<ImportedResult> results;
  for (const ImportedResult& result : *found) {
    if (result.row_model.empty() || result.row_model == row.model) results.push_back(result);
  }
  return results;
}

std::string ImportedVerdicts::label(const ImportedResult& result) const {
  return result.analyzer.empty() ? checker : checker + " " + result.analyzer;
}

Verdict combined_verdict(const std::vector<ImportedResult>& results) {
  std::optional<Verdict> shared;
  for (const ImportedResult& r : results) {
    if (r.verdict == Verdict::unknown) continue;
    if (shared && *shared != r.verdict) return Verdict::unknown;
    shared = r.verdict;
  }
  return shared.value_or(Verdict::unknown);
}

ImportedVerdicts read_imported_verdicts(std::string_view checker, const std::string& path) {
  ImportedVerdicts imported;
  imported.checker = std::string(checker);
  imported.source = path;
  std::error_code error;
  const auto status = fs::status(path, error);
  if (error || !fs::exists(status)) throw InputError(path, {}, "no such file or directory");
  if (checker == "knossos") {
    if (fs::is_directory(status)) {
      read_knossos_directory(path, imported);
    } else {
      read_knossos_file(path, imported);
    }
  } else if (checker == "porcupine") {
    if (fs::is_directory(status)) throw InputError(path, {}, "is a directory; a Porcupine listing is one file");
    read_listing(path, imported);
  } else {
    throw UsageError("--import " + std::string(checker) + ": expected " + std::string(kImportableCheckers));
  }
  return imported;
}

}  // namespace ariadne::batch
