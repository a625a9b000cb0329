// Bytes that are not UTF-8 in a history's values (EDN strings may hold any) reach
// every answer `check` writes as U+FFFD, so each stays valid UTF-8: --edn, --json,
// the human report and --html (issue 41; docs/formats.md). The history is made here:
// a write of "a\xffb" and a read of "a\xfeb", refuted, so both values are in the core.
#include "base/text_encoding.hpp"
#include "cli_runner.hpp"

#include <doctest/doctest.h>

namespace ariadne::cli_test {

namespace {

const std::string kHistory =
    "[{:process 0, :type :invoke, :f :write, :value \"a\xff"
    "b\"}\n"
    " {:process 0, :type :ok, :f :write, :value \"a\xff"
    "b\"}\n"
    " {:process 1, :type :invoke, :f :read, :value nil}\n"
    " {:process 1, :type :ok, :f :read, :value \"a\xfe"
    "b\"}]\n";

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("check: values that are not UTF-8 are written as U+FFFD in --edn, --json, text and --html") {
    TempDir dir;
    // The file's name is not UTF-8 either: it is the report's title.
    const std::string file = dir.write("bytes-\xfd.edn", kHistory);
    const std::string html = (dir.path() / "r.html").string();
    const std::vector<std::vector<std::string>> answers = {{"--edn"}, {"--json"}, {"--explain"}, {"--html", html}};
    for (const auto& option : answers) {
      CAPTURE(option[0]);
      std::vector<std::string> args = {"check", file, "--model", "register"};
      args.insert(args.end(), option.begin(), option.end());
      const RunResult run = run_cli(args);
      REQUIRE_MESSAGE(run.status == 1, run.err);
      const std::size_t invalid = first_invalid_utf8(run.out);
      CHECK_MESSAGE(invalid == run.out.size(), run.out.substr(invalid));
      if (option[0] == "--json") {
        CHECK(run.out.find("a\\ufffdb") != std::string::npos);
      } else {
        CHECK_MESSAGE(run.out.find("a\uFFFDb") != std::string::npos, run.out);
      }
    }
    const std::string page = read_text(html);
    CHECK(first_invalid_utf8(page) == page.size());
    CHECK(page.find("bytes-\uFFFD.edn") != std::string::npos);
  }
}  // TEST_SUITE

}  // namespace ariadne::cli_test
