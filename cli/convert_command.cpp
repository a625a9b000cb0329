#include "cli/convert_command.hpp"

#include "answer/text_files.hpp"
#include "batch/corpus_rows.hpp"
#include "cli/help_text.hpp"
#include "cli/option_values.hpp"
#include "cli/shared_options.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>

#include <filesystem>
#include <iostream>

namespace ariadne::cli {

using batch::CorpusRow;
using batch::model_spec_for_format;
using batch::read_corpus_rows;
using batch::unique_paths_below;

using answer::print;
using answer::write_text_file;

namespace {

namespace fs = std::filesystem;

void write_converted(const fs::path& path, const std::string& text) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  if (!write_text_file(path, text)) throw UsageError("convert: cannot write " + path.string());
}

Format target_format(const std::string& name) {
  if (const auto format = parse_format(name); format && *format != Format::auto_detect) return *format;
  throw UsageError("--to: expected edn, jepsen-log, porcupine-kv, json, violin-log or fastlin, got '" + name + "'");
}

// The file extension for a format: .edn, .log, .txt or .json (Violin and fastlin
// name their histories .log too).
std::string extension_for(const std::string& format_name) {
  if (format_name == "jepsen-log" || format_name == "violin-log" || format_name == "fastlin") return ".log";
  if (format_name == "porcupine-kv") return ".txt";
  if (format_name == "json") return ".json";
  return ".edn";
}

}  // namespace

void add_convert_options(CLI::App& convert, ConvertCommandOptions& options) {
  // Text, not a function as the other commands give: CLI11 ends a footer it calls with one
  // more blank line, which convert's help has never had.
  convert.footer(convert_help_footer());
  convert.add_option("FILE", options.file, "History file to convert");
  convert.add_option("--corpus", options.corpus, "Convert every row of this expected.tsv instead")->type_name("TSV");
  convert.add_option("--to", options.to, "The format to write")
      ->required()
      ->type_name("edn|jepsen-log|porcupine-kv|json|violin-log|fastlin");
  add_format_option(convert, options.format);
  convert.add_option("-o,--output", options.output, "Write to FILE instead of stdout")->type_name("FILE");
  convert
      .add_option("--out-dir", options.out_dir, "With --corpus: write the converted files and their expected.tsv here")
      ->type_name("DIR");
}

int run_convert_command(const ConvertCommandOptions& options) {
  const Format to = target_format(options.to);
  const Format from = choose_format(options.format);
  if (options.file.has_value() == options.corpus.has_value()) {
    throw UsageError("convert: give either FILE or --corpus TSV");
  }
  if (options.file) {
    if (options.out_dir) throw UsageError("convert: --out-dir is for --corpus; use -o FILE for one history");
    if (!fs::exists(*options.file)) throw InputError(*options.file, {}, "no such file");
    const std::string text = format_events(read_events(*options.file, from), to);
    if (options.output) {
      write_converted(*options.output, text);
    } else {
      print(text);
    }
    return 0;
  }
  if (!options.out_dir) throw UsageError("convert --corpus: --out-dir DIR is required");
  if (options.output) throw UsageError("convert --corpus: use --out-dir, not -o");
  const fs::path out_dir(*options.out_dir);
  std::string tsv;
  std::size_t converted = 0;
  const std::vector<CorpusRow> rows = read_corpus_rows(*options.corpus);
  // Named by each row's whole path, the new extension first, so that two stores'
  // history.edn (or a.edn beside a.json) never overwrite each other.
  std::vector<std::string> names;
  for (const CorpusRow& row : rows) {
    if (!row.error.empty()) throw UsageError("convert --corpus: " + row.name + ": " + row.error);
    names.push_back(fs::path(row.name).replace_extension(extension_for(options.to)).string());
  }
  const std::vector<fs::path> files = unique_paths_below(out_dir, names);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CorpusRow& row = rows[i];
    const fs::path& file = files[i];
    write_converted(file, format_events(read_events(row.path.string(), from), to));
    tsv += file.lexically_relative(out_dir).generic_string() + "\t" +
           (row.expected ? std::string(verdict_name(*row.expected)) : std::string("unknown")) + "\t" +
           model_spec_for_format(row.model, to) + "\n";
    ++converted;
  }
  write_converted(out_dir / "expected.tsv", tsv);
  std::cerr << "ariadne: converted " << converted << " histories to " << options.to << " in " << out_dir.string()
            << " (with expected.tsv)" << std::endl;
  return 0;
}

}  // namespace ariadne::cli
