// `ariadne check` end to end: the exit statuses, the --json object for each verdict,
// op ids as event positions, and the human report's tables. Each test runs the real
// binary on a few-line history, so it stays well under a second.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

#include <ariadne/model.hpp>

#include <regex>

namespace ariadne::cli_test {

namespace {

// write 1 and a concurrent read of 1: linearizable, witness [0 1].
constexpr const char* kLinearizable =
    "[{:process 0, :type :invoke, :f :write, :value 1}\n"
    " {:process 1, :type :invoke, :f :read, :value nil}\n"
    " {:process 0, :type :ok, :f :write, :value 1}\n"
    " {:process 1, :type :ok, :f :read, :value 1}]\n";

// A read of 2 after the only write wrote 1.
constexpr const char* kNotLinearizable =
    "[{:process 0, :type :invoke, :f :write, :value 1}\n"
    " {:process 0, :type :ok, :f :write, :value 1}\n"
    " {:process 1, :type :invoke, :f :read, :value nil}\n"
    " {:process 1, :type :ok, :f :read, :value 2}]\n";

// Nemesis events occupy positions 0 and 2, so the client ops are ids 1 and 4.
constexpr const char* kWithNemesis =
    "[{:process :nemesis, :type :info, :f :start, :value nil}\n"
    " {:process 0, :type :invoke, :f :write, :value 1}\n"
    " {:process :nemesis, :type :info, :f :stop, :value nil}\n"
    " {:process 0, :type :ok, :f :write, :value 1}\n"
    " {:process 1, :type :invoke, :f :read, :value nil}\n"
    " {:process 1, :type :ok, :f :read, :value 1}]\n";

// A write that crashed (:info) yet must have happened, since a later read saw it.
constexpr const char* kCrashedWrite =
    "[{:process 0, :type :invoke, :f :write, :value 7, :index 0}\n"
    " {:process 0, :type :info, :f :write, :value 7, :index 1}\n"
    " {:process 1, :type :invoke, :f :read, :value nil, :index 2}\n"
    " {:process 1, :type :ok, :f :read, :value 7, :index 3}]\n";

std::string sequential_writes(int count) {
  std::string text = "[";
  for (int i = 0; i < count; ++i) {
    const std::string v = std::to_string(i);
    text += "{:process 0, :type :invoke, :f :write, :value " + v + "}\n";
    text += " {:process 0, :type :ok, :f :write, :value " + v + "}\n";
  }
  return text + "]\n";
}

bool has_ansi_escape(const std::string& text) { return text.find('\x1b') != std::string::npos; }

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("check: a linearizable history exits 0 and prints the witness") {
    TempDir dir;
    const auto file = dir.write("h.edn", kLinearizable);
    const auto run = run_cli({"check", file, "--model", "register", "--init", "0"});
    CHECK(run.status == 0);
    CHECK(run.out.rfind("LINEARIZABLE", 0) == 0);
    CHECK(run.out.find("register") != std::string::npos);
    CHECK(run.out.find("process") != std::string::npos);
    CHECK_FALSE(has_ansi_escape(run.out));
  }

  TEST_CASE("check: a history of [key value] tuples under a plain model names --independent, in text, JSON and EDN") {
    // corpus/regressions/independent-tuples-read-as-one-register.edn, as if the user
    // forgot --independent: the refutation must say so first.
    const std::string file =
        std::string(ARIADNE_SOURCE_DIR) + "/corpus/regressions/independent-tuples-read-as-one-register.edn";
    const auto text = run_cli({"check", file, "--model", "cas-register"});
    CHECK(text.status == 1);
    CHECK_MESSAGE(text.out.find("hint        Every value in this history is a [key value] tuple") != std::string::npos,
                  text.out);
    const auto json = run_cli({"check", file, "--model", "cas-register", "--json"});
    CHECK(parse_json(json.out)["hint"].string.find("--independent") != std::string::npos);
    CHECK(parse_json(json.out)["explanation"].string.rfind("Every value in this history", 0) == 0);
    const auto edn = run_cli({"check", file, "--model", "cas-register", "--edn"});
    CHECK(edn.out.find(":hint \"Every value") != std::string::npos);
    const auto right = run_cli({"check", file, "--model", "cas-register", "--independent", "--json"});
    CHECK(right.status == 0);
    CHECK(right.out.find("\"hint\"") == std::string::npos);
  }

  TEST_CASE("check: json for a linearizable history has the contract's fields") {
    TempDir dir;
    const auto file = dir.write("h.edn", kLinearizable);
    const auto run = run_cli({"check", file, "--model", "register(0)", "--json"});
    REQUIRE(run.status == 0);
    const Json json = parse_json(run.out);
    CHECK(json["verdict"].string == "linearizable");
    CHECK(json["model"].type == Json::Type::string);
    CHECK(json["engine"].type == Json::Type::string);
    CHECK(json["operations"].number == 2);
    CHECK(json["elapsed_ms"].type == Json::Type::number);
    CHECK(json["linearization"].integers() == std::vector<long long>{0, 1});
    CHECK_FALSE(json.has("core"));
    CHECK_FALSE(json.has("reason"));
  }

  TEST_CASE("check: a violation exits 1 with a core and an explanation") {
    TempDir dir;
    const auto file = dir.write("h.edn", kNotLinearizable);
    const auto json_run = run_cli({"check", file, "--model", "register", "--init", "0", "--json"});
    REQUIRE(json_run.status == 1);
    const Json json = parse_json(json_run.out);
    CHECK(json["verdict"].string == "not-linearizable");
    CHECK(json["operations"].number == 2);
    const auto core = json["core"].integers();
    CHECK_FALSE(core.empty());
    for (const auto id : core) CHECK((id == 0 || id == 2));
    CHECK(json["explanation"].type == Json::Type::string);
    CHECK_FALSE(json.has("linearization"));

    const auto text_run = run_cli({"check", file, "--model", "register", "--init", "0"});
    CHECK(text_run.status == 1);
    CHECK(text_run.out.rfind("NOT LINEARIZABLE", 0) == 0);
  }

  TEST_CASE("check: an undecided history exits 2 with a reason") {
    // The brute-force engine declines histories beyond a small size, which gives a
    // fast, deterministic unknown.
    TempDir dir;
    const auto file = dir.write("h.edn", sequential_writes(30));
    const auto json_run = run_cli({"check", file, "--model", "register(0)", "--engine", "brute", "--json"});
    REQUIRE(json_run.status == 2);
    const Json json = parse_json(json_run.out);
    CHECK(json["verdict"].string == "unknown");
    CHECK(json["operations"].number == 30);
    CHECK_FALSE(json["reason"].string.empty());
    CHECK_FALSE(json.has("linearization"));
    CHECK_FALSE(json.has("core"));

    const auto text_run = run_cli({"check", file, "--model", "register(0)", "--engine", "brute"});
    CHECK(text_run.status == 2);
    CHECK(text_run.out.rfind("UNKNOWN", 0) == 0);
  }

  TEST_CASE("check: json stays well-formed for a file name with quotes and controls and bad UTF-8") {
    TempDir dir;
    const auto file = dir.write("we\"ird\\ \x01\t\xff\xc3\xa9.edn", kLinearizable);
    const auto run = run_cli({"check", file, "--model", "register(0)", "--json"});
    REQUIRE(run.status == 0);
    const Json json = parse_json(run.out);
    CHECK(json["file"].string.find("we\"ird\\ ") != std::string::npos);
    CHECK(json["file"].string.find("\xc3\xa9.edn") != std::string::npos);
  }

  TEST_CASE("check: op ids count ignored nemesis events") {
    TempDir dir;
    const auto file = dir.write("h.edn", kWithNemesis);
    const auto run = run_cli({"check", file, "--model", "register(0)", "--json"});
    REQUIRE(run.status == 0);
    CHECK(parse_json(run.out)["linearization"].integers() == std::vector<long long>{1, 4});
  }

  TEST_CASE("check: a crashed op shows status crashed and no return and the file's :index") {
    TempDir dir;
    const auto file = dir.write("h.edn", kCrashedWrite);
    const auto run = run_cli({"check", file, "--model", "register(0)"});
    REQUIRE(run.status == 0);
    CHECK(run.out.find(":index") != std::string::npos);
    const std::regex crashed_row(R"(\n\s*1\s+0\s+0\s+0\s+write\s+7\s+0\s+-\s+crashed\n)");
    CHECK(std::regex_search(run.out, crashed_row));
  }

  TEST_CASE("check: long tables are cut at 40 rows unless --full") {
    TempDir dir;
    const auto file = dir.write("h.edn", sequential_writes(45));
    const auto cut = run_cli({"check", file, "--model", "register(0)"});
    REQUIRE(cut.status == 0);
    CHECK(cut.out.find("\u2026 5 more (use --json for all)") != std::string::npos);
    const auto full = run_cli({"check", file, "--model", "register(0)", "--full"});
    REQUIRE(full.status == 0);
    CHECK(full.out.find("more (use --json") == std::string::npos);
    CHECK(full.out.find("\n  45  88") != std::string::npos);
  }

  TEST_CASE("check: usage errors exit 64") {
    TempDir dir;
    const auto file = dir.write("h.edn", kLinearizable);
    SUBCASE("unknown model") { CHECK(run_cli({"check", file, "--model", "no-such-model"}).status == 64); }
    SUBCASE("bad --format") { CHECK(run_cli({"check", file, "--model", "register", "--format", "yaml"}).status == 64); }
    SUBCASE("bad --engine") {
      CHECK(run_cli({"check", file, "--model", "register", "--engine", "magic"}).status == 64);
    }
    SUBCASE("missing --model") { CHECK(run_cli({"check", file}).status == 64); }
    SUBCASE("unknown option") { CHECK(run_cli({"check", file, "--model", "register", "--frobnicate"}).status == 64); }
    SUBCASE("bad --memory-limit") {
      CHECK(run_cli({"check", file, "--model", "register", "--memory-limit", "lots"}).status == 64);
      CHECK(run_cli({"check", file, "--model", "register", "--memory-limit", "2X"}).status == 64);
    }
    SUBCASE("negative --timeout") {
      CHECK(run_cli({"check", file, "--model", "register", "--timeout", "-1"}).status == 64);
    }
    SUBCASE("malformed --init") {
      const auto run = run_cli({"check", file, "--model", "register", "--init", "{:x"});
      CHECK(run.status == 64);
      CHECK(run.err.rfind("ariadne: --init", 0) == 0);
    }
    SUBCASE("a bare symbol as --init") {
      // It used to become the symbol `zero`, a state no read can match: a confident
      // verdict on a typo.
      const auto run = run_cli({"check", file, "--model", "register", "--init", "zero"});
      CHECK(run.status == 64);
      CHECK(run.err.rfind("ariadne: --init", 0) == 0);
      CHECK(run.err.find("'zero' is a bare symbol") != std::string::npos);
      CHECK(run.err.find("register: read/write register") != std::string::npos);
      CHECK(run_cli({"check", file, "--model", "multi-register", "--init", "{:x zero}"}).status == 64);
      CHECK(run_cli({"check", file, "--model", "register(zero)"}).status == 64);
      CHECK(run_cli({"check", file, "--model", "register", "--init", ":zero"}).status != 64);
    }
    SUBCASE("no subcommand") { CHECK(run_cli({}).status == 64); }
  }

  TEST_CASE("check: memory limits accept binary suffixes and fractions") {
    TempDir dir;
    const auto file = dir.write("h.edn", kLinearizable);
    // Every limit far above what checking two ops takes: "64k" was, until a busy
    // machine let the memory watch see the process grow by more than 64 KiB.
    for (const std::string limit : {"1073741824", "512M", "512MiB", "1.5GiB", "65536k", "2G"}) {
      CAPTURE(limit);
      CHECK(run_cli({"check", file, "--model", "register(0)", "--memory-limit", limit}).status == 0);
    }
  }

  TEST_CASE("check: a missing file exits 65 naming it") {
    TempDir dir;
    const std::string missing = (dir.path() / "absent.edn").string();
    const auto run = run_cli({"check", missing, "--model", "register"});
    CHECK(run.status == 65);
    CHECK(run.err.rfind("ariadne: " + missing + ": ", 0) == 0);
    CHECK(run.out.empty());
  }

  TEST_CASE("check: malformed EDN exits 65 with file:line:column") {
    TempDir dir;
    const auto file = dir.write("bad.edn",
                                "[{:process 0, :type :invoke, :f :write, :value 1}\n"
                                " {:process 0, :type :ok, :f :write, :value 1\n");
    const auto run = run_cli({"check", file, "--model", "register"});
    CHECK(run.status == 65);
    const std::regex located("^ariadne: " + std::regex_replace(file, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                             R"(:\d+:\d+: .+)");
    CHECK_MESSAGE(std::regex_search(run.err, located), run.err);
  }

  TEST_CASE("--help teaches examples and exit statuses and the models") {
    for (const auto& args : {std::vector<std::string>{"--help"}, std::vector<std::string>{"check", "--help"}}) {
      const auto run = run_cli(args);
      CHECK(run.status == 0);
      CHECK(run.out.find("ariadne check history.edn --model cas-register --init 0") != std::string::npos);
      CHECK(run.out.find("Exit status") != std::string::npos);
      CHECK(run.out.find("65") != std::string::npos);
      for (const auto& [name, description] : model_catalogue()) {
        CAPTURE(name);
        CHECK(run.out.find(name) != std::string::npos);
      }
    }
    CHECK(run_cli({"corpus", "--help"}).out.find("expected.tsv") != std::string::npos);
  }

  TEST_CASE("--version prints the version") {
    const auto run = run_cli({"--version"});
    CHECK(run.status == 0);
    CHECK(run.out.rfind("ariadne ", 0) == 0);
  }

}  // TEST_SUITE

}  // namespace ariadne::cli_test
