// Pairing events into operations (history/build_history.cpp): Jepsen's semantics, and
// a located error for every history no harness could have recorded.
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

using namespace ariadne;

namespace {

History pair_up(const std::string& edn, const std::string& spec = "cas-register(0)") {
  auto model = make_model_from_spec(spec);
  return build_history(parse_events(edn, "h.edn", Format::edn), *model);
}

// The error's position and a fragment of its message.
void expect_error(const std::string& edn, SourcePos pos, const std::string& fragment,
                  const std::string& spec = "cas-register(0)") {
  try {
    pair_up(edn, spec);
    FAIL("expected an InputError for: ", edn);
  } catch (const InputError& e) {
    INFO(e.what());
    CHECK(e.source() == "h.edn");
    CHECK(e.pos().line == pos.line);
    CHECK(e.pos().column == pos.column);
    CHECK(e.message().find(fragment) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("ok ops take the completion's value and failed ops are dropped") {
  History h = pair_up(
      "[{:process 0 :type :invoke :f :read :value nil}\n"
      " {:process 1 :type :invoke :f :cas :value [0 1]}\n"
      " {:process 1 :type :fail :f :cas :value [0 1]}\n"
      " {:process 0 :type :ok :f :read :value 3}]");
  REQUIRE(h.ops.size() == 1);
  CHECK(h.ops[0].id == 0);
  CHECK(h.ops[0].status == OpStatus::ok);
  CHECK(h.ops[0].value == Value::integer(3));
  CHECK(h.ops[0].call == 0);
  CHECK(h.ops[0].ret == 3);
}

TEST_CASE("info completions and missing completions are crashed ops with the invocation's value") {
  History h = pair_up(
      "[{:process 0 :type :invoke :f :write :value 1}\n"
      " {:process 0 :type :info :f :write :value :timeout}\n"
      " {:process 1 :type :invoke :f :write :value 2}]");
  REQUIRE(h.ops.size() == 2);
  for (const Operation& op : h.ops) {
    CHECK(op.status == OpStatus::crashed);
    CHECK(op.ret == kNever);
  }
  CHECK(h.ops[0].value == Value::integer(1));
}

TEST_CASE("nemesis events and stray info events are ignored but keep their place in the ids") {
  History h = pair_up(
      "[{:process :nemesis :type :info :f :start :value nil}\n"
      " {:process 3 :type :info :f :read :value nil}\n"
      " {:process 0 :type :invoke :f :read :value nil}\n"
      " {:process 0 :type :ok :f :read :value 0}]");
  REQUIRE(h.ops.size() == 1);
  CHECK(h.ops[0].id == 2);
}

TEST_CASE("the etcd model keeps a failed cas as an observation") {
  History h = pair_up(
      "{:process 0, :type :invoke, :f :cas, :value [1 2]}\n"
      "{:process 0, :type :fail, :f :cas, :value [1 2]}\n",
      "etcd");
  REQUIRE(h.ops.size() == 1);
  CHECK(h.ops[0].status == OpStatus::failed);
  CHECK(h.ops[0].must_take_effect());
}

TEST_CASE("histories no harness could record are rejected with their position") {
  expect_error("[{:process 0 :type :ok :f :read :value 1}]", {1, 2}, "no open invocation");
  expect_error(
      "[{:process 0 :type :invoke :f :read :value nil}\n"
      " {:process 0 :type :invoke :f :write :value 1}]",
      {2, 2}, "still open");
  expect_error(
      "[{:process 0 :type :invoke :f :write :value 1}\n"
      " {:process 0 :type :info :f :write :value 1}\n"
      " {:process 0 :type :invoke :f :read :value nil}]",
      {3, 2}, "after its operation crashed");
  expect_error(
      "[{:process 0 :type :invoke :f :write :value 1}\n"
      " {:process 0 :type :ok :f :read :value 1}]",
      {2, 2}, "does not match");
  expect_error(
      "[{:process 0 :type :invoke :f :cas :value 3}\n"
      " {:process 0 :type :ok :f :cas :value 3}]",
      {2, 2}, "[old new]");
  expect_error("[{:process 0 :type :invoke :f :enqueue :value 1}]", {1, 2}, "unknown operation");
}
