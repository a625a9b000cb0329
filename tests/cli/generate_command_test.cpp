// `ariadne generate` end to end, for both families: a file on stdout and the same
// file with -o, read by `ariadne check` with the verdict its header promises; a
// --count batch that `ariadne corpus` accepts as a corpus; each file's `; generated:`
// line reprinting it byte for byte (the committed samples included); and usage
// errors exiting 64.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

#include <algorithm>

namespace ariadne::cli_test {

namespace {

// The words of a command line as a POSIX shell splits them, for the quoting the
// generators write: blanks separate words, and single quotes keep everything up to the
// next single quote, blanks included (a quote itself is written '\'').
std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      const std::size_t close = line.find('\'', i + 1);
      REQUIRE(close != std::string::npos);
      word += line.substr(i + 1, close - i - 1);
      in_word = true;
      i = close;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

// The arguments of a file's "; generated: ariadne ..." line, without "ariadne".
std::vector<std::string> generated_arguments(const std::string& file_text) {
  const std::string prefix = "; generated: ariadne ";
  REQUIRE(file_text.rfind(prefix, 0) == 0);
  return shell_words(file_text.substr(prefix.size(), file_text.find('\n') - prefix.size()));
}

// Running the file's own "; generated:" command prints the file again, byte for byte.
void check_reprints(const fs::path& file) {
  CAPTURE(file);
  const std::string text = read_text(file);
  const auto again = run_cli(generated_arguments(text));
  REQUIRE_MESSAGE(again.status == 0, again.err);
  CHECK(again.out == text);
}

std::vector<fs::path> edn_files(const fs::path& directory) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (entry.path().extension() == ".edn") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("generate: a crash storm on stdout is what -o writes and check gives its verdict") {
    TempDir dir;
    for (const bool stale : {false, true}) {
      CAPTURE(stale);
      std::vector<std::string> args{"generate", "crash-storm", "--ops", "80",     "--crashed-writes",
                                    "5",        "--clients",   "4",     "--seed", "11"};
      if (stale) args.push_back("--stale-read");
      const auto printed = run_cli(args);
      REQUIRE_MESSAGE(printed.status == 0, printed.err);
      CHECK(printed.err.empty());
      CHECK(printed.out.find("; expected: " + std::string(stale ? "not-linearizable" : "linearizable") + "\n") !=
            std::string::npos);
      CHECK(printed.out.find("; model: cas-register(0)\n") != std::string::npos);

      const std::string file = (dir.path() / (stale ? "stale.edn" : "clean.edn")).string();
      args.insert(args.end(), {"-o", file});
      const auto written = run_cli(args);
      REQUIRE_MESSAGE(written.status == 0, written.err);
      CHECK(written.out.empty());
      CHECK(read_text(file) == printed.out);

      const auto checked = run_cli({"check", file, "--model", "cas-register(0)", "--engine", "wgl"});
      CHECK_MESSAGE(checked.status == (stale ? 1 : 0), checked.out, checked.err);
    }
  }

  TEST_CASE("generate: --count and --out-dir write a corpus that corpus accepts") {
    TempDir dir;
    const fs::path out = dir.path() / "storms";
    const auto run = run_cli({"generate", "crash-storm", "--ops", "60", "--crashed-writes", "4", "--clients", "4",
                              "--stale-read", "--seed", "5", "--count", "3", "--out-dir", out.string()});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const std::vector<fs::path> files = edn_files(out);
    REQUIRE(files.size() == 3);
    CHECK(files[0].filename() == "crash-storm-60-4-5-stale.edn");
    CHECK(files[2].filename() == "crash-storm-60-4-7-stale.edn");
    for (const auto& file : files) CHECK(run.out.find(file.string() + "\n") != std::string::npos);

    const auto corpus = run_cli({"corpus", out.string(), "--engine", "wgl"});
    CHECK_MESSAGE(corpus.status == 0, corpus.out, corpus.err);
    CHECK(corpus.out.find("matches 3") != std::string::npos);
  }

  TEST_CASE("generate: each file's generated line reprints it byte for byte") {
    TempDir dir;
    const auto run = run_cli({"generate", "crash-storm", "--ops", "50", "--crashed-writes", "3", "--clients", "3",
                              "--seed", "18446744073709551614", "--count", "2", "--out-dir", dir.path().string()});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const std::vector<fs::path> files = edn_files(dir.path());
    REQUIRE(files.size() == 2);
    for (const auto& file : files) check_reprints(file);
  }

  TEST_CASE("generate: the committed crash-storm sample is reproducible and as expected") {
    const fs::path sample = fs::path(ARIADNE_SOURCE_DIR) / "corpus" / "generated" / "crash-storm";
    const std::vector<fs::path> files = edn_files(sample);
    CHECK(files.size() >= 4);
    for (const auto& file : files) check_reprints(file);
    const auto corpus = run_cli({"corpus", sample.string()});
    CHECK_MESSAGE(corpus.status == 0, corpus.out, corpus.err);
  }

  TEST_CASE("generate: bad usage exits 64 and names the problem") {
    TempDir dir;
    struct BadUsage {
      std::vector<std::string> args;
      std::string message;
    };
    const std::string file = (dir.path() / "x.edn").string();
    const std::vector<BadUsage> cases = {
        {{"generate"}, "generate needs a family"},
        {{"generate", "no-such-family"}, "no-such-family"},
        {{"generate", "--ops", "5"}, "--ops"},
        {{"generate", "crash-storm", "--ops", "10", "--crashed-writes", "11"}, "cannot crash 11 writes in 10"},
        {{"generate", "crash-storm", "--ops", "0"}, "--ops"},
        {{"generate", "crash-storm", "--clients", "0"}, "--clients"},
        {{"generate", "crash-storm", "--ops", "ten"}, "--ops"},
        {{"generate", "crash-storm", "--seed", "-1"}, "whole number"},
        {{"generate", "crash-storm", "--crashed-writes", "-1"}, "whole number"},
        {{"generate", "crash-storm", "--count", "2"}, "--out-dir"},
        {{"generate", "crash-storm", "-o", file, "--out-dir", dir.path().string()}, "cannot be combined"},
        {{"generate", "crash-storm", "--seed", "18446744073709551615", "--count", "2", "--out-dir",
          dir.path().string()},
         "largest seed"},
        {{"generate", "crash-storm", "--ops", "10", "--crashed-writes", "1", "-o",
          (dir.path() / "missing" / "x.edn").string()},
         "cannot write"},
        {{"generate", "atomic"}, "--model"},
        {{"generate", "atomic", "--model", "no-such-model"}, "unknown model 'no-such-model'"},
        {{"generate", "atomic", "--model", "register", "--values", "0"}, "--values must be 'unique' or a number"},
        {{"generate", "atomic", "--model", "register", "--values", "few"}, "got 'few'"},
        {{"generate", "atomic", "--model", "mutex", "--values", "3"}, "carry no values"},
        {{"generate", "atomic", "--model", "register", "--crash-rate", "2"}, "--crash-rate is a probability"},
        {{"generate", "atomic", "--model", "register", "--crash-rate", "often"}, "--crash-rate"},
        {{"generate", "atomic", "--model", "register", "--processes", "0"}, "--processes"},
        {{"generate", "atomic", "--model", "register", "--ops", "-3"}, "whole number"},
        {{"generate", "atomic", "--model", "fifo-queue", "--ops", "3", "--violation"},
         "a fifo-queue violation needs at least 4 operations"},
        {{"generate", "atomic", "--model", "kv", "--count", "2"}, "--out-dir"},
        {{"generate", "atomic", "--model", "register", "--empty-observations"},
         "--empty-observations means nothing to register"},
        {{"generate", "atomic", "--model", "priority-queue", "--empty-observations"}, "always records :empty"},
    };
    for (const auto& bad : cases) {
      std::string command;
      for (const auto& arg : bad.args) command += " " + arg;
      CAPTURE(command);
      const auto run = run_cli(bad.args);
      CHECK(run.status == 64);
      CHECK(run.out.empty());
      CHECK_MESSAGE(run.err.find(bad.message) != std::string::npos, run.err);
    }
  }

  TEST_CASE("generate atomic: every model's file, on stdout or with -o, is read by check with its verdict") {
    TempDir dir;
    const std::vector<std::string> specs = {"register(0)", "cas-register(0)", "etcd",       "multi-register", "mutex",
                                            "set",         "unordered-queue", "fifo-queue", "stack",          "kv"};
    for (const std::string& spec : specs) {
      for (const bool violation : {false, true}) {
        CAPTURE(spec);
        CAPTURE(violation);
        std::vector<std::string> args{"generate", "atomic", "--model", spec, "--ops", "40", "--seed", "3"};
        if (violation) args.push_back("--violation");
        const auto printed = run_cli(args);
        REQUIRE_MESSAGE(printed.status == 0, printed.err);
        CHECK(printed.out.find("; expected: " + std::string(violation ? "not-linearizable" : "linearizable") + "\n") !=
              std::string::npos);
        const std::string file = (dir.path() / "history.edn").string();
        args.insert(args.end(), {"-o", file});
        const auto written = run_cli(args);
        REQUIRE_MESSAGE(written.status == 0, written.err);
        CHECK(written.out.empty());
        CHECK(read_text(file) == printed.out);
        // The bare spec, as a user would type it: the file must not need the canonical one.
        const auto checked = run_cli({"check", file, "--model", spec, "--engine", "wgl", "--no-core"});
        CHECK_MESSAGE(checked.status == (violation ? 1 : 0), checked.out, checked.err);
      }
    }
  }

  TEST_CASE("generate atomic: --count and --out-dir write a corpus that corpus accepts") {
    TempDir dir;
    const fs::path out = dir.path() / "stacks";
    const auto run = run_cli({"generate", "atomic", "--model", "stack", "--ops", "30", "--violation", "--seed", "5",
                              "--count", "3", "--out-dir", out.string()});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const std::vector<fs::path> files = edn_files(out);
    REQUIRE(files.size() == 3);
    CHECK(files[0].filename() == "atomic-stack-30-5-violation.edn");
    CHECK(files[2].filename() == "atomic-stack-30-7-violation.edn");
    for (const auto& file : files) CHECK(run.out.find(file.string() + "\n") != std::string::npos);
    const auto corpus = run_cli({"corpus", out.string(), "--engine", "wgl"});
    CHECK_MESSAGE(corpus.status == 0, corpus.out, corpus.err);
    CHECK(corpus.out.find("matches 3") != std::string::npos);
  }

  TEST_CASE("generate atomic: the generated line, canonical spec quoted for the shell, reprints byte for byte") {
    TempDir dir;
    for (const std::string spec : {"multi-register({:x 0, :y 0})", "kv({\"k\" \"it's\"})", "register"}) {
      CAPTURE(spec);
      const auto run = run_cli({"generate", "atomic", "--model", spec, "--ops", "25", "--values", "3", "--crash-rate",
                                "0.25", "--violation", "--count", "2", "--out-dir", dir.path().string()});
      REQUIRE_MESSAGE(run.status == 0, run.err);
    }
    const std::vector<fs::path> files = edn_files(dir.path());
    REQUIRE(files.size() == 6);
    for (const auto& file : files) check_reprints(file);
    const std::string text = read_text(dir.path() / "atomic-multi-register-25-1-violation.edn");
    CHECK(text.rfind("; generated: ariadne generate atomic --model 'multi-register({:x 0, :y 0})' --ops 25 "
                     "--processes 4 --values 3 --crash-rate 0.25 --violation --seed 1\n",
                     0) == 0);
    CHECK(read_text(dir.path() / "atomic-register-25-2-violation.edn").find("; model: register(nil)\n") !=
          std::string::npos);
  }

  TEST_CASE("generate atomic: --empty-observations writes :empty removals, is in the generated line and the name") {
    TempDir dir;
    for (const std::string model : {"fifo-queue", "stack", "unordered-queue", "independent(fifo-queue)"}) {
      CAPTURE(model);
      const auto run = run_cli({"generate", "atomic", "--model", model, "--ops", "60", "--empty-observations",
                                "--violation", "--count", "3", "--out-dir", dir.path().string()});
      REQUIRE_MESSAGE(run.status == 0, run.err);
    }
    const std::vector<fs::path> files = edn_files(dir.path());
    REQUIRE(files.size() == 12);
    for (const auto& file : files) {
      CAPTURE(file);
      check_reprints(file);
      CHECK(file.filename().string().find("-empty-violation.edn") != std::string::npos);
      CHECK(read_text(file).find("--empty-observations --violation") != std::string::npos);
    }
    // Every file is refuted, and the queues' removals of nothing are observations.
    const std::string text = read_text(dir.path() / "atomic-fifo-queue-60-1-empty-violation.edn");
    CHECK(text.find(":value :empty}") != std::string::npos);
    const auto corpus = run_cli({"corpus", dir.path().string()});
    CHECK_MESSAGE(corpus.status == 0, corpus.out, corpus.err);
    CHECK(corpus.out.find("matches 12") != std::string::npos);
  }

  TEST_CASE("generate atomic: the committed families, one per model, are reproducible and as expected") {
    for (const std::string family : {"register", "cas-register", "etcd", "multi-register", "mutex", "set",
                                     "unordered-queue", "fifo-queue", "stack", "kv"}) {
      CAPTURE(family);
      const fs::path sample = fs::path(ARIADNE_SOURCE_DIR) / "corpus" / "generated" / family;
      const std::vector<fs::path> files = edn_files(sample);
      CHECK(files.size() >= 4);
      CHECK(fs::exists(sample / "README.md"));
      bool linearizable = false;
      bool not_linearizable = false;
      for (const auto& file : files) {
        check_reprints(file);
        const std::string text = read_text(file);
        linearizable = linearizable || text.find("; expected: linearizable\n") != std::string::npos;
        not_linearizable = not_linearizable || text.find("; expected: not-linearizable\n") != std::string::npos;
      }
      CHECK(linearizable);
      CHECK(not_linearizable);
      const auto corpus = run_cli({"corpus", sample.string()});
      CHECK_MESSAGE(corpus.status == 0, corpus.out, corpus.err);
    }
  }

  TEST_CASE("generate: help teaches what a crash storm is") {
    const auto run = run_cli({"generate", "crash-storm", "--help"});
    CHECK(run.status == 0);
    CHECK(run.out.find("crashed write") != std::string::npos);
    CHECK(run.out.find("--stale-read") != std::string::npos);
    CHECK(run.out.find("linearizable by construction") != std::string::npos);
    const auto group = run_cli({"generate", "--help"});
    CHECK(group.status == 0);
    CHECK(group.out.find("crash-storm") != std::string::npos);
    CHECK(group.out.find("ariadne generate atomic --model") != std::string::npos);
  }

  TEST_CASE("generate atomic: help teaches the models, values, crashes and violations") {
    const auto run = run_cli({"generate", "atomic", "--help"});
    CHECK(run.status == 0);
    for (const std::string word :
         {"--model", "--values", "unique|K", "--crash-rate", "--violation", "linearizable by construction",
          "fifo-queue", "stale", "--out-dir", "--empty-observations", "max-priority-queue"}) {
      CAPTURE(word);
      CHECK(run.out.find(word) != std::string::npos);
    }
  }
}

}  // namespace ariadne::cli_test
