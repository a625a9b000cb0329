// `ariadne convert` end to end: one file to stdout or -o, a whole corpus with its
// expected.tsv that `ariadne corpus` then checks, and the errors.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

namespace ariadne::cli_test {

namespace {

const std::string kExample3 = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic/lecture-example-3.edn";

}  // namespace

TEST_CASE("convert: a history to json on stdout and to a jepsen log with -o, same verdict") {
  TempDir dir;
  const auto json = run_cli({"convert", kExample3, "--to", "json"});
  REQUIRE(json.status == 0);
  CHECK(json.out.rfind("{\"events\": [", 0) == 0);
  const std::string log = (dir.path() / "h.log").string();
  REQUIRE(run_cli({"convert", kExample3, "--to", "jepsen-log", "-o", log}).status == 0);
  // Each line carries Jepsen's logger prefix, as Porcupine's test parser requires.
  CHECK(read_text(log).rfind("INFO  jepsen.util - 0\t:invoke\t:write\t1\n", 0) == 0);
  CHECK(run_cli({"check", log, "--model", "register", "--no-core"}).status == 1);
}

TEST_CASE("convert --corpus writes the files and an expected.tsv that corpus checks") {
  TempDir dir;
  const std::string tsv = dir.write("in/expected.tsv", "a.edn\tnot-linearizable\tregister\n");
  std::filesystem::copy_file(kExample3, dir.path() / "in" / "a.edn");
  const std::string out = (dir.path() / "out").string();
  const auto run = run_cli({"convert", "--corpus", tsv, "--to", "json", "--out-dir", out});
  REQUIRE(run.status == 0);
  CHECK(read_text(dir.path() / "out" / "expected.tsv") == "a.json\tnot-linearizable\tregister\n");
  CHECK(run_cli({"corpus", out + "/expected.tsv"}).status == 0);
}

TEST_CASE("convert --corpus keeps rows whose files share a name apart, as Jepsen stores' history.edn do") {
  // Both rows used to be written to out/history.json, the second over the first, and
  // expected.tsv then listed one file twice with two verdicts.
  TempDir dir;
  const std::string tsv = dir.write("in/expected.tsv",
                                    "../stores/a/history.edn\tnot-linearizable\tregister\n"
                                    "../stores/b/history.edn\tlinearizable\tregister\n");
  std::filesystem::create_directories(dir.path() / "stores" / "a");
  std::filesystem::copy_file(kExample3, dir.path() / "stores" / "a" / "history.edn");
  dir.write("stores/b/history.edn",
            "{:process 0 :type :invoke :f :write :value 1}\n{:process 0 :type :ok :f :write :value 1}\n");
  const std::string out = (dir.path() / "out").string();
  REQUIRE(run_cli({"convert", "--corpus", tsv, "--to", "json", "--out-dir", out}).status == 0);
  const std::string listed = read_text(dir.path() / "out" / "expected.tsv");
  CHECK(listed.find("_up_/stores/a/history.json\tnot-linearizable") != std::string::npos);
  CHECK(listed.find("_up_/stores/b/history.json\tlinearizable") != std::string::npos);
  CHECK(run_cli({"corpus", out + "/expected.tsv"}).status == 0);
}

TEST_CASE("convert --corpus to json keeps an independent(MODEL) row's spec, which corpus then reads") {
  TempDir dir;
  const std::string tsv = dir.write("in/expected.tsv", "a.edn\tlinearizable\tindependent(register(0))\n");
  dir.write("in/a.edn",
            "{:process 0 :type :invoke :f :write :value [1 1]}\n{:process 0 :type :ok :f :write :value [1 1]}\n"
            "{:process 1 :type :invoke :f :read :value [1 nil]}\n{:process 1 :type :ok :f :read :value [1 1]}\n");
  const std::string out = (dir.path() / "out").string();
  REQUIRE(run_cli({"convert", "--corpus", tsv, "--to", "json", "--out-dir", out}).status == 0);
  CHECK(read_text(dir.path() / "out" / "expected.tsv") == "a.json\tlinearizable\tindependent(register(0))\n");
  CHECK(run_cli({"corpus", out + "/expected.tsv"}).status == 0);
}

TEST_CASE("convert: what a format cannot hold, and bad options, are errors") {
  TempDir dir;
  const std::string keyed = dir.write("kv.txt", "{:process 0, :type :invoke, :f :get, :key \"0\", :value nil}\n");
  const auto refused = run_cli({"convert", keyed, "--to", "jepsen-log"});
  CHECK(refused.status == 65);
  CHECK(refused.err.find("has no place for :key") != std::string::npos);
  CHECK(run_cli({"convert", kExample3, "--to", "yaml"}).status == 64);
  CHECK(run_cli({"convert", "--to", "json"}).status == 64);
  CHECK(run_cli({"convert", (dir.path() / "missing.edn").string(), "--to", "json"}).status == 65);
}

}  // namespace ariadne::cli_test
