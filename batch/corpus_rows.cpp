// Reading corpus rows; see corpus_rows.hpp for the two layouts. Blank lines and
// lines starting with '#' in a TSV are skipped so a corpus can be annotated.
#include "batch/corpus_rows.hpp"
#include "answer/text_files.hpp"
#include "base/text.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>
#include <ariadne/value.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

namespace ariadne::batch {

using answer::read_text_file;

namespace fs = std::filesystem;

namespace {

// A row whose model is "-" or left out: the one the file's own header names (a
// Violin or LiMo log's `# @object`, a fastlin history's `# queue`), or an error row.
void model_from_header(CorpusRow& row) {
  row.model.clear();
  try {
    if (auto hint = read_model_hint(row.path.string())) {
      row.model = std::move(*hint);
    } else {
      row.error = "the row names no model, and the file's header names none";
    }
  } catch (const InputError& e) {
    row.error = e.what();
  }
}

std::vector<CorpusRow> read_tsv(const std::string& tsv) {
  const std::string text = read_text_file(tsv, "cannot open");
  const fs::path folder = fs::path(tsv).parent_path();
  std::vector<CorpusRow> rows;
  std::uint32_t line_number = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + begin, end - begin);
    begin = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (base::trim(line).empty() || base::trim(line).front() == '#') continue;

    std::vector<std::string_view> fields;
    std::vector<std::uint32_t> columns;
    std::size_t field_begin = 0;
    while (true) {
      const std::size_t tab = line.find('\t', field_begin);
      columns.push_back(static_cast<std::uint32_t>(field_begin + 1));
      fields.push_back(line.substr(field_begin, tab == std::string_view::npos ? tab : tab - field_begin));
      if (tab == std::string_view::npos) break;
      field_begin = tab + 1;
    }
    if (fields.size() != 3 && fields.size() != 2) {
      throw InputError(tsv, {line_number, 1},
                       "expected path<TAB>verdict<TAB>model (or path<TAB>verdict, the model from the file's header), "
                       "got " +
                           std::to_string(fields.size()) + " field" + (fields.size() == 1 ? "" : "s"));
    }
    CorpusRow row;
    row.name = std::string(base::trim(fields[0]));
    row.path = folder / row.name;
    row.expected = parse_verdict(base::trim(fields[1]));
    if (!row.expected) {
      throw InputError(tsv, {line_number, columns[1]},
                       "expected a verdict (linearizable, not-linearizable or unknown), got '" +
                           std::string(base::trim(fields[1])) + "'");
    }
    row.model = fields.size() == 3 ? std::string(base::trim(fields[2])) : "-";
    if (row.name.empty() || row.model.empty()) {
      throw InputError(tsv, {line_number, row.name.empty() ? 1 : columns[2]}, "empty field");
    }
    if (row.model == "-") model_from_header(row);
    rows.push_back(std::move(row));
  }
  return rows;
}

// The value of a header line "; <key>: <value>" (any number of ';'), if it is one.
std::optional<std::string> header_value(std::string_view line, std::string_view key) {
  line = base::trim(line);
  while (!line.empty() && line.front() == ';') line.remove_prefix(1);
  line = base::trim(line);
  if (line.substr(0, key.size()) != key) return std::nullopt;
  line.remove_prefix(key.size());
  line = base::trim(line);
  if (line.empty() || line.front() != ':') return std::nullopt;
  line.remove_prefix(1);
  return std::string(base::trim(line));
}

// A row for `file` if its leading comment lines hold an expected verdict or a model;
// nullopt for a file without a header, which is not part of the corpus.
std::optional<CorpusRow> read_header(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  CorpusRow row;
  row.name = file.filename().string();
  row.path = file;
  if (!in) {
    row.error = "cannot open";
    return row;
  }
  std::optional<std::string> expected;
  std::optional<std::string> model;
  std::optional<std::string> expected_sequential;
  std::optional<std::string> expected_per_key;
  std::string line;
  while (std::getline(in, line)) {
    const std::string_view trimmed = base::trim(line);
    if (trimmed.empty()) continue;
    if (trimmed.front() != ';') break;  // the header ends with the first non-comment
    if (auto value = header_value(trimmed, "expected")) expected = std::move(value);
    if (auto value = header_value(trimmed, "expected-sequential")) expected_sequential = std::move(value);
    if (auto value = header_value(trimmed, "expected-sequential-per-key")) expected_per_key = std::move(value);
    if (auto value = header_value(trimmed, "model")) model = std::move(value);
  }
  if (!expected && !model) return std::nullopt;
  row.model = model.value_or("");
  if (!model || model->empty()) {
    row.error = "header has '; expected:' but no '; model:'";
  } else if (!expected) {
    row.error = "header has '; model:' but no '; expected:'";
  } else if (!(row.expected = parse_verdict(*expected))) {
    row.error = "header's expected verdict '" + *expected + "' is not linearizable, not-linearizable or unknown";
  }
  for (const auto& [text, field] : {std::pair{&expected_sequential, &row.expected_sequential},
                                    std::pair{&expected_per_key, &row.expected_sequential_per_key}}) {
    if (!*text || !row.error.empty()) continue;
    if (!(*field = parse_verdict(**text))) {
      row.error = "header's expected sequential verdict '" + **text +
                  "' is not sequentially-consistent, not-sequentially-consistent or unknown";
    }
  }
  return row;
}

// A directory is a corpus of its .edn files with headers, and of every folder
// below it: a folder with its own expected.tsv contributes that TSV's rows (a
// family whose files carry no header, such as a converted copy), any other folder
// is scanned the same way. So `ariadne corpus corpus/` checks every family at once.
// Row names are paths relative to the top directory, in sorted order, so reports
// are comparable between runs.
//
// A symbolic link that loops (to itself, or to a folder above it, which would scan
// forever) is bad input naming the link: `ancestors` holds the real paths of the
// folders being scanned.
void collect_directory(const fs::path& top, const fs::path& directory, std::vector<CorpusRow>& rows,
                       std::vector<fs::path>& ancestors) {
  const auto relative_name = [&](const fs::path& path) { return path.lexically_relative(top).generic_string(); };
  std::error_code tsv_error;
  const bool has_tsv = fs::is_regular_file(directory / "expected.tsv", tsv_error);
  if (tsv_error == std::errc::too_many_symbolic_link_levels) {
    throw InputError((directory / "expected.tsv").string(), {}, "a symbolic link loop");
  }
  if (directory != top && has_tsv) {
    for (CorpusRow row : read_tsv((directory / "expected.tsv").string())) {
      row.name = relative_name(directory / row.name);
      rows.push_back(std::move(row));
    }
    return;
  }
  std::vector<fs::path> files;
  std::vector<fs::path> folders;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    std::error_code entry_error;
    const fs::file_status status = entry.status(entry_error);
    if (entry_error == std::errc::too_many_symbolic_link_levels) {
      throw InputError(entry.path().string(), {}, "a symbolic link loop");
    }
    // A dangling link names nothing to check; any other failure is the folder's.
    if (entry_error && status.type() != fs::file_type::not_found) {
      throw InputError(entry.path().string(), {}, "cannot read: " + entry_error.message());
    }
    if (fs::is_regular_file(status) && entry.path().extension() == ".edn") files.push_back(entry.path());
    // Hidden folders (.git) and proof directories (whose core.edn is a history with no
    // verdict header) are not families.
    const std::string name = entry.path().filename().string();
    if (fs::is_directory(status) && !name.starts_with(".") && !name.ends_with(".proof")) {
      folders.push_back(entry.path());
    }
  }
  if (error) throw InputError(directory.string(), {}, "cannot read directory: " + error.message());
  std::sort(files.begin(), files.end());
  std::sort(folders.begin(), folders.end());
  for (const auto& file : files) {
    if (auto row = read_header(file)) {
      row->name = relative_name(file);
      rows.push_back(std::move(*row));
    }
  }
  for (const auto& folder : folders) {
    std::error_code real_error;
    const fs::path real = fs::canonical(folder, real_error);
    if (real_error) throw InputError(folder.string(), {}, "cannot read: " + real_error.message());
    if (std::find(ancestors.begin(), ancestors.end(), real) != ancestors.end()) {
      throw InputError(folder.string(), {}, "a symbolic link loop: it leads back to " + real.string());
    }
    ancestors.push_back(real);
    collect_directory(top, folder, rows, ancestors);
    ancestors.pop_back();
  }
}

std::vector<CorpusRow> read_directory(const std::string& directory) {
  std::vector<CorpusRow> rows;
  std::error_code error;
  std::vector<fs::path> ancestors{fs::canonical(directory, error)};
  if (error) throw InputError(directory, {}, "cannot read directory: " + error.message());
  collect_directory(fs::path(directory), fs::path(directory), rows, ancestors);
  return rows;
}

}  // namespace

namespace {

Value keywords_as_strings(const Value& value) {
  if (value.is_keyword()) return Value::string(value.text());
  if (value.is_map()) {
    std::vector<Value::Entry> entries;
    for (const auto& [key, item] : value.entries())
      entries.emplace_back(keywords_as_strings(key), keywords_as_strings(item));
    return Value::map(std::move(entries));
  }
  if (value.is_sequential() || value.is_set()) {
    std::vector<Value> elements;
    for (const Value& item : value.elements()) elements.push_back(keywords_as_strings(item));
    if (value.is_set()) return Value::set(std::move(elements));
    return value.kind() == Value::Kind::list ? Value::list(std::move(elements)) : Value::vector(std::move(elements));
  }
  return value;
}

}  // namespace

std::string model_spec_for_format(const std::string& spec, Format format) {
  if (format != Format::json) return spec;
  ModelSpecParts parts;
  try {
    parts = split_model_spec(spec);
  } catch (const UsageError&) {
    // Converting checks no model: a spec that no model reads is copied as it is, and
    // `ariadne corpus` reports it on the converted corpus as on the original.
    return spec;
  }
  if (!parts.argument || parts.argument->empty()) return spec;
  if (parts.name == "independent") {
    return "independent(" + model_spec_for_format(std::string(*parts.argument), format) + ")";
  }
  const Value init = parse_edn_value(*parts.argument, spec);
  return std::string(parts.name) + "(" + keywords_as_strings(init).to_edn() + ")";
}

std::vector<fs::path> unique_paths_below(const fs::path& dir, const std::vector<std::string>& row_names) {
  std::vector<fs::path> paths;
  paths.reserve(row_names.size());
  // Lower case: two names that differ only in case are one file on some systems.
  std::set<std::string> taken;
  const auto key = [](const fs::path& path) {
    std::string text = path.generic_string();
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
  };
  for (const std::string& name : row_names) {
    // The row's path as a relative one: "..", a root and empty or "." parts become
    // plain folder names, so nothing is written outside `dir` and the folders a row
    // came from stay told apart (two Jepsen stores' history.edn).
    fs::path relative;
    const fs::path normal = fs::path(name).lexically_normal();
    if (normal.is_absolute()) relative /= "_root_";
    for (const fs::path& part : normal.relative_path()) {
      const std::string text = part.string();
      if (text.empty() || text == ".") continue;
      relative /= text == ".." ? std::string("_up_") : text;
    }
    if (relative.empty()) relative = "_row_";
    fs::path candidate = relative;
    for (int n = 2; !taken.insert(key(candidate)).second; ++n) {
      candidate = fs::path(relative.string() + "~" + std::to_string(n));
    }
    paths.push_back(dir / candidate);
  }
  return paths;
}

std::optional<Verdict> parse_verdict(std::string_view name) {
  for (const auto verdict : {Verdict::linearizable, Verdict::not_linearizable, Verdict::unknown}) {
    if (name == verdict_name(verdict) || name == verdict_name(verdict, Consistency::sequential)) return verdict;
  }
  return std::nullopt;
}

std::optional<Verdict> expected_under(const CorpusRow& row, Consistency consistency) {
  const auto holds = [](const std::optional<Verdict>& v) { return v == Verdict::linearizable; };
  switch (consistency) {
    case Consistency::linearizable: return row.expected;
    case Consistency::sequential:
      if (row.expected_sequential) return row.expected_sequential;
      if (holds(row.expected)) return Verdict::linearizable;
      return std::nullopt;
    case Consistency::sequential_per_key:
      if (row.expected_sequential_per_key) return row.expected_sequential_per_key;
      if (holds(row.expected) || holds(row.expected_sequential)) return Verdict::linearizable;
      return std::nullopt;
  }
  return std::nullopt;
}

std::vector<CorpusRow> read_corpus_rows(const std::string& corpus) {
  std::error_code error;
  const auto status = fs::status(corpus, error);
  if (error || !fs::exists(status)) throw InputError(corpus, {}, "no such file or directory");
  std::vector<CorpusRow> rows = fs::is_directory(status) ? read_directory(corpus) : read_tsv(corpus);
  // An empty corpus is almost always a wrong path or a missing header; passing it
  // silently would let a CI job check nothing and succeed.
  if (rows.empty()) {
    throw InputError(corpus, {},
                     fs::is_directory(status) ? "no .edn file with a '; expected:' and '; model:' header" : "no rows");
  }
  return rows;
}

}  // namespace ariadne::batch
