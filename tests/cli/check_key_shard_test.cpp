// `check FILE --shard I/N` and `check FILE --merge REPORT...` end to end: keyed
// histories (independent and kv, refuted and not) checked in 1 and 3 key shards merge
// into the unsharded check's answer (verdict, core, failing key and op, explanation,
// keys table; the witness certified on the whole history, with the same op ids); and
// every set the merge must refuse is refused, naming the report.
#include <ariadne/check.hpp>
#include <ariadne/history.hpp>

#include "batch/key_shards.hpp"
#include "certify/witness_checker.hpp"
#include "cli_runner.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace ariadne;
using cli_test::run_cli;
using cli_test::TempDir;

namespace {

const Value* member(const Value& object, const char* name) { return object.find(Value::string(name)); }

std::string text_of(const Value& object, const char* name) {
  const Value* v = member(object, name);
  return v ? v->to_json() : "absent";
}

struct Case {
  std::vector<std::string> generate;  // the generate atomic options
  std::vector<std::string> model;     // the check's model options
};

void check_case(const Case& c, std::size_t shards) {
  TempDir dir;
  const std::string file = (dir.path() / "history.edn").string();
  std::vector<std::string> generate{"generate", "atomic"};
  generate.insert(generate.end(), c.generate.begin(), c.generate.end());
  generate.insert(generate.end(), {"-o", file});
  REQUIRE(run_cli(generate).status == 0);
  const auto checked = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"check", file};
    args.insert(args.end(), c.model.begin(), c.model.end());
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("--json");
    return run_cli(args);
  };
  const auto whole = checked({});
  REQUIRE(whole.status <= 1);
  std::vector<std::string> reports;
  for (std::size_t i = 0; i < shards; ++i) {
    const auto shard = checked({"--shard", std::to_string(i) + "/" + std::to_string(shards)});
    REQUIRE_MESSAGE(shard.status <= 1, shard.err);
    reports.push_back(dir.write("shard-" + std::to_string(i) + ".json", shard.out));
  }
  std::vector<std::string> merge_args{"--merge"};
  merge_args.insert(merge_args.end(), reports.rbegin(), reports.rend());  // any order
  const auto merged = checked(merge_args);
  REQUIRE_MESSAGE(merged.status == whole.status, merged.err);

  const Value w = parse_json_value(whole.out, "whole");
  const Value m = parse_json_value(merged.out, "merged");
  for (const char* field : {"verdict", "operations", "core", "core_minimal", "failing_key", "failing_partition",
                            "failing_op", "explanation", "core_real_time"}) {
    INFO(field);
    CHECK(text_of(w, field) == text_of(m, field));
  }
  const auto key_verdicts = [](const Value& report) {
    std::vector<std::string> out;
    if (const Value* keys = member(report, "keys")) {
      for (const Value& k : keys->elements()) out.push_back(text_of(k, "key") + " " + text_of(k, "verdict"));
    }
    return out;
  };
  CHECK(key_verdicts(w) == key_verdicts(m));
  REQUIRE(member(m, "merged"));
  CHECK(text_of(*member(m, "merged"), "shards") == std::to_string(shards));
  if (const Value* order = member(m, "linearization")) {
    // The same op ids, in an order the certificate checker accepts on the whole file.
    std::vector<std::uint32_t> ids;
    for (const Value& id : order->elements()) ids.push_back(static_cast<std::uint32_t>(id.as_integer()));
    std::vector<std::uint32_t> unsharded;
    for (const Value& id : member(w, "linearization")->elements()) {
      unsharded.push_back(static_cast<std::uint32_t>(id.as_integer()));
    }
    std::vector<std::uint32_t> a = ids, b = unsharded;
    std::ranges::sort(a);
    std::ranges::sort(b);
    CHECK(a == b);
    const bool independent = std::ranges::find(c.model, "--independent") != c.model.end();
    const auto model = make_model_from_spec(independent ? "independent(" + c.model.back() + ")" : c.model.back());
    const History history = build_history(read_events(file), *model);
    CHECK_FALSE(certify::check_linearization(history, *model, ids).has_value());
  }
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("check --shard and --merge: key shards merge into the unsharded answer") {
    const std::vector<Case> cases = {
        {{"--model", "independent(cas-register)", "--keys", "12", "--ops", "1500", "--violation", "--seed", "4"},
         {"--independent", "--model", "cas-register"}},
        {{"--model", "independent(cas-register)", "--keys", "12", "--ops", "1500", "--seed", "5"},
         {"--independent", "--model", "cas-register"}},
        {{"--model", "kv", "--keys", "30", "--ops", "3000", "--processes", "10", "--violation", "--seed", "6"},
         {"--model", "kv"}},
        {{"--model", "kv", "--keys", "30", "--ops", "3000", "--processes", "10", "--seed", "7"}, {"--model", "kv"}},
    };
    for (const Case& c : cases) {
      for (const std::size_t shards : {1u, 3u}) {
        INFO(c.generate[1], " ", c.generate.back(), ", ", shards, " shards");
        check_case(c, shards);
      }
    }
  }

  TEST_CASE("check --merge: refuses a missing, repeated or foreign shard, and --shard what it cannot split") {
    TempDir dir;
    const std::string file = (dir.path() / "h.edn").string();
    const std::string other = (dir.path() / "other.edn").string();
    REQUIRE(run_cli({"generate", "atomic", "--model", "kv", "--keys", "8", "--ops", "400", "--seed", "1", "-o", file})
                .status == 0);
    REQUIRE(run_cli({"generate", "atomic", "--model", "kv", "--keys", "8", "--ops", "401", "--seed", "1", "-o", other})
                .status == 0);
    std::vector<std::string> reports;
    for (int i = 0; i < 3; ++i) {
      const auto run = run_cli({"check", file, "--model", "kv", "--shard", std::to_string(i) + "/3", "--json"});
      REQUIRE(run.status == 0);
      reports.push_back(dir.write("s" + std::to_string(i) + ".json", run.out));
    }
    const auto refused = [&](std::vector<std::string> args, const std::string& words) {
      const auto run = run_cli(args);
      CHECK(run.status == 65);
      CHECK_MESSAGE(run.err.find(words) != std::string::npos, run.err);
    };
    refused({"check", file, "--model", "kv", "--merge", reports[0], reports[2]}, "no report for shard 1");
    refused({"check", file, "--model", "kv", "--merge", reports[0], reports[1], reports[2], reports[1]}, "given twice");
    refused({"check", other, "--model", "kv", "--merge", reports[0], reports[1], reports[2]}, "another history");
    // A shard checked with other options than the others; a merge under another model.
    const std::string odd = dir.write(
        "odd.json", run_cli({"check", file, "--model", "kv", "--timeout", "9", "--shard", "1/3", "--json"}).out);
    refused({"check", file, "--model", "kv", "--merge", reports[0], odd, reports[2]}, "other options");
    refused({"check", file, "--model", "kv", "--consistency", "sequential-per-key", "--merge", reports[0], reports[1],
             reports[2]},
            "another consistency");
    // The merge's own limits are its own.
    CHECK(run_cli({"check", file, "--model", "kv", "--timeout", "9", "--merge", reports[0], reports[1], reports[2]})
              .status == 0);
    const std::string not_a_shard = dir.write("whole.json", run_cli({"check", file, "--model", "kv", "--json"}).out);
    refused({"check", file, "--model", "kv", "--merge", not_a_shard}, "not a key shard's report");

    const auto no_keys = run_cli({"check", file, "--model", "register", "--shard", "0/2"});
    CHECK(no_keys.status == 64);
    CHECK(no_keys.err.find("no keys to split by") != std::string::npos);
    CHECK(run_cli({"check", file, "--model", "kv", "--shard", "2/2"}).status == 64);
    const auto sequential = run_cli({"check", file, "--model", "kv", "--shard", "0/2", "--consistency", "sequential"});
    CHECK(sequential.status == 64);
    CHECK(sequential.err.find("not local") != std::string::npos);
    CHECK(run_cli({"check", file, "--model", "kv", "--shard", "0/2", "--merge", reports[0]}).status == 64);
  }
}

TEST_SUITE("cli") {
  TEST_CASE("check --merge re-checks a shard's refutation against the history: a forged one is refused") {
    // A linearizable kv history, sharded; one report is then made to claim a
    // refutation. The merge used to print it: NOT LINEARIZABLE, with a "core" of op
    // ids the file does not have.
    TempDir dir;
    const std::string file = (dir.path() / "h.edn").string();
    REQUIRE(run_cli({"generate", "atomic", "--model", "kv", "--keys", "4", "--ops", "200", "--seed", "5", "-o", file})
                .status == 0);
    std::vector<std::string> reports;
    for (int i = 0; i < 2; ++i) {
      const auto run = run_cli({"check", file, "--model", "kv", "--shard", std::to_string(i) + "/2", "--json"});
      REQUIRE(run.status == 0);
      reports.push_back(run.out);
    }
    auto model = make_model_from_spec("kv");
    const History h = build_history(read_events(file), *model);
    const Value first_key = model->partition_key(h.ops.front());
    std::vector<std::uint32_t> key_ops, other_key_op;
    for (const Operation& op : h.ops) {
      if (model->partition_key(op) == first_key) {
        key_ops.push_back(op.id);
      } else if (other_key_op.empty()) {
        other_key_op.push_back(op.id);
      }
    }
    const auto ids = [](const std::vector<std::uint32_t>& v) {
      std::string out = "[";
      for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
      return out + "]";
    };
    const auto forged = [&](const std::vector<std::uint32_t>& core, const std::string& words) {
      CAPTURE(words);
      std::vector<std::string> paths;
      for (std::size_t i = 0; i < reports.size(); ++i) {
        std::string text = reports[i];
        if (i == 0) {
          const std::string honest = "\"verdict\": \"linearizable\"";
          const auto at = text.find(honest);
          REQUIRE(at != std::string::npos);
          text.replace(at, honest.size(),
                       "\"verdict\": \"not-linearizable\", \"explanation\": \"forged\", \"core_minimal\": true, "
                       "\"core_ms\": 1, \"verdict_ms\": 1, \"core\": " +
                           ids(core));
        }
        paths.push_back(dir.write("s" + std::to_string(i) + ".json", text));
      }
      const auto run = run_cli({"check", file, "--model", "kv", "--json", "--merge", paths[0], paths[1]});
      CHECK(run.status == 65);
      CHECK_MESSAGE(run.err.find("refutation that does not hold") != std::string::npos, run.err);
      CHECK_MESSAGE(run.err.find(words) != std::string::npos, run.err);
    };
    forged({999'999}, "which the history does not have");
    forged({key_ops[0], key_ops[1]}, "proves nothing");
    forged(key_ops, "are linearizable");
    forged({key_ops[0], other_key_op[0]}, "spans keys");
    // The honest reports still merge.
    const std::string s0 = dir.write("h0.json", reports[0]);
    const std::string s1 = dir.write("h1.json", reports[1]);
    CHECK(run_cli({"check", file, "--model", "kv", "--merge", s0, s1}).status == 0);
  }

  TEST_CASE("check --merge replays a shard's linearization against the history: a forged one is refused") {
    // A kv history with a violation, sharded; the refuted shard's report is then made
    // to claim linearizable, its "linearization" its ops in call order (every op once,
    // real time kept, the model's results not). The merge certified only membership
    // and real time of the merged order, trusting each shard's order as though this
    // process had certified it, and printed LINEARIZABLE.
    TempDir dir;
    const std::string file = (dir.path() / "h.edn").string();
    REQUIRE(run_cli({"generate", "atomic", "--model", "kv", "--keys", "4", "--ops", "200", "--seed", "5", "--violation",
                     "-o", file})
                .status == 0);
    REQUIRE(run_cli({"check", file, "--model", "kv"}).status == 1);
    auto model = make_model_from_spec("kv");
    const History h = build_history(read_events(file), *model);
    std::vector<std::string> paths;
    bool forged = false;
    for (int i = 0; i < 2; ++i) {
      const auto run = run_cli({"check", file, "--model", "kv", "--shard", std::to_string(i) + "/2", "--json"});
      REQUIRE(run.status <= 1);
      std::string text = run.out;
      if (run.status == 1 && !forged) {
        std::string order = "[";
        for (const Operation& op : h.ops) {
          // The shard's ops: those of the keys it holds (key_shards.hpp).
          if (batch::key_shard_of(model->partition_key(op), 2) != static_cast<std::size_t>(i)) continue;
          if (op.status != OpStatus::ok) continue;
          order += (order.size() > 1 ? ", " : "") + std::to_string(op.id);
        }
        order += "]";
        const auto at = text.find("\"verdict\": \"not-linearizable\"");
        REQUIRE(at != std::string::npos);
        text.replace(at, std::string("\"verdict\": \"not-linearizable\"").size(),
                     "\"verdict\": \"linearizable\", \"linearization\": " + order);
        // Its keys table says so too, as a linearizable shard's would.
        for (std::size_t from = 0; (from = text.find("\"not-linearizable\"", from)) != std::string::npos;) {
          text.replace(from, std::string("\"not-linearizable\"").size(), "\"linearizable\"");
        }
        forged = true;
      }
      paths.push_back(dir.write("s" + std::to_string(i) + ".json", text));
    }
    REQUIRE(forged);
    const auto run = run_cli({"check", file, "--model", "kv", "--json", "--merge", paths[0], paths[1]});
    CHECK_MESSAGE(run.status == 65, run.out, run.err);
    CHECK_MESSAGE(run.err.find("do not hold against this history") != std::string::npos, run.err);
  }

  // Real keyed histories: Porcupine's six kv logs (the shared corpus beside the
  // repository; skipped without it). The merged answer is the unsharded check's: the
  // verdict, the witness's op ids, or the failing key with its core, failing op and
  // explanation (c50-bad refutes all ten keys: both name the first, see key_shards.hpp).
  TEST_CASE("check --shard and --merge on Porcupine's kv logs") {
    const std::string dir = std::string(ARIADNE_SOURCE_DIR) + "/../shared/corpus/porcupine/kv";
    if (!std::filesystem::is_directory(dir)) {
      MESSAGE("skipped: no shared corpus at ", dir);
      return;
    }
    TempDir out;
    for (const char* name : {"c01-ok", "c01-bad", "c10-ok", "c10-bad", "c50-ok", "c50-bad"}) {
      INFO(std::string(name));
      const std::string file = dir + "/" + name + ".txt";
      const auto whole = run_cli({"check", file, "--model", "kv", "--json"});
      std::vector<std::string> args{"check", file, "--model", "kv", "--json", "--merge"};
      for (int i = 0; i < 3; ++i) {
        const auto shard = run_cli({"check", file, "--model", "kv", "--shard", std::to_string(i) + "/3", "--json"});
        REQUIRE(shard.status <= 1);
        args.push_back(out.write(std::string(name) + "-" + std::to_string(i) + ".json", shard.out));
      }
      const auto merged = run_cli(args);
      REQUIRE_MESSAGE(merged.status == whole.status, merged.err);
      const Value w = parse_json_value(whole.out, "whole");
      const Value m = parse_json_value(merged.out, "merged");
      CHECK(text_of(w, "verdict") == text_of(m, "verdict"));
      if (const Value* order = member(m, "linearization")) {
        std::vector<std::string> a, b;
        for (const Value& id : order->elements()) a.push_back(id.to_json());
        for (const Value& id : member(w, "linearization")->elements()) b.push_back(id.to_json());
        std::ranges::sort(a);
        std::ranges::sort(b);
        CHECK(a == b);
      } else {
        for (const char* field : {"failing_partition", "failing_op", "explanation"}) {
          INFO(std::string(field));
          const Value* merged_field = member(m, field);
          const Value* whole_field = member(w, field);
          CHECK((merged_field == nullptr) == (whole_field == nullptr));
          if (merged_field && whole_field) CHECK(merged_field->to_json() == whole_field->to_json());
        }
        CHECK(member(m, "core")->to_json() == member(w, "core")->to_json());
      }
    }
  }
}
