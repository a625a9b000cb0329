// The fuzz targets' link to the corpora, built with the same instrumentation as the
// targets but without libFuzzer:
//
//   fuzz_corpus_tool seeds OUT_DIR [--max-bytes N] CORPUS...
//     Writes each target's seeds under OUT_DIR from corpora (a directory of .edn files
//     with `; model:` headers, or an expected.tsv; ariadne corpus reads the same):
//     every history in each format (edn/, jepsen-log/, porcupine-kv/, json/, written
//     by format_events where the format can hold it), the original text behind its
//     model's selector byte (check/, for fuzz_check and fuzz_check_events), and a
//     few of its values and its model's initial state (edn-value/). Files larger than
//     N bytes are left out (the short runs of `make test` load their seeds in seconds).
//
//   fuzz_corpus_tool to-history INPUT
//     Prints an input of fuzz_check or fuzz_check_events as a history file: a
//     `; model:` header for its selector byte, then its events as EDN op maps (the
//     exact round trip `ariadne convert` promises; JSON, for one, allows no `;`
//     header). Add a `; expected:` line (argued, not copied from ariadne's output)
//     and it is a corpus file. A history its reader rejects is printed as it is.
//
//   fuzz_corpus_tool replay CORPUS...
//     Checks every history of the corpora through the fuzz harness (fuzz::check_input,
//     with its oracles, under ASan and UBSan) and compares the verdict with the
//     expected one: how corpus/fuzz/ keeps the histories that exposed bugs in the
//     whole check. Exits 1 on a wrong verdict; a bug aborts, as in the fuzzer.
//
// Corpus rows are read by the command line's own reader (batch/corpus_rows.cpp),
// so a seed is exactly what `ariadne corpus` would check.
#include "harness.hpp"

#include "batch/corpus_rows.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace ariadne;

constexpr const char* kUsage =
    "usage: fuzz_corpus_tool seeds OUT_DIR [--max-bytes N] CORPUS...\n"
    "       fuzz_corpus_tool to-history INPUT\n"
    "       fuzz_corpus_tool replay CORPUS...\n";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const fs::path& path, std::string_view bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// One flat file name per row, since libFuzzer reads a directory of inputs; a file
// that two rows name (with two models) gets a numbered second name.
std::string flat_name(const std::string& row_name, std::set<std::string>& taken) {
  std::string name = row_name;
  for (char& c : name) {
    if (c == '/' || c == '\\') c = '_';
  }
  const std::string base = name;
  for (int n = 2; !taken.insert(name).second; ++n) name = base + "~" + std::to_string(n);
  return name;
}

std::vector<batch::CorpusRow> read_rows(const std::vector<std::string>& corpora) {
  std::vector<batch::CorpusRow> rows;
  for (const std::string& corpus : corpora) {
    for (batch::CorpusRow& row : batch::read_corpus_rows(corpus)) {
      if (row.error.empty()) rows.push_back(std::move(row));
    }
  }
  return rows;
}

// The initial state inside a spec's parentheses ("0" of "cas-register(0)"), if any.
std::string initial_state_text(const std::string& spec) {
  const std::optional<std::string_view> argument = split_model_spec(spec).argument;
  return argument ? std::string(*argument) : std::string();
}

int write_seeds(const fs::path& out, std::uintmax_t max_bytes, const std::vector<std::string>& corpora) {
  constexpr Format kFormats[] = {Format::edn,  Format::jepsen_log, Format::porcupine_kv,
                                 Format::json, Format::violin_log, Format::fastlin};
  constexpr std::size_t kValuesPerHistory = 4;
  std::size_t histories = 0;
  std::set<std::string> values;
  std::set<std::string> names;
  for (const batch::CorpusRow& row : read_rows(corpora)) {
    if (!fs::is_regular_file(row.path) || fs::file_size(row.path) > max_bytes) continue;
    const std::string text = read_file(row.path);
    const std::string name = flat_name(row.name, names);
    EventLog log;
    try {
      log = parse_events(text, row.path.string());
    } catch (const InputError& e) {
      std::cerr << "fuzz_corpus_tool: skipped " << e.what() << "\n";
      continue;
    }
    for (const Format format : kFormats) {
      try {
        write_file(out / format_name(format) / name, format_events(log, format));
      } catch (const InputError&) {
        // The format cannot hold this history (a :key in a jepsen-log, ...).
      }
    }
    try {
      const std::uint8_t selector = fuzz::selector_for_model_spec(row.model);
      write_file(out / "check" / name, std::string(1, static_cast<char>(selector)) + text);
    } catch (const UsageError& e) {
      std::cerr << "fuzz_corpus_tool: " << row.name << ": " << e.what() << "\n";
    }
    std::size_t taken = 0;
    for (const Event& event : log.events) {
      if (taken == kValuesPerHistory) break;
      if (!event.value.is_nil() && values.insert(event.value.to_edn()).second) ++taken;
    }
    if (const std::string init = initial_state_text(row.model); !init.empty()) values.insert(init);
    ++histories;
  }
  std::size_t n = 0;
  for (const std::string& value : values) write_file(out / "edn-value" / ("value-" + std::to_string(n++)), value);
  std::cout << "fuzz_corpus_tool: seeds from " << histories << " histories and " << values.size() << " values in "
            << out.string() << "\n";
  return 0;
}

int replay(const std::vector<std::string>& corpora) {
  // Regression files are small; the limit only keeps a hang from passing silently.
  const fuzz::CheckLimits limits{.timeout_seconds = 10};
  int wrong = 0;
  std::size_t checked = 0;
  std::vector<batch::CorpusRow> rows;
  for (const std::string& corpus : corpora) {
    for (batch::CorpusRow& row : batch::read_corpus_rows(corpus)) rows.push_back(std::move(row));
  }
  for (const batch::CorpusRow& row : rows) {
    // A regression whose header cannot be read would otherwise stop being replayed
    // without anyone noticing.
    if (!row.error.empty()) {
      std::cerr << row.path.string() << ": " << row.error << "\n";
      ++wrong;
      continue;
    }
    const std::optional<Verdict> verdict = fuzz::check_input(read_file(row.path), row.model, limits);
    ++checked;
    if (verdict == row.expected) continue;
    std::cerr << row.path.string() << ": expected " << verdict_name(*row.expected) << ", got "
              << (verdict ? std::string(verdict_name(*verdict)) : std::string("an input error")) << "\n";
    ++wrong;
  }
  std::cout << "fuzz_corpus_tool: replayed " << checked << " histories, " << wrong << " wrong\n";
  return wrong == 0 ? 0 : 1;
}

int print_history(const fs::path& input) {
  const std::string bytes = read_file(input);
  if (bytes.empty()) {
    std::cerr << "fuzz_corpus_tool: " << input.string() << " is empty: a check input starts with its selector byte\n";
    return 65;
  }
  const std::string_view text = std::string_view(bytes).substr(1);
  std::cout << "; model: " << fuzz::model_spec_for_selector(static_cast<std::uint8_t>(bytes[0])) << "\n";
  try {
    std::cout << format_events(parse_events(text, input.string()), Format::edn);
  } catch (const InputError&) {
    std::cout << text;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 2 && args[0] == "to-history") return print_history(args[1]);
    if (args.size() >= 2 && args[0] == "replay") return replay({args.begin() + 1, args.end()});
    if (args.size() >= 3 && args[0] == "seeds") {
      std::uintmax_t max_bytes = std::numeric_limits<std::uintmax_t>::max();
      std::vector<std::string> corpora;
      for (std::size_t i = 2; i < args.size(); ++i) {
        if (args[i] == "--max-bytes" && i + 1 < args.size()) {
          max_bytes = std::stoull(args[++i]);
        } else {
          corpora.push_back(args[i]);
        }
      }
      return write_seeds(args[1], max_bytes, corpora);
    }
  } catch (const std::exception& e) {
    std::cerr << "fuzz_corpus_tool: " << e.what() << "\n";
    return 65;
  }
  std::cerr << kUsage;
  return 64;
}
