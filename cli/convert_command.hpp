// `ariadne convert`: a history, or a whole expected.tsv corpus, in another checker's
// input format (Knossos reads edn, Porcupine's tests jepsen-log and porcupine-kv), so
// one corpus can be fed to every checker and their verdicts compared.
#pragma once

#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace ariadne::cli {

struct ConvertCommandOptions {
  std::optional<std::string> file;     // FILE: one history
  std::optional<std::string> corpus;   // --corpus TSV: every row of an expected.tsv
  std::string to;                      // --to: edn, jepsen-log, porcupine-kv or json
  std::string format = "auto";         // --format: how to read the input
  std::optional<std::string> output;   // -o FILE (one history); stdout when absent
  std::optional<std::string> out_dir;  // --out-dir DIR (a corpus): files and a new expected.tsv
};

// Adds FILE, --corpus, --to, --format and the outputs to `convert`, bound to `options`.
void add_convert_options(CLI::App& convert, ConvertCommandOptions& options);

// Returns 0 once everything is written. Throws UsageError for bad options and
// InputError for a history that cannot be read or written in the target format.
int run_convert_command(const ConvertCommandOptions& options);

}  // namespace ariadne::cli
