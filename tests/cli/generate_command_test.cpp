// `ariadne generate` end to end: a file on stdout and the same file with -o, read by
// `ariadne check` with the verdict its header promises; a --count batch that
// `ariadne corpus` accepts as a corpus; each file's `; generated:` line reprinting
// it byte for byte (the committed sample included); and usage errors exiting 64.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

namespace ariadne::cli_test {

namespace {

// The arguments of a file's "; generated: ariadne ..." line, without "ariadne".
std::vector<std::string> generated_arguments(const std::string& file_text) {
  const std::string prefix = "; generated: ariadne ";
  REQUIRE(file_text.rfind(prefix, 0) == 0);
  const std::string line = file_text.substr(prefix.size(), file_text.find('\n') - prefix.size());
  std::istringstream words(line);
  std::vector<std::string> arguments;
  for (std::string word; words >> word;) arguments.push_back(word);
  return arguments;
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
    std::vector<std::string> args{"generate", "crash-storm", "--ops", "80", "--crashed-writes", "5",
                                  "--clients", "4", "--seed", "11"};
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
      {{"generate", "crash-storm", "--ops", "10", "--crashed-writes", "1", "-o", (dir.path() / "missing" / "x.edn").string()},
       "cannot write"},
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

TEST_CASE("generate: help teaches what a crash storm is") {
  const auto run = run_cli({"generate", "crash-storm", "--help"});
  CHECK(run.status == 0);
  CHECK(run.out.find("crashed write") != std::string::npos);
  CHECK(run.out.find("--stale-read") != std::string::npos);
  CHECK(run.out.find("linearizable by construction") != std::string::npos);
  const auto group = run_cli({"generate", "--help"});
  CHECK(group.status == 0);
  CHECK(group.out.find("crash-storm") != std::string::npos);
}

}

}  // namespace ariadne::cli_test
