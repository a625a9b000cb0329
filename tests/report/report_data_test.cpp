// The HTML report's data: lanes, the compressed axis, states along the order, the
// core as op indices, and the size of the JSON the page embeds.
#include "report/report_data.hpp"
#include "report/state_replay.hpp"
#include "support/history_builder.hpp"
#include "support/text_count.hpp"

#include <ariadne/check.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace ariadne;
using namespace ariadne::report;
using testing::EventScript;
using testing::I;

namespace {

// The lecture example: p0 writes 1 then 2; p1 reads 2 and p2 reads 1, both
// overlapping the writes. Op ids 0 (write 1), 1 (read 2), 2 (read 1), 4 (write 2).
History lecture_example(const Model& model) {
  EventScript s;
  s.invoke(0, "write", I(1)).invoke(1, "read").invoke(2, "read").ok(0, "write", I(1));
  s.invoke(0, "write", I(2)).ok(2, "read", I(1)).ok(1, "read", I(2)).ok(0, "write", I(2));
  return s.build(model);
}

// The worked example A-D, not linearizable: A (p0) writes 1, B (p1) writes 2, C (p2)
// reads 2, D (p3) reads 1. Op ids 0, 1, 3, 5.
History worked_example(const Model& model) {
  EventScript s;
  s.invoke(0, "write", I(1)).invoke(1, "write", I(2)).ok(0, "write", I(1)).invoke(2, "read");
  s.ok(1, "write", I(2)).invoke(3, "read").ok(2, "read", I(2)).ok(3, "read", I(1));
  return s.build(model);
}

CheckResult linearizable(std::vector<std::uint32_t> order) {
  CheckResult r;
  r.verdict = Verdict::linearizable;
  r.linearization = std::move(order);
  return r;
}

CheckResult refuted(std::vector<std::uint32_t> core) {
  CheckResult r;
  r.verdict = Verdict::not_linearizable;
  r.core = std::move(core);
  return r;
}

std::string state_after(const ReportData& data, std::uint32_t index) {
  REQUIRE(data.state_after[index] != kNone);
  return data.strings[static_cast<std::size_t>(data.state_after[index])];
}

std::string text_of(const ReportData& data, std::uint32_t index) { return data.strings[data.descriptions[index]]; }

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("report data: one lane per process and a time axis of the positions where ops start or end") {
    auto model = make_model("register", Value());
    const History h = lecture_example(*model);
    const CheckResult r = linearizable({0, 2, 4, 1});
    const ReportData data = build_report_data(h, *model, r, ReportContext{"lecture.edn", "register(nil)"});

    CHECK(data.processes == std::vector<std::int64_t>{0, 1, 2});
    CHECK(data.times == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7});
    CHECK(data.ids == std::vector<std::uint32_t>{0, 1, 2, 4});
    CHECK(data.lanes == std::vector<std::uint32_t>{0, 1, 2, 0});
    CHECK(data.calls == std::vector<std::uint32_t>{0, 1, 2, 4});
    CHECK(data.rets == std::vector<std::uint32_t>{3, 6, 5, 7});
    CHECK(data.statuses == "oooo");
    CHECK(text_of(data, 0) == "write 1");
    CHECK(text_of(data, 3) == "write 2");
    CHECK(data.file == "lecture.edn");
    CHECK(data.verdict == "linearizable");
  }

  TEST_CASE("report data: the linearization becomes op indices and each op gets the state after it") {
    auto model = make_model("register", I(0));
    const History h = lecture_example(*model);
    const CheckResult r = linearizable({0, 2, 4, 1});
    const ReportData data = build_report_data(h, *model, r, {});

    CHECK(data.linearization == std::vector<std::uint32_t>{0, 2, 3, 1});
    CHECK(state_after(data, 0) == "1");  // write 1
    CHECK(state_after(data, 2) == "1");  // read 1
    CHECK(state_after(data, 3) == "2");  // write 2
    CHECK(state_after(data, 1) == "2");  // read 2
    REQUIRE(data.initial_state.size() == 1);
    CHECK(data.strings[static_cast<std::size_t>(data.initial_state[0])] == "0");
  }

  TEST_CASE("report data: crashed ops stay open to the end and get a state only if they took effect") {
    auto model = make_model("cas-register", I(0));
    EventScript s;
    s.invoke(0, "write", I(1)).invoke(1, "write", I(2)).ok(0, "write", I(1));
    s.invoke(2, "write", I(3)).info(2, "write", I(3)).invoke(0, "read").ok(0, "read", I(2));
    const History h = s.build(*model);
    // Ops: 0 write 1 (ok), 1 write 2 (crashed, never completes), 3 write 3 (crashed, :info), 5 read 2.
    REQUIRE(h.ops.size() == 4);
    const CheckResult r = linearizable({0, 1, 5});
    const ReportData data = build_report_data(h, *model, r, {});

    CHECK(data.statuses == "occo");
    CHECK(data.rets[1] == kOpen);
    CHECK(data.rets[2] == kOpen);
    CHECK(data.rets[0] != kOpen);
    CHECK(state_after(data, 1) == "2");
    CHECK(data.state_after[2] == kNone);  // took no effect
    CHECK(state_after(data, 3) == "2");
    const std::string json = report_data_json(data);
    CHECK(json.find("\"span\":[2,-1,-1,1]") != std::string::npos);
  }

  TEST_CASE("state replay: a crashed op shows only the successor the rest of the order needs") {
    // From the bag {1 2}, a crashed dequeue may remove either; the later dequeue of 1
    // leaves only "it removed 2".
    auto model = make_model("unordered-queue", Value());
    EventScript s;
    s.invoke(0, "enqueue", I(1)).ok(0, "enqueue", I(1)).invoke(0, "enqueue", I(2)).ok(0, "enqueue", I(2));
    s.invoke(1, "dequeue").info(1, "dequeue").invoke(0, "dequeue").ok(0, "dequeue", I(1));
    const History h = s.build(*model);
    std::vector<const Operation*> order;
    for (const Operation& op : h.ops) order.push_back(&op);
    const ReplayedStates states = replay_states(*model, order);
    CHECK(states.initial == "[]");
    CHECK(states.after == std::vector<std::string>{"[1]", "[1 2]", "[1]", "[]"});

    // Without the last dequeue both successors remain possible.
    order.pop_back();
    CHECK(replay_states(*model, order).after.back() == "[1] | [2]");
  }

  TEST_CASE("state replay: an order that cannot be replayed leaves the states past it unknown") {
    auto model = make_model("register", I(0));
    EventScript s;
    s.invoke(0, "write", I(1)).ok(0, "write", I(1)).invoke(0, "read").ok(0, "read", I(5));
    s.invoke(0, "write", I(2)).ok(0, "write", I(2));
    const History h = s.build(*model);
    std::vector<const Operation*> order{&h.ops[0], &h.ops[1], &h.ops[2]};
    const ReplayedStates states = replay_states(*model, order);
    CHECK(states.after == std::vector<std::string>{"1"});
  }

  TEST_CASE("report data: a keyed model replays each key from its own initial state") {
    auto model = make_model_from_spec("kv");
    auto S = [](const char* text) { return Value::string(text); };
    EventScript s;
    s.invoke(0, "put", S("x"), S("a")).invoke(1, "put", S("y"), S("b")).ok(0, "put", S("x"), S("a"));
    s.ok(1, "put", S("y"), S("b")).invoke(0, "append", S("z"), S("a")).ok(0, "append", S("z"), S("a"));
    const History h = s.build(*model);
    const CheckResult r = linearizable({1, 0, 4});
    const ReportData data = build_report_data(h, *model, r, {});

    REQUIRE(data.partition_keys == std::vector<std::string>{"\"a\"", "\"b\""});
    CHECK(data.partition_of == std::vector<std::uint32_t>{0, 1, 0});
    CHECK(data.initial_state.size() == 2);
    CHECK(state_after(data, 0).find('x') != std::string::npos);
    CHECK(state_after(data, 2).find("xz") != std::string::npos);
    CHECK(state_after(data, 1).find('y') != std::string::npos);
  }

  TEST_CASE("report data: a violation's core, real-time facts and failing op become op indices") {
    auto model = make_model("register", I(0));
    const History h = worked_example(*model);
    CheckResult r = refuted({0, 1, 3, 5});
    r.core_real_time = {{0, 3}, {1, 5}};
    r.failing_op = 5;
    r.explanation = "D reads 1 after B wrote 2";
    const ReportData data = build_report_data(h, *model, r, {});

    CHECK(data.core == std::vector<std::uint32_t>{0, 1, 2, 3});
    REQUIRE(data.core_facts.size() == 2);
    CHECK(data.core_facts[0] == std::pair<std::uint32_t, std::uint32_t>{0, 2});
    CHECK(data.core_facts[1] == std::pair<std::uint32_t, std::uint32_t>{1, 3});
    CHECK(data.failing == 3);
    CHECK(data.explanation == "D reads 1 after B wrote 2");
    CHECK(data.linearization.empty());
    // Without a prefix there is no order to replay, so no states.
    for (std::int32_t state : data.state_after) CHECK(state == kNone);
  }

  TEST_CASE("report data: with a linearizable prefix, a violation shows the states along it") {
    auto model = make_model("register", I(0));
    const History h = worked_example(*model);
    CheckResult r = refuted({0, 1, 3, 5});
    r.prefix_linearization = {0, 1, 3};
    const ReportData data = build_report_data(h, *model, r, {});
    CHECK(data.prefix == std::vector<std::uint32_t>{0, 1, 2});
    CHECK(state_after(data, 1) == "2");
    CHECK(data.state_after[3] == kNone);
  }

  TEST_CASE("report data: text cannot close the data block, whatever the history holds") {
    auto model = make_model("register", Value());
    EventScript s;
    const Value nasty = Value::string("</script><script>alert(1)</script><!--");
    s.invoke(0, "write", nasty).ok(0, "write", nasty);
    const History h = s.build(*model);
    CheckResult r;
    r.verdict = Verdict::unknown;
    r.reason = "</SCRIPT> in a reason";
    const std::string json =
        report_data_json(build_report_data(h, *model, r, ReportContext{"</script>.edn", "register"}));
    CHECK(json.find('<') == std::string::npos);
    CHECK(json.find("\\u003c/script>\\u003cscript>alert(1)") != std::string::npos);
    CHECK(json.find("\"file\":\"\\u003c/script>.edn\"") != std::string::npos);
  }

  TEST_CASE("report data: a long explanation keeps its head and says how much was left out") {
    auto model = make_model("register", I(0));
    EventScript s;
    s.invoke(0, "write", I(1)).ok(0, "write", I(1));
    const History h = s.build(*model);
    CheckResult r = refuted({0});
    for (int k = 0; k < 1000; ++k) r.explanation += "  - line " + std::to_string(k) + "\n";
    const ReportData data = build_report_data(h, *model, r, {});
    CHECK(data.explanation.size() < kMaxExplanationBytes + 200);
    CHECK(data.explanation.rfind("  - line 0\n", 0) == 0);
    CHECK(data.explanation.find("  - line 199\n") != std::string::npos);
    CHECK(data.explanation.find("line 200\n") == std::string::npos);
    CHECK(data.explanation.find("800 more lines") != std::string::npos);

    r.explanation = "short\nand sweet";
    CHECK(build_report_data(h, *model, r, {}).explanation == "short\nand sweet");

    r.explanation = "one line of " + std::string(200000, 'x');
    const std::string one_line = build_report_data(h, *model, r, {}).explanation;
    CHECK(one_line.size() <= 2 * kMaxExplanationBytes);
    CHECK(one_line.rfind("one line of x", 0) == 0);
  }

  TEST_CASE("report data: the JSON costs a few dozen bytes per op, however many ops repeat a text") {
    auto model = make_model("cas-register", I(0));
    EventScript s;
    constexpr int kOps = 10000;
    for (int k = 0; k < kOps; ++k) {
      const int p = k % 5;
      if (k % 3 == 0) {
        s.invoke(p, "write", I(k % 50)).ok(p, "write", I(k % 50));
      } else {
        s.invoke(p, "read").ok(p, "read", I(k % 3 == 1 ? (k - 1) % 50 : (k - 2) % 50));
      }
    }
    const History h = s.build(*model);
    REQUIRE(h.ops.size() == kOps);
    const CheckResult r = check(h, *model, CheckOptions{.jobs = 1});
    REQUIRE(r.verdict == Verdict::linearizable);
    const ReportData data = build_report_data(h, *model, r, {});
    CHECK(data.strings.size() < 200);  // texts and states are interned
    const std::string json = report_data_json(data);
    MESSAGE("JSON bytes per op: " << json.size() / kOps);
    CHECK(json.size() < 40u * kOps);
    CHECK(testing::count_occurrences(json, "\"write 7\"") == 1);
  }

  TEST_CASE("an independent history's report lists every key, the failing one first, and its lanes start with it") {
    // Key 9 is linearizable; key 2 holds a stale read; key 5 comes last.
    const auto model = make_model_from_spec("independent(register(0))");
    const auto t = [](std::int64_t key, std::int64_t value) { return Value::vector({I(key), I(value)}); };
    EventScript s;
    s.invoke(0, "write", t(9, 1)).ok(0, "write", t(9, 1));
    s.invoke(0, "write", t(2, 1)).ok(0, "write", t(2, 1));
    s.invoke(0, "write", t(2, 2)).ok(0, "write", t(2, 2));
    s.invoke(1, "read", t(2, 0)).ok(1, "read", t(2, 1));
    s.invoke(1, "read", t(5, 0)).ok(1, "read", t(5, 0));
    const History h = s.build(*model);
    const CheckResult r = check(h, *model, {});
    REQUIRE(r.verdict == Verdict::not_linearizable);
    REQUIRE(r.failing_key == "2");
    const ReportData data = build_report_data(h, *model, r, {});
    CHECK(data.partition_keys == std::vector<std::string>{"2", "5", "9"});
    CHECK(data.partition_verdicts == std::vector<std::string>{"not-linearizable", "linearizable", "linearizable"});
    CHECK(report_data_json(data).find("\"partitionVerdicts\":[\"not-linearizable\",\"linearizable\"") !=
          std::string::npos);
  }

  TEST_CASE("report data: a keyed model's refutation decides its failing key only; a linearizable history every key") {
    auto model = make_model_from_spec("kv");
    auto S = [](const char* text) { return Value::string(text); };
    EventScript s;
    // Values first, then keys: x is put a, y is put b, and a get of y reads zz.
    s.invoke(0, "put", S("a"), S("x")).ok(0, "put", S("a"), S("x"));
    s.invoke(1, "put", S("b"), S("y")).ok(1, "put", S("b"), S("y"));
    s.invoke(0, "get", Value(), S("y")).ok(0, "get", S("zz"), S("y"));
    const History h = s.build(*model);
    CheckResult r = refuted({4});
    r.failing_partition = "\"y\"";
    r.partitions = 2;
    ReportData data = build_report_data(h, *model, r, {});
    CHECK(data.partition_keys == std::vector<std::string>{"\"y\"", "\"x\""});
    CHECK(data.partition_verdicts == std::vector<std::string>{"not-linearizable", ""});
    CHECK(data.partition_of == std::vector<std::uint32_t>{1, 0, 0});

    data = build_report_data(h, *model, linearizable({0, 2}), {});
    CHECK(data.partition_verdicts == std::vector<std::string>{"linearizable", "linearizable"});
  }

  TEST_CASE("report data: a violation's sentence and roles, with the op ids in it and in the explanation as links") {
    auto model = make_model("register", I(0));
    const History h = worked_example(*model);
    CheckResult r = refuted({0, 1, 3, 5});
    r.failing_op = 5;
    r.core_minimal = true;
    r.explanation = "  - write 1 (op 0, process 0)\n  - read 1 (op 5, process 3)\nand op 77, which is no op\n";
    ReportData data = build_report_data(h, *model, r, {});

    // Until CheckResult::why is filled, the sentence is made from the failing op.
    CHECK_FALSE(data.why_given);
    CHECK(data.why.starts_with("Op 5 (process 3, read 1) completed at event 7 with a result"));
    CHECK(data.why_links.joined() == data.why);
    REQUIRE(data.why_links.ops.size() == 2);
    CHECK(data.why_links.pieces[0] == "Op 5");
    CHECK(data.why_links.ops[0] == 3);  // op id 5 is op index 3
    CHECK(data.why_links.ops[1] == kNone);

    CHECK(data.explanation_links.joined() == r.explanation);
    std::vector<std::pair<std::string, std::int32_t>> linked;
    for (std::size_t k = 0; k < data.explanation_links.pieces.size(); ++k) {
      if (data.explanation_links.ops[k] != kNone) {
        linked.emplace_back(data.explanation_links.pieces[k], data.explanation_links.ops[k]);
      }
    }
    // Op 77 is not in the history: no link to nowhere.
    CHECK(linked == std::vector<std::pair<std::string, std::int32_t>>{{"op 0", 0}, {"op 5", 3}});

    CHECK(data.role_ops == std::vector<std::uint32_t>{0, 1, 2, 3});
    CHECK(data.roles == std::vector<WhyRole>{WhyRole::context, WhyRole::context, WhyRole::context, WhyRole::refused});
    CHECK_FALSE(data.roles_given);

    r.why = "read 1 (op 5) could read write 1 (op 0) only, which write 2 (op 1) overwrote.";
    r.why_ops = {{5, WhyRole::refused}, {0, WhyRole::source}, {1, WhyRole::cause}, {3, WhyRole::context}};
    data = build_report_data(h, *model, r, {});
    CHECK(data.why_given);
    CHECK(data.why == r.why);
    CHECK(data.roles_given);
    CHECK(data.roles == std::vector<WhyRole>{WhyRole::source, WhyRole::cause, WhyRole::context, WhyRole::refused});
    const std::string json = report_data_json(data);
    CHECK(json.find("\"roles\":{\"op\":[0,1,2,3],\"role\":[\"source\",\"cause\",\"context\",\"refused\"]}") !=
          std::string::npos);
    CHECK(json.find("\"why\":{\"text\":[\"read 1 (\",\"op 5\",") != std::string::npos);
    CHECK(json.find("\"whyGiven\":true") != std::string::npos);
  }

  TEST_CASE("report data: only a violation has a sentence and roles") {
    auto model = make_model("register", Value());
    const History h = lecture_example(*model);
    const ReportData data = build_report_data(h, *model, linearizable({0, 2, 4, 1}), {});
    CHECK(data.why.empty());
    CHECK(data.roles.empty());
    CHECK(data.explanation_links.pieces.empty());
  }

}  // TEST_SUITE("report")
