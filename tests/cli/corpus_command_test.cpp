// `ariadne corpus` end to end over corpora written on the fly: a TSV with a match and
// a deliberate mismatch, a row whose file does not parse, a malformed TSV, and a
// directory whose files carry their verdict in a comment header.
#include "cli_runner.hpp"
#include "register_fixtures.hpp"

#include <doctest/doctest.h>

namespace ariadne::cli_test {

namespace {

const Json& row_named(const Json& report, const std::string& file) {
  for (const auto& row : report["rows"].array) {
    if (row["file"].string == file) return row;
  }
  throw std::runtime_error("no row " + file);
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("corpus: every row matching exits 0") {
    TempDir dir;
    dir.write("h/good.edn", kGood);
    dir.write("h/bad.edn", kBad);
    const auto tsv = dir.write("expected.tsv",
                               "# comment lines and blank lines are skipped\n\n"
                               "h/good.edn\tlinearizable\tregister(0)\n"
                               "h/bad.edn\tnot-linearizable\tregister(0)\n");
    const auto run = run_cli({"corpus", tsv});
    CHECK_MESSAGE(run.status == 0, run.out, run.err);
    CHECK(run.out.find("h/good.edn") != std::string::npos);
    CHECK(run.out.find("matches 2") != std::string::npos);
    CHECK(run.err.empty());  // no progress bar when stderr is not a terminal
  }

  TEST_CASE("corpus: a deliberate mismatch exits 1 and is reported per row") {
    TempDir dir;
    dir.write("good.edn", kGood);
    dir.write("bad.edn", kBad);
    const auto tsv = dir.write("expected.tsv",
                               "good.edn\tlinearizable\tregister(0)\n"
                               "bad.edn\tlinearizable\tregister(0)\n");
    for (const char* jobs : {"1", "2"}) {
      CAPTURE(jobs);
      const auto text = run_cli({"corpus", tsv, "--jobs", jobs});
      CHECK(text.status == 1);
      CHECK(text.out.find("mismatch") != std::string::npos);

      const auto run = run_cli({"corpus", tsv, "--jobs", jobs, "--json"});
      REQUIRE(run.status == 1);
      const Json report = parse_json(run.out);
      REQUIRE(report["rows"].array.size() == 2);
      CHECK(report["rows"].array[0]["file"].string == "good.edn");  // corpus order, whatever finished first
      const Json& good = row_named(report, "good.edn");
      CHECK(good["ok"].boolean);
      CHECK(good["verdict"].string == "linearizable");
      CHECK(good["expected"].string == "linearizable");
      CHECK(good["model"].type == Json::Type::string);
      CHECK(good["engine"].type == Json::Type::string);
      CHECK(good["elapsed_ms"].type == Json::Type::number);
      CHECK_FALSE(good.has("error"));
      const Json& bad = row_named(report, "bad.edn");
      CHECK_FALSE(bad["ok"].boolean);
      CHECK(bad["verdict"].string == "not-linearizable");
      const Json& totals = report["totals"];
      CHECK(totals["rows"].number == 2);
      CHECK(totals["matches"].number == 1);
      CHECK(totals["mismatches"].number == 1);
      CHECK(totals["errors"].number == 0);
    }
  }

  TEST_CASE("corpus: a file that does not parse is an error row and not a crash") {
    TempDir dir;
    dir.write("good.edn", kGood);
    dir.write("broken.edn", "[{:process 0, :type :invoke\n");
    const auto tsv = dir.write("expected.tsv",
                               "good.edn\tlinearizable\tregister(0)\n"
                               "broken.edn\tlinearizable\tregister(0)\n"
                               "absent.edn\tlinearizable\tregister(0)\n"
                               "good.edn\tlinearizable\tno-such-model\n");
    const auto run = run_cli({"corpus", tsv, "--json"});
    REQUIRE(run.status == 1);
    const Json report = parse_json(run.out);
    CHECK(report["totals"]["errors"].number == 3);
    CHECK(report["totals"]["mismatches"].number == 3);
    const Json& broken = row_named(report, "broken.edn");
    CHECK_FALSE(broken["ok"].boolean);
    CHECK(broken["verdict"].type == Json::Type::null);
    CHECK(broken["error"].string.find("broken.edn:") != std::string::npos);
    CHECK(row_named(report, "absent.edn").has("error"));
  }

  TEST_CASE("corpus: a malformed TSV line exits 65 with its line and column") {
    TempDir dir;
    dir.write("good.edn", kGood);
    const auto tsv = dir.write("expected.tsv",
                               "good.edn\tlinearizable\tregister(0)\n"
                               "good.edn\tmaybe\tregister(0)\n");
    const auto run = run_cli({"corpus", tsv});
    CHECK(run.status == 65);
    CHECK_MESSAGE(run.err.find("expected.tsv:2:10: ") != std::string::npos, run.err);

    const auto missing = run_cli({"corpus", (dir.path() / "nothing.tsv").string()});
    CHECK(missing.status == 65);
  }

  TEST_CASE("corpus: a directory's rows are its .edn files with verdict headers") {
    TempDir dir;
    dir.write("classic/a-good.edn", std::string("; A write then a read of it.\n; expected: linearizable\n"
                                                "; model: register(0)\n") +
                                        kGood);
    dir.write("classic/b-bad.edn", std::string(";; expected: not-linearizable\n;; model: register(0)\n\n") + kBad);
    dir.write("classic/c-no-header.edn", kBad);  // not part of the corpus
    dir.write("classic/notes.txt", "; expected: linearizable\n; model: register(0)\n");
    const auto run = run_cli({"corpus", (dir.path() / "classic").string(), "--json"});
    CHECK_MESSAGE(run.status == 0, run.out, run.err);
    const Json report = parse_json(run.out);
    REQUIRE(report["rows"].array.size() == 2);
    CHECK(report["rows"].array[0]["file"].string == "a-good.edn");
    CHECK(report["rows"].array[1]["file"].string == "b-bad.edn");
    CHECK(report["rows"].array[1]["expected"].string == "not-linearizable");
    CHECK(report["totals"]["matches"].number == 2);
  }

  TEST_CASE("corpus: a header without a model is an error row") {
    TempDir dir;
    dir.write("classic/a.edn", std::string("; expected: linearizable\n") + kGood);
    const auto run = run_cli({"corpus", (dir.path() / "classic").string(), "--json"});
    CHECK(run.status == 1);
    CHECK(parse_json(run.out)["totals"]["errors"].number == 1);
  }

  TEST_CASE("corpus: a TSV row without a model, or with '-', takes the one the file's header names") {
    TempDir dir;
    // A LiMo stack log (Figure 11's shape: a pop finds the stack empty while 1 is
    // surely pushed) and a fastlin queue history, each naming its object.
    dir.write("limo.hist",
              "# @object atomic-stack\n[0] call push(1)\n[0] return\n[1] call pop\n[1] return empty\n"
              "[1] call pop\n[1] return 1\n");
    dir.write("fastlin.log", "# queue\nenq 1 1 2\nenq 2 3 4\ndeq 1 5 6\ndeq 2 7 8\n");
    dir.write("plain.edn", kGood);  // EDN names no model
    const auto tsv = dir.write("expected.tsv",
                               "limo.hist\tnot-linearizable\n"
                               "fastlin.log\tlinearizable\t-\n"
                               "plain.edn\tlinearizable\n"
                               "absent.log\tlinearizable\n");
    const auto run = run_cli({"corpus", tsv, "--json"});
    CHECK(run.status == 1);
    const Json report = parse_json(run.out);
    CHECK(row_named(report, "limo.hist")["ok"].boolean);
    CHECK(row_named(report, "limo.hist")["model"].string == "stack");
    CHECK(row_named(report, "fastlin.log")["ok"].boolean);
    CHECK(row_named(report, "fastlin.log")["model"].string == "fifo-queue");
    CHECK(row_named(report, "plain.edn")["error"].string.find("names none") != std::string::npos);
    CHECK(row_named(report, "absent.log").has("error"));
    CHECK(report["totals"]["errors"].number == 2);
  }

}  // TEST_SUITE

}  // namespace ariadne::cli_test
