// `check --edn`: one EDN map in the shape a Jepsen checker returns, read back here
// with ariadne's own EDN reader: :valid? true, false or :unknown, the linearization
// as op ids, the core and the failing op as Jepsen op maps whose :index is the op id.
#include "cli_runner.hpp"

#include <ariadne/history.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

using namespace ariadne::cli_test;
using ariadne::Value;

namespace {

Value edn_answer(const std::vector<std::string>& args, int status) {
  const RunResult run = run_cli(args);
  REQUIRE_MESSAGE(run.status == status, run.err);
  REQUIRE(run.out.ends_with("}\n"));
  REQUIRE(run.out.find('\n') == run.out.size() - 1);  // one line
  return ariadne::parse_edn_value(run.out, "stdout");
}

const Value& at(const Value& map, const char* key) {
  const Value* v = map.find_keyword(key);
  REQUIRE_MESSAGE(v != nullptr, "no :", key, " in ", map.to_edn());
  return *v;
}

// What `clojure -e EXPR` prints, or nullopt when Debian's clojure is not installed
// (scripts/install-deps.sh installs it for CI).
std::optional<std::string> clojure_prints(const std::string& expression) {
  if (std::system("command -v clojure >/dev/null 2>&1") != 0) return std::nullopt;
  std::string command = "clojure -e '" + expression + "' 2>&1";
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), n);
  ::pclose(pipe);
  return out;
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("check --edn: a refuted history gives :valid? false, the core and the failing op as op maps") {
    const std::string file = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic/lecture-example-6.edn";
    const Value answer = edn_answer({"check", file, "--model", "register", "--edn"}, 1);
    CHECK(at(answer, "valid?") == Value::boolean(false));
    const Value& core = at(answer, "core");
    REQUIRE(core.elements().size() == 3);
    for (const Value& op : core.elements()) {
      CHECK(at(op, "type") == Value::keyword("ok"));
      CHECK(at(op, "f") == Value::keyword("read"));
      CHECK(at(op, "index").is_integer());
    }
    const Value& failing = at(answer, "failing-op");
    CHECK(at(failing, "index") == Value::integer(7));
    CHECK(at(failing, "value") == Value::integer(1));
    CHECK(at(answer, "core-minimal?") == Value::boolean(true));
    CHECK(at(answer, "explanation").text().starts_with("Minimal core: 3 of the 5 operations"));
  }

  TEST_CASE("check --edn: linearizable and unknown answers, and --edn with --json is a usage error") {
    TempDir dir;
    const std::string file = dir.write("ok.edn",
                                       "{:process 0, :type :invoke, :f :write, :value 1}\n"
                                       "{:process 0, :type :ok, :f :write, :value 1}\n"
                                       "{:process 1, :type :invoke, :f :read, :value nil}\n"
                                       "{:process 1, :type :ok, :f :read, :value 1}\n");
    const Value ok = edn_answer({"check", file, "--model", "register(0)", "--edn"}, 0);
    CHECK(at(ok, "valid?") == Value::boolean(true));
    CHECK(at(ok, "linearization") == Value::vector({Value::integer(0), Value::integer(2)}));
    CHECK(ok.find_keyword("core") == nullptr);

    // Brute force takes at most 14 operations: on 16 it answers unknown, saying why.
    std::string many;
    for (int i = 0; i < 16; ++i) {
      many += "{:process 0, :type :invoke, :f :write, :value " + std::to_string(i) + "}\n";
      many += "{:process 0, :type :ok, :f :write, :value " + std::to_string(i) + "}\n";
    }
    const Value unknown =
        edn_answer({"check", dir.write("many.edn", many), "--model", "register(0)", "--engine", "brute", "--edn"}, 2);
    CHECK(at(unknown, "valid?") == Value::keyword("unknown"));
    CHECK_FALSE(at(unknown, "reason").text().empty());

    CHECK(run_cli({"check", file, "--model", "register(0)", "--edn", "--json"}).status == 64);
  }

  // Knossos' keys beside ariadne's, on the file Knossos' README shows its answer for:
  // Knossos' :op is the read of 3 as completed (event 4), its :previous-ok the write of
  // 0 as completed (event 1); ariadne's :failing-op stays the read's invocation (op 2).
  TEST_CASE("check --edn: Knossos' :op and :previous-ok on Knossos' rethink-fail-minimal.edn") {
    const std::string file =
        std::string(ARIADNE_SOURCE_DIR) + "/../shared/corpus/knossos/data/cas-register/bad/rethink-fail-minimal.edn";
    if (!std::filesystem::exists(file)) {
      MESSAGE("skipped: ", file, " is absent (a plain clone has no ../shared)");
      return;
    }
    const Value answer = edn_answer({"check", file, "--model", "cas-register(nil)", "--edn"}, 1);
    const auto op = [](std::int64_t process, const char* f, std::int64_t value, std::int64_t index) {
      return Value::map({{Value::keyword("process"), Value::integer(process)},
                         {Value::keyword("type"), Value::keyword("ok")},
                         {Value::keyword("f"), Value::keyword(f)},
                         {Value::keyword("value"), Value::integer(value)},
                         {Value::keyword("index"), Value::integer(index)}});
    };
    CHECK(at(answer, "op") == op(1, "read", 3, 4));
    CHECK(at(answer, "previous-ok") == op(0, "write", 0, 1));
    CHECK(at(answer, "failing-op") == op(1, "read", 3, 2));
    CHECK(at(answer, "analyzer") == Value::keyword("ariadne"));
    CHECK(at(answer, "elapsed-ms").kind() == Value::Kind::floating);
  }

  // The map must be what Jepsen's own reader reads: Clojure's clojure.edn, on every
  // kind of answer, the explanation's quotes and newlines and a warning included.
  TEST_CASE("check --edn: Clojure's EDN reader reads every answer back") {
    TempDir dir;
    const std::string src = ARIADNE_SOURCE_DIR;
    struct Case {
      std::vector<std::string> args;
      int status;
      std::string expected;  // what the Clojure expression prints
    };
    const std::vector<Case> cases{
        {{src + "/corpus/classic/lecture-example-6.edn", "--model", "register"}, 1, "false 3 7 true 9 8 :ariadne"},
        {{src + "/corpus/regressions/nemesis-issued-client-ops.edn", "--model", "register(0)"},
         1,
         "false 1 6 true 7 1 :ariadne"},
        {{src + "/corpus/classic/lecture-example-1.edn", "--model", "register"},
         0,
         "true 0 nil false nil nil :ariadne"},
    };
    for (const Case& c : cases) {
      std::vector<std::string> args{"check"};
      args.insert(args.end(), c.args.begin(), c.args.end());
      args.push_back("--edn");
      const RunResult run = run_cli(args);
      REQUIRE_MESSAGE(run.status == c.status, run.err);
      const std::string file = dir.write("answer.edn", run.out);
      const auto printed = clojure_prints("(let [m (clojure.edn/read-string (slurp \"" + file +
                                          "\"))] (println (:valid? m) (count (:core m)) (:index (:failing-op m)) "
                                          "(string? (:explanation m)) (:index (:op m)) (:index (:previous-ok m)) "
                                          "(:analyzer m)))");
      if (!printed) {
        MESSAGE("clojure is not installed (scripts/install-deps.sh installs it): not read back by Clojure");
        return;
      }
      CHECK_MESSAGE(*printed == c.expected + "\n", run.out);
    }
  }

}  // TEST_SUITE
