// check --independent on histories `generate atomic --model independent(...)` writes:
// the JSON's "keys" (one entry per key) and "failing_key", a core of original op ids
// within the failing key, the per-key summary of the text report, EDN's :results and
// :failing-key, the same answer from a Jepsen store folder as from its file, and the
// errors around the option.
#include "cli_runner.hpp"
#include "mini_json.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <set>

using namespace ariadne::cli_test;

namespace {

fs::path generate(const TempDir& dir, const std::string& name, bool violation) {
  const fs::path file = dir.path() / name;
  std::vector<std::string> args = {"generate",    "atomic",     "--model", "independent(cas-register)",
                                   "--keys",      "12",         "--ops",   "400",
                                   "--processes", "6",          "--seed",  "4",
                                   "-o",          file.string()};
  if (violation) args.push_back("--violation");
  const RunResult run = run_cli(args);
  REQUIRE_MESSAGE(run.status == 0, run.err);
  return file;
}

// The key of every op, by op id: the op id is the position of its invocation among
// the file's events, one event per line after the header's comments.
std::map<long long, std::string> keys_by_op(const fs::path& file) {
  std::ifstream in(file);
  std::map<long long, std::string> keys;
  std::string line;
  long long event = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == ';') continue;
    if (line.find(":type :invoke") != std::string::npos) {
      const auto at = line.find(":value [");
      REQUIRE(at != std::string::npos);
      const auto start = at + 8;
      keys[event] = line.substr(start, line.find(' ', start) - start);
    }
    ++event;
  }
  return keys;
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("check --independent: one keys entry per key, the failing key, and its core in original op ids") {
    TempDir dir;
    const fs::path bad = generate(dir, "bad.edn", true);
    const std::map<long long, std::string> key_of = keys_by_op(bad);
    std::set<std::string> keys;
    for (const auto& [id, key] : key_of) keys.insert(key);

    const RunResult run = run_cli({"check", bad.string(), "--independent", "--model", "cas-register", "--json"});
    REQUIRE_MESSAGE(run.status == 1, run.err);
    const Json json = parse_json(run.out);
    CHECK(json["verdict"].string == "not-linearizable");
    CHECK(json["model"].string == "independent(cas-register(nil))");
    REQUIRE(json["keys"].array.size() == keys.size());
    std::set<std::string> answered;
    int refuted = 0;
    for (const Json& k : json["keys"].array) {
      answered.insert(k["key"].string);
      CHECK(k.has("operations"));
      CHECK(k.has("elapsed_ms"));
      CHECK(k.has("engine"));
      if (k["verdict"].string == "not-linearizable") {
        ++refuted;
        CHECK(k["key"].string == json["failing_key"].string);
      } else {
        CHECK(k["verdict"].string == "linearizable");
      }
    }
    CHECK(answered == keys);
    CHECK(refuted == 1);
    const std::vector<long long> core = json["core"].integers();
    REQUIRE(core.size() == 3);  // the planted stale read: two writes and a read
    CHECK(json["core_minimal"].boolean);
    for (const long long id : core) CHECK(key_of.at(id) == json["failing_key"].string);
    CHECK(key_of.at(static_cast<long long>(json["failing_op"].number)) == json["failing_key"].string);

    // The same history as the twin without --independent's shorthand: the model spec.
    const RunResult spec = run_cli({"check", bad.string(), "--model", "independent(cas-register)", "--json"});
    CHECK(parse_json(spec.out)["core"].integers() == core);

    // The text report: the per-key summary and the failing key.
    const RunResult text = run_cli({"check", bad.string(), "--independent", "--model", "cas-register"});
    CHECK(text.out.find("on " + std::to_string(keys.size()) + " keys") != std::string::npos);
    CHECK_MESSAGE(text.out.find("Keys: " + std::to_string(keys.size()) + " (" + std::to_string(keys.size() - 1) +
                                " linearizable, 1 not linearizable, 0 unknown)") != std::string::npos,
                  text.out);
    CHECK(text.out.find("failing key " + json["failing_key"].string) != std::string::npos);
    CHECK(text.out.find("the core below") != std::string::npos);

    // EDN: :results per key, :failures and :failing-key, as Jepsen's independent checker.
    const RunResult edn = run_cli({"check", bad.string(), "--independent", "--model", "cas-register", "--edn"});
    CHECK(edn.out.find(":results {") != std::string::npos);
    CHECK(edn.out.find(":failing-key " + json["failing_key"].string) != std::string::npos);
    CHECK(edn.out.find(":failures [" + json["failing_key"].string + "]") != std::string::npos);
  }

  TEST_CASE("check --independent: the all-good twin is linearizable on every key") {
    TempDir dir;
    const fs::path good = generate(dir, "good.edn", false);
    const RunResult run = run_cli({"check", good.string(), "--independent", "--model", "cas-register", "--json"});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const Json json = parse_json(run.out);
    CHECK(json["verdict"].string == "linearizable");
    CHECK(!json.has("failing_key"));
    for (const Json& k : json["keys"].array) CHECK(k["verdict"].string == "linearizable");
    CHECK(!json["linearization"].integers().empty());
  }

  TEST_CASE("check --independent: a store folder answers as its history file does") {
    TempDir dir;
    const fs::path bad = generate(dir, "bad.edn", true);
    const fs::path run_dir = dir.path() / "store/ratis/20261202T100000.000Z";
    fs::create_directories(run_dir);
    fs::copy_file(bad, run_dir / "history.edn");
    const auto answer = [](const fs::path& path) {
      const RunResult run = run_cli({"check", path.string(), "--independent", "--model", "cas-register", "--json"});
      const Json json = parse_json(run.out);
      std::string out = json["verdict"].string + " " + json["failing_key"].string;
      for (const long long id : json["core"].integers()) out += " " + std::to_string(id);
      for (const Json& k : json["keys"].array) out += " " + k["key"].string + "=" + k["verdict"].string;
      return out;
    };
    CHECK(answer(run_dir) == answer(bad));
  }

  TEST_CASE(
      "check --independent: values that are not tuples are bad input; a doubly independent model is a usage error") {
    TempDir dir;
    const fs::path plain = dir.path() / "plain.edn";
    std::ofstream(plain) << "{:process 0, :type :invoke, :f :write, :value 1}\n"
                            "{:process 0, :type :ok, :f :write, :value 1}\n";
    const RunResult bad = run_cli({"check", plain.string(), "--independent", "--model", "cas-register"});
    CHECK(bad.status == 65);
    CHECK_MESSAGE(
        bad.err.find("plain.edn:2:1: independent(cas-register): expected a [key value] tuple") != std::string::npos,
        bad.err);
    CHECK_MESSAGE(bad.err.find("expected a [key value] tuple") != std::string::npos, bad.err);

    const RunResult twice = run_cli({"check", plain.string(), "--independent", "--model", "independent(cas-register)"});
    CHECK(twice.status == 64);
  }

  TEST_CASE("check --init starts every key of independent(MODEL) from it, whatever the spec's own state") {
    TempDir dir;
    const fs::path reads = dir.path() / "reads.edn";
    std::ofstream(reads) << "{:process 0, :type :invoke, :f :read, :value [1 nil]}\n"
                            "{:process 0, :type :ok, :f :read, :value [1 5]}\n"
                            "{:process 1, :type :invoke, :f :read, :value [2 nil]}\n"
                            "{:process 1, :type :ok, :f :read, :value [2 5]}\n";
    CHECK(run_cli({"check", reads.string(), "--model", "independent(register(0))"}).status == 1);
    CHECK(run_cli({"check", reads.string(), "--model", "independent(register(0))", "--init", "5"}).status == 0);
    CHECK(run_cli({"check", reads.string(), "--independent", "--model", "register(0)", "--init", "5"}).status == 0);
    const RunResult bad_init = run_cli({"check", reads.string(), "--model", "independent(register)", "--init", "[5"});
    CHECK(bad_init.status == 64);
    CHECK_MESSAGE(bad_init.err.find("ariadne: --init: ") == 0, bad_init.err);
  }

}  // TEST_SUITE
