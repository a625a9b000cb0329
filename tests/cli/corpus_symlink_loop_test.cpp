// A symbolic link that loops, in a corpus folder or a Jepsen store folder, is bad
// input naming the link (exit 65), not an internal error (exit 70; issue 41): a link
// to itself cannot be opened, and a link to a folder above it would be scanned
// forever.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

namespace ariadne::cli_test {

namespace {

constexpr const char* kRow =
    "; expected: linearizable\n; model: register(0)\n"
    "[{:process 0, :type :invoke, :f :write, :value 1}\n"
    " {:process 0, :type :ok, :f :write, :value 1}]\n";

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("corpus: a symbolic link loop in the folder is bad input naming the link") {
    struct Loop {
      const char* name;
      const char* target;
    };
    for (const Loop& loop : {Loop{"self.edn", "self.edn"}, Loop{"family/up", ".."}, Loop{"family/ring", "ring"},
                             Loop{"family/expected.tsv", "expected.tsv"}}) {
      CAPTURE(loop.name);
      TempDir dir;
      dir.write("a.edn", kRow);
      dir.write("family/b.edn", kRow);
      fs::create_symlink(loop.target, dir.path() / loop.name);
      const RunResult run = run_cli({"corpus", dir.path().string()});
      CHECK_MESSAGE(run.status == 65, run.out, run.err);
      CHECK_MESSAGE(run.err.find((dir.path() / loop.name).string()) != std::string::npos, run.err);
      CHECK_MESSAGE(run.err.find("symbolic link loop") != std::string::npos, run.err);
    }
  }

  TEST_CASE("check: a store folder whose history is a symbolic link loop is bad input") {
    TempDir dir;
    fs::create_directories(dir.path() / "store");
    fs::create_symlink("history.edn", dir.path() / "store" / "history.edn");
    const RunResult run = run_cli({"check", (dir.path() / "store").string(), "--model", "register"});
    CHECK_MESSAGE(run.status == 65, run.err);
    CHECK(run.err.find("store") != std::string::npos);
    // The history file itself a loop: named as one.
    const std::string file = (dir.path() / "store" / "history.edn").string();
    const RunResult direct = run_cli({"check", file, "--model", "register"});
    CHECK_MESSAGE(direct.status == 65, direct.err);
    CHECK_MESSAGE(direct.err.find(file + ": a symbolic link loop") != std::string::npos, direct.err);
  }
}  // TEST_SUITE

}  // namespace ariadne::cli_test
