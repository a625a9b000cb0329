// `corpus --certify DIR` names each certificate after its row's whole path, so that
// rows from different folders whose files share a name (two Jepsen stores'
// history.edn, listed from outside the corpus folder as ../a/history.edn) keep a
// certificate each (issue 41: one overwrote the other, and certificates.tsv named the
// one file for both).
#include "batch/corpus_rows.hpp"
#include "cli_runner.hpp"
#include "mini_json.hpp"
#include "register_fixtures.hpp"

#include <doctest/doctest.h>

#include <set>

namespace ariadne::cli_test {

TEST_SUITE("cli") {
  TEST_CASE("unique_paths_below: a row's whole path, kept inside DIR, every name different") {
    const fs::path dir = "certs";
    const auto paths =
        batch::unique_paths_below(dir, {"../store-a/history.edn", "../store-b/history.edn", "jepsen/etcd.log",
                                        "/abs/x.edn", "_up_/store-a/history.edn", "JEPSEN/etcd.log", "./y.edn"});
    REQUIRE(paths.size() == 7);
    CHECK(paths[0] == dir / "_up_" / "store-a" / "history.edn");
    CHECK(paths[1] == dir / "_up_" / "store-b" / "history.edn");
    CHECK(paths[2] == dir / "jepsen" / "etcd.log");
    CHECK(paths[3] == dir / "_root_" / "abs" / "x.edn");
    CHECK(paths[4] == fs::path((dir / "_up_" / "store-a" / "history.edn").string() + "~2"));
    CHECK(paths[5] == fs::path((dir / "JEPSEN" / "etcd.log").string() + "~2"));  // one file where case is ignored
    CHECK(paths[6] == dir / "y.edn");
    for (const fs::path& path : paths) {
      CHECK(path.lexically_normal().string().starts_with("certs"));
      for (const fs::path& part : path) CHECK(part != "..");
    }
  }

  TEST_CASE("corpus --certify: two rows' history.edn from different folders keep a certificate each") {
    TempDir dir;
    dir.write("stores/a/history.edn", kGood);
    dir.write("stores/b/history.edn", kBad);
    const std::string tsv = dir.write("corpus/expected.tsv",
                                      "../stores/a/history.edn\tlinearizable\tregister(0)\n"
                                      "../stores/b/history.edn\tnot-linearizable\tregister(0)\n");
    const fs::path certs = dir.path() / "certs";
    const RunResult run = run_cli({"corpus", tsv, "--certify", certs.string(), "--json"});
    REQUIRE_MESSAGE(run.status == 0, run.out, run.err);
    const Json report = parse_json(run.out);
    std::set<std::string> answers;
    for (const Json& row : report["rows"].array) {
      CHECK(row["certificate"]["certified"].boolean);
      answers.insert(row["certificate"]["answer"].string);
    }
    REQUIRE(answers.size() == 2);
    for (const std::string& answer : answers) {
      CHECK_FALSE(answer.starts_with(".."));
      CHECK(fs::exists(certs / answer));
    }
    // Each answer file holds its own row's verdict.
    const Json a = parse_json(read_text(certs / *answers.begin()));
    const Json b = parse_json(read_text(certs / *answers.rbegin()));
    CHECK(a["verdict"].string != b["verdict"].string);
    // certificates.tsv names two different files.
    const std::string index = read_text(certs / "certificates.tsv");
    for (const std::string& answer : answers)
      CHECK_MESSAGE(index.find("\t" + answer + "\t") != std::string::npos, index);
  }
}  // TEST_SUITE

}  // namespace ariadne::cli_test
