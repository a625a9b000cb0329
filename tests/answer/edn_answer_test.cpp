// `check --edn` (answer/edn_answer.cpp) on results built here: Knossos' keys beside
// ariadne's own (:op and :previous-ok as completion op maps, :analyzer), the
// previous ok looked for within the failing partition only, and doubles in the fewest
// digits that read back as the same double.
#include "answer/edn_answer.hpp"
#include "answer/previous_ok.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

namespace {

using namespace ariadne;

// Write 1; then a write of 2 and a read of 5 overlap, and a read of 2 starts before
// the read of 5 ends. The read of 5 (op 3, completed at event 6) fails; the last :ok
// before its completion is the write of 2 (op 2, completed at event 4).
constexpr const char* kStaleRead =
    "{:process 0, :type :invoke, :f :write, :value 1}\n"   // 0
    "{:process 0, :type :ok, :f :write, :value 1}\n"       // 1
    "{:process 1, :type :invoke, :f :write, :value 2}\n"   // 2
    "{:process 2, :type :invoke, :f :read, :value nil}\n"  // 3
    "{:process 1, :type :ok, :f :write, :value 2}\n"       // 4
    "{:process 3, :type :invoke, :f :read, :value nil}\n"  // 5
    "{:process 2, :type :ok, :f :read, :value 5}\n"        // 6
    "{:process 3, :type :ok, :f :read, :value 2}\n";       // 7

struct Answer {
  std::unique_ptr<Model> model = make_model_from_spec("register(0)");
  History history = parse_history(kStaleRead, "stale.edn", *model);
  CheckResult result;

  Answer() {
    result.verdict = Verdict::not_linearizable;
    result.operations = history.ops.size();
    result.engine = "wgl";
    result.core = {0, 3};
    result.failing_op = 3;
    for (const Operation& op : history.ops) result.failing_partition_ops.push_back(op.id);
  }

  Value edn() const {
    answer::CheckReport report;
    report.file = "stale.edn";
    report.model_spec = "register(0)";
    report.history = &history;
    report.result = &result;
    return parse_edn_value(answer::format_check_edn(report), "answer");
  }
};

const Value* at(const Value& map, const char* key) { return map.find_keyword(key); }

// `entry` is in `text` as a whole entry of a map: followed by the next entry or the end.
bool printed(const std::string& text, const std::string& entry) {
  for (std::size_t pos = text.find(entry); pos != std::string::npos; pos = text.find(entry, pos + 1)) {
    const char next = text[pos + entry.size()];
    if (next == ',' || next == '}') return true;
  }
  return false;
}

Value completion(std::int64_t process, const char* f, Value value, std::int64_t index) {
  return Value::map({{Value::keyword("process"), Value::integer(process)},
                     {Value::keyword("type"), Value::keyword("ok")},
                     {Value::keyword("f"), Value::keyword(f)},
                     {Value::keyword("value"), std::move(value)},
                     {Value::keyword("index"), Value::integer(index)}});
}

}  // namespace

TEST_SUITE("answer") {
  TEST_CASE("check --edn: Knossos' :op is the failing op's completion, :previous-ok the last :ok before it") {
    const Answer a;
    const Value edn = a.edn();
    REQUIRE(at(edn, "op") != nullptr);
    CHECK(*at(edn, "op") == completion(2, "read", Value::integer(5), 6));
    REQUIRE(at(edn, "previous-ok") != nullptr);
    CHECK(*at(edn, "previous-ok") == completion(1, "write", Value::integer(2), 4));
    // The keys scripts already read are still there, as they were: the failing op as
    // its invocation, :index the op id.
    REQUIRE(at(edn, "failing-op") != nullptr);
    CHECK(*at(*at(edn, "failing-op"), "index") == Value::integer(3));
    CHECK(*at(edn, "analyzer") == Value::keyword("ariadne"));
    CHECK(*at(edn, "engine") == Value::string("wgl"));
  }

  TEST_CASE("check --edn: :previous-ok is looked for within the failing partition only") {
    Answer a;
    // The write of 2 (op 2) belongs to another partition: the write of 1 is the
    // previous ok, as a key's own Knossos check under jepsen.independent would say.
    a.result.failing_partition_ops = {0, 3, 5};
    CHECK(*at(a.edn(), "previous-ok") == completion(0, "write", Value::integer(1), 1));
    // Nothing of the partition completed :ok before: Knossos' nil.
    a.result.failing_partition_ops = {3, 5};
    const Value alone = a.edn();
    REQUIRE(at(alone, "previous-ok") != nullptr);
    CHECK(at(alone, "previous-ok")->is_nil());
    // A partitioned answer that does not name its partition's ops (a merge of key
    // shards): not said rather than guessed from the whole history. :op still is.
    a.result.failing_partition_ops.clear();
    a.result.partitions = 2;
    const Value merged = a.edn();
    CHECK(at(merged, "previous-ok") == nullptr);
    CHECK(at(merged, "op") != nullptr);
    // An unpartitioned answer without them: the whole history is the partition.
    a.result.partitions = 1;
    CHECK(*at(a.edn(), "previous-ok") == completion(1, "write", Value::integer(2), 4));
  }

  TEST_CASE("check --edn: no failing op, no :op and no :previous-ok; :analyzer on every answer") {
    Answer a;
    a.result.failing_op.reset();
    const Value refuted = a.edn();
    CHECK(at(refuted, "op") == nullptr);
    CHECK(at(refuted, "previous-ok") == nullptr);
    CHECK(at(refuted, "failing-op") == nullptr);
    a.result.verdict = Verdict::linearizable;
    CHECK(*at(a.edn(), "analyzer") == Value::keyword("ariadne"));
    a.result.verdict = Verdict::unknown;
    CHECK(*at(a.edn(), "analyzer") == Value::keyword("ariadne"));
  }

  TEST_CASE("check --edn: times are printed in the fewest digits that read back as the same double") {
    Answer a;
    a.result.elapsed_ms = 0.204605;  // %.17g printed it 0.20460500000000001
    KeyResult key;
    key.key = Value::integer(7);
    key.verdict = Verdict::linearizable;
    key.elapsed_ms = 12.1;
    a.result.keys.push_back(key);
    answer::CheckReport report;
    report.file = "stale.edn";
    report.model_spec = "register(0)";
    report.history = &a.history;
    report.result = &a.result;
    const std::string text = answer::format_check_edn(report);
    CHECK(printed(text, ":elapsed-ms 0.204605"));
    CHECK(printed(text, ":elapsed-ms 12.1"));
    const Value edn = parse_edn_value(text, "answer");
    CHECK(*at(edn, "elapsed-ms") == Value::floating(0.204605));
  }

  // What :previous-ok claims, that the op lies in a linearizable prefix ending before the
  // failing op's completion, checked against the prefix the library finds itself.
  TEST_CASE("check --edn: :previous-ok is linearized in the longest linearizable prefix") {
    struct Case {
      std::string file;
      const char* model;
    };
    const std::string src = ARIADNE_SOURCE_DIR;
    const std::string knossos = src + "/../shared/corpus/knossos/data/cas-register/bad/";
    std::vector<Case> cases{{src + "/corpus/classic/lecture-example-6.edn", "register"},
                            {src + "/corpus/classic/worked-example-abcd.edn", "register(0)"}};
    if (std::filesystem::exists(knossos)) {
      for (const char* f : {"rethink-fail-minimal.edn", "rethink-fail-smaller.edn", "cas-failure.edn",
                            "bad-analysis.edn", "immediate-failure.edn"}) {
        cases.push_back({knossos + f, "cas-register(nil)"});
      }
    } else {
      MESSAGE("skipped Knossos' histories: ", knossos, " is absent (a plain clone has no ../shared)");
    }
    for (const Case& c : cases) {
      INFO(c.file);
      const auto model = make_model_from_spec(c.model);
      const History history = read_history(c.file, *model);
      const CheckResult result = check(history, *model, CheckOptions{.prefix = true});
      REQUIRE(result.verdict == Verdict::not_linearizable);
      REQUIRE(result.failing_op.has_value());
      const answer::PreviousOk previous = answer::previous_ok(history, result);
      REQUIRE(previous.known);
      if (previous.op == nullptr) continue;
      const auto& prefix = result.prefix_linearization;
      REQUIRE_FALSE(prefix.empty());
      CHECK(std::find(prefix.begin(), prefix.end(), previous.op->id) != prefix.end());
    }
  }
}
