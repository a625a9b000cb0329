// The research checkers' collection histories through the command line: `check`
// takes the model from a Violin, LiMo or fastlin header when --model is not given,
// --model wins with a warning when they differ, bad files exit 65 with their place,
// and `convert` writes both formats.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

namespace ariadne::cli_test {

namespace {

// A FIFO violation: 1 was added before 2, and 2 left first.
const std::string kViolinViolation =
    "# @object queue\n"
    "[1] call add(1)\n"
    "[1] return\n"
    "[2] call add(2)\n"
    "[2] return\n"
    "[3] call remove\n"
    "[3] return 2\n";

// Linearizable only because the two pushes overlap.
const std::string kFastlinStack =
    "# stack\n"
    "push 1 1 3\n"
    "push 2 2 4\n"
    "pop 1 5 6\n";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("check: a Violin log and a fastlin history need no --model") {
  TempDir dir;
  const auto violation = run_cli({"check", dir.write("q.log", kViolinViolation), "--json", "--no-core"});
  CHECK(violation.status == 1);
  CHECK(contains(violation.out, "\"model\": \"fifo-queue("));
  const auto linearizable = run_cli({"check", dir.write("s.log", kFastlinStack)});
  CHECK(linearizable.status == 0);
  // fastlin's equal times: the first push now ends as the second starts, so it is
  // below it, and popping 1 first is a violation.
  const auto tied = run_cli({"check", dir.write("t.log", "# stack\npush 1 1 2\npush 2 2 4\npop 1 5 6\n"), "--no-core"});
  CHECK(tied.status == 1);
}

TEST_CASE("check: --model wins over the header, with a warning when they differ") {
  TempDir dir;
  const std::string file = dir.write("q.log", kViolinViolation);
  // An unordered queue allows 2 before 1.
  const auto unordered = run_cli({"check", file, "--model", "unordered-queue", "--json"});
  CHECK(unordered.status == 0);
  CHECK(contains(unordered.err, "the file's header names the model fifo-queue; checked with --model unordered-queue"));
  CHECK(contains(unordered.out, "\"warnings\""));
  const auto same = run_cli({"check", file, "--model", "fifo-queue", "--no-core"});
  CHECK(same.status == 1);
  CHECK_FALSE(contains(same.err, "header names"));
}

TEST_CASE("check: without --model, a file that names no model is a usage error, a bad header an input error") {
  TempDir dir;
  const auto edn = run_cli({"check", dir.write("h.edn", "{:process 0, :type :invoke, :f :read, :value nil}\n")});
  CHECK(edn.status == 64);
  CHECK(contains(edn.err, "--model is required"));
  const auto unknown = run_cli({"check", dir.write("u.log", "# @object deque\n[1] call add(1)\n")});
  CHECK(unknown.status == 65);
  CHECK(contains(unknown.err, "u.log:1:1: unknown object 'deque'"));
  const auto malformed = run_cli({"check", dir.write("m.log", "# @object stack\n[1] call push(1\n")});
  CHECK(malformed.status == 65);
  CHECK(contains(malformed.err, "m.log:2:16: expected ')'"));
  const auto set = run_cli({"check", dir.write("set.log", "# set\ninsert 1 1 2\n"), "--model", "set"});
  CHECK(set.status == 65);
  CHECK(contains(set.err, "does not fit ariadne's set model"));
}

TEST_CASE("convert: a Violin log to fastlin and back keeps the verdict and the model") {
  TempDir dir;
  const std::string violin = dir.write("q.log", kViolinViolation);
  const std::string fastlin = (dir.path() / "q.fastlin").string();
  REQUIRE(run_cli({"convert", violin, "--to", "fastlin", "-o", fastlin}).status == 0);
  CHECK(read_text(fastlin).rfind("# queue\nenq 1 1 2\n", 0) == 0);
  CHECK(run_cli({"check", fastlin, "--no-core"}).status == 1);
  const auto back = run_cli({"convert", fastlin, "--to", "violin-log"});
  REQUIRE(back.status == 0);
  CHECK(back.out.rfind("# @object queue\n[0] call add(1)\n[0] return\n", 0) == 0);
  const auto failed = run_cli({"convert",
                               dir.write("f.edn",
                                         "{:process 0, :type :invoke, :f :enqueue, :value 1}\n"
                                         "{:process 0, :type :fail, :f :enqueue, :value 1}\n"),
                               "--to", "violin-log"});
  CHECK(failed.status == 65);
  CHECK(contains(failed.err, "violin-log has no failed operations"));
}

}  // namespace ariadne::cli_test
