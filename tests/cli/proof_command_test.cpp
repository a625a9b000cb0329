// `check --explain`, `--prefix` and `--proof`, `verify-proof` and `verify-witness`,
// end to end on the real binary.
#include "cli_runner.hpp"
#include "mini_json.hpp"

#include <doctest/doctest.h>

namespace ariadne::cli_test {

namespace {

const std::string kExample3 = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic/lecture-example-3.edn";
const std::string kExample1 = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic/lecture-example-1.edn";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("check --explain prints the facts and the dead ends; without it, a hint") {
  const auto plain = run_cli({"check", kExample3, "--model", "register"});
  CHECK(plain.status == 1);
  CHECK(contains(plain.out, "(a minimal core)"));
  CHECK(contains(plain.out, "Run with --explain"));
  CHECK_FALSE(contains(plain.out, "Real-time facts"));
  const auto explained = run_cli({"check", kExample3, "--model", "register", "--explain"});
  CHECK(explained.status == 1);
  CHECK(contains(explained.out, "Real-time facts:"));
  CHECK(contains(explained.out, "Why no order works"));
}

TEST_CASE("check --prefix prints the longest linearizable prefix") {
  const auto run = run_cli({"check", kExample3, "--model", "register", "--prefix"});
  CHECK(run.status == 1);
  CHECK(contains(run.out, "Longest linearizable prefix: every operation invoked before event 7"));
  const auto json = parse_json(run_cli({"check", kExample3, "--model", "register", "--prefix", "--json"}).out);
  CHECK(json["prefix_linearization"].integers() == std::vector<long long>{0, 3, 1});
}

TEST_CASE("check --json adds the core's minimality, its time and its real-time facts") {
  const auto run = run_cli({"check", kExample3, "--model", "register", "--json"});
  const Json json = parse_json(run.out);
  CHECK(json["core"].integers() == std::vector<long long>{0, 1, 3, 5});
  CHECK(json["core_minimal"].type == Json::Type::boolean);
  CHECK(json["core_ms"].type == Json::Type::number);
  CHECK(json["core_real_time"].type == Json::Type::array);
  CHECK(contains(json["explanation"].string, "Real-time facts"));
}

TEST_CASE("check --proof writes a proof that verify-proof accepts, and rejects once tampered") {
  TempDir dir;
  const std::string proof = (dir.path() / "proof").string();
  const auto run = run_cli({"check", kExample3, "--model", "register", "--proof", proof, "--json"});
  CHECK(run.status == 1);
  const Json json = parse_json(run.out);
  CHECK(json["proof"]["dir"].string == proof);
  const auto verified = run_cli({"verify-proof", proof});
  CHECK(verified.status == 0);
  CHECK(contains(verified.out, "checks"));

  std::ofstream(fs::path(proof) / "proof.json", std::ios::app) << "not json";
  const auto rejected = run_cli({"verify-proof", proof});
  CHECK(rejected.status == 1);
  CHECK(contains(rejected.out, "does NOT check"));

  const auto missing = run_cli({"verify-proof", (dir.path() / "nowhere").string()});
  CHECK(missing.status == 64);
}

TEST_CASE("verify-witness accepts check's own witness and rejects a wrong one") {
  TempDir dir;
  const auto check_run = run_cli({"check", kExample1, "--model", "register", "--json"});
  REQUIRE(check_run.status == 0);
  const std::string witness = dir.write("w.json", check_run.out);
  const auto ok = run_cli({"verify-witness", kExample1, "--model", "register", "--witness", witness});
  CHECK(ok.status == 0);
  CHECK(contains(ok.out, "WITNESS OK"));

  const auto order = parse_json(check_run.out)["linearization"].integers();
  REQUIRE(order.size() >= 2);
  std::string reversed = "[";
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    reversed += (it == order.rbegin() ? "" : ",") + std::to_string(*it);
  const std::string bad = dir.write("bad.json", reversed + "]");
  const auto wrong = run_cli({"verify-witness", kExample1, "--model", "register", "--witness", bad});
  CHECK(wrong.status == 1);
  CHECK(contains(wrong.out, "NOT A WITNESS"));

  const std::string malformed = dir.write("m.json", "[1, \"two\"]");
  CHECK(run_cli({"verify-witness", kExample1, "--model", "register", "--witness", malformed}).status == 65);
  const std::string broken = dir.write("b.json", "[1, 2");
  CHECK(run_cli({"verify-witness", kExample1, "--model", "register", "--witness", broken}).status == 65);
}

}  // namespace ariadne::cli_test

namespace ariadne::cli_test {

TEST_CASE("check --no-core reports the failing partition unshrunk") {
  const std::string local = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic/worked-example-abcd.edn";
  const Json shrunk = parse_json(run_cli({"check", local, "--model", "register", "--init", "0", "--json"}).out);
  const Json whole =
      parse_json(run_cli({"check", local, "--model", "register", "--init", "0", "--json", "--no-core"}).out);
  CHECK(whole["core"].integers().size() == 4);
  CHECK(whole["core_minimal"].boolean == false);
  CHECK(shrunk["core_minimal"].boolean == true);
  const auto text = run_cli({"check", local, "--model", "register", "--init", "0", "--no-core"});
  CHECK(contains(text.out, "the failing partition (--no-core)"));
}

}  // namespace ariadne::cli_test
