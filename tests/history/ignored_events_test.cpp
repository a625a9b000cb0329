// Events of processes that are no clients (only integers are) are left out of the
// history, and those that look like a client's (:invoke, :ok or :fail) are counted
// per process and named in a warning, so a client op is never dropped silently
// (corpus/regressions/nemesis-issued-client-ops.edn). A nemesis' :info notes are
// what Jepsen writes for every fault, and are not counted.
#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <filesystem>

using namespace ariadne;

TEST_SUITE("history") {
  TEST_CASE("client-like events of a non-client process are counted per process and named in a warning") {
    const std::string file =
        (std::filesystem::path(ARIADNE_SOURCE_DIR) / "corpus/regressions/nemesis-issued-client-ops.edn").string();
    auto model = make_model_from_spec("register(0)");
    for (const History& history : {read_history(file, *model), build_history(read_events(file), *model)}) {
      CHECK(history.ops.size() == 2);
      REQUIRE(history.ignored.size() == 1);
      CHECK(history.ignored[0].process == Value::keyword("nemesis"));
      CHECK(history.ignored[0].events == 2);
      CHECK(history.ignored[0].first.line == 14);
      REQUIRE(history.warnings.size() == 1);
      CHECK(history.warnings[0].pos.line == 14);
      CHECK(history.warnings[0].message.find("2 events of process :nemesis") != std::string::npos);
      CHECK(check(history, *model, CheckOptions{.jobs = 1}).verdict == Verdict::not_linearizable);
    }
  }

  TEST_CASE("a nemesis' :info notes are neither counted nor warned about") {
    auto model = make_model_from_spec("register(0)");
    const History history = parse_history(
        "{:process 0, :type :invoke, :f :write, :value 1}\n"
        "{:process :nemesis, :type :info, :f :start, :value nil}\n"
        "{:process 0, :type :ok, :f :write, :value 1}\n"
        "{:process :nemesis, :type :info, :f :stop, :value nil}\n",
        "notes", *model);
    CHECK(history.ignored.empty());
    CHECK(history.warnings.empty());
  }

}  // TEST_SUITE
