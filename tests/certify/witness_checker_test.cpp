#include "certify/witness_checker.hpp"

#include "support/history_builder.hpp"
#include "support/random_history.hpp"

#include <ariadne/check.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace ariadne;
using testing::EventScript;
using testing::I;

namespace {

// write 1 by p0 completes, then p1 reads 1; p2's write of 2 crashes, concurrent with both.
struct Fixture {
  std::unique_ptr<Model> model = make_model_from_spec("register(0)");
  History h;
  Fixture() {
    EventScript s;
    s.invoke(2, "write", I(2));                       // id 0, crashed
    s.invoke(0, "write", I(1)).ok(0, "write", I(1));  // id 1
    s.invoke(1, "read").ok(1, "read", I(1));          // id 3
    h = s.build(*model);
  }
  std::optional<std::string> verify(std::vector<std::uint32_t> order) const {
    return certify::check_linearization(h, *model, order);
  }
};

}  // namespace

TEST_CASE("a valid witness replays, with or without the crashed op") {
  Fixture f;
  CHECK_FALSE(f.verify({1, 3}).has_value());
  CHECK_FALSE(f.verify({0, 1, 3}).has_value());
}

TEST_CASE("the certificate checker rejects each kind of bad witness") {
  Fixture f;
  auto missing = f.verify({1});
  REQUIRE(missing);
  CHECK(missing->find("leaves out") != std::string::npos);
  auto twice = f.verify({1, 1, 3});
  REQUIRE(twice);
  CHECK(twice->find("twice") != std::string::npos);
  auto unknown = f.verify({1, 2, 3});
  REQUIRE(unknown);
  CHECK(unknown->find("not an operation") != std::string::npos);
  auto backwards = f.verify({3, 1});
  REQUIRE(backwards);
  CHECK(backwards->find("completed before") != std::string::npos);
  auto illegal = f.verify({1, 0, 3});  // the crashed write of 2 lands before the read of 1
  REQUIRE(illegal);
  CHECK(illegal->find("cannot take effect") != std::string::npos);
}

TEST_CASE("verify_linearization, the public API's certificate checker, gives the same answers") {
  Fixture f;
  for (const std::vector<std::uint32_t>& order :
       {std::vector<std::uint32_t>{1, 3}, {0, 1, 3}, {1}, {1, 1, 3}, {3, 1}, {1, 0, 3}}) {
    CAPTURE(order.size());
    CHECK(verify_linearization(f.h, *f.model, order) == f.verify(order));
  }
  CHECK_FALSE(verify_linearization(f.h, *f.model, check(f.h, *f.model, {.jobs = 1}).linearization).has_value());
}

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;

// etcd: p0 writes 1 (id 0); p1's cas 1->2 (id 1) fails, invoked before the write and
// completing after it; p2 reads 1 (id 4), or with `cas_after_write`, the cas is invoked
// only after the write completed, so the register holds 1 all through its interval.
History etcd_failed_cas(const Model& model, bool cas_after_write) {
  EventScript s;
  if (cas_after_write) {
    s.invoke(0, "write", I(1)).ok(0, "write", I(1));
    s.invoke(1, "cas", testing::pair(1, 2)).fail(1, "cas", testing::pair(1, 2));
  } else {
    s.invoke(0, "write", I(1)).invoke(1, "cas", testing::pair(1, 2));
    s.ok(0, "write", I(1)).fail(1, "cas", testing::pair(1, 2));
  }
  s.invoke(2, "read").ok(2, "read", I(1));
  return s.build(model);
}

}  // namespace

TEST_CASE("a witness may leave out an etcd failed cas where its interval allows it (regression)") {
  auto model = make_model_from_spec("etcd");
  const History h = read_history(kSourceDir + "/corpus/regressions/etcd-witness-leaves-out-failed-cas.edn", *model);
  REQUIRE(h.ops.size() == 3);
  REQUIRE(h.ops[1].status == OpStatus::failed);
  CHECK_FALSE(certify::check_linearization(h, *model, std::vector<std::uint32_t>{0, 4}).has_value());
  CHECK_FALSE(verify_linearization(h, *model, std::vector<std::uint32_t>{0, 4}).has_value());
  // Placed by the witness itself, it is checked where it stands.
  CHECK_FALSE(certify::check_linearization(h, *model, std::vector<std::uint32_t>{1, 0, 4}).has_value());
  CHECK(certify::check_linearization(h, *model, std::vector<std::uint32_t>{0, 1, 4}).has_value());
  // The same history built here agrees with the file.
  CHECK_FALSE(certify::check_linearization(etcd_failed_cas(*model, false), *model, std::vector<std::uint32_t>{0, 4})
                  .has_value());
}

TEST_CASE("a left-out failed cas that no point of its interval allows is refused") {
  auto model = make_model_from_spec("etcd");
  const History h = etcd_failed_cas(*model, true);  // ids: write 0, cas 2, read 4
  const auto problem = certify::check_linearization(h, *model, std::vector<std::uint32_t>{0, 4});
  REQUIRE(problem);
  CHECK(problem->find("leaves out op 2") != std::string::npos);
  CHECK(problem->find("no point of its interval") != std::string::npos);
  // check_order, whose callers replay each partition's order as given, still wants it.
  CHECK(certify::check_order(h, *model, std::vector<std::uint32_t>{0, 4}).has_value());
}

TEST_CASE("left-out failed cas keep their real-time order among themselves") {
  // p0 writes 1, then, while p0's write of 3 is in flight, a cas 1->2 fails and after
  // it a cas 3->4 fails; then p1 reads 3.
  auto model = make_model_from_spec("etcd");
  EventScript s;
  s.invoke(0, "write", I(1)).ok(0, "write", I(1));                              // id 0
  s.invoke(0, "write", I(3));                                                   // id 2
  s.invoke(1, "cas", testing::pair(1, 2)).fail(1, "cas", testing::pair(1, 2));  // id 3
  s.invoke(2, "cas", testing::pair(3, 4)).fail(2, "cas", testing::pair(3, 4));  // id 5
  s.ok(0, "write", I(3));
  s.invoke(1, "read").ok(1, "read", I(3));  // id 8
  const History h = s.build(*model);
  // The cas 1->2 stands only after the write of 3 took effect (before it the register
  // holds 1), and the cas 3->4, which real time puts after the cas 1->2, only before
  // it: no place for both. (Placed one by one, each alone would fit.)
  const auto problem = certify::check_linearization(h, *model, std::vector<std::uint32_t>{0, 2, 8});
  REQUIRE(problem);
  CHECK(problem->find("no point of its interval") != std::string::npos);
  // Without the real-time link between them (the cas 3->4 alone), it fits before the
  // write of 3.
  EventScript t;
  t.invoke(0, "write", I(1)).ok(0, "write", I(1));                              // id 0
  t.invoke(0, "write", I(3));                                                   // id 2
  t.invoke(2, "cas", testing::pair(3, 4)).fail(2, "cas", testing::pair(3, 4));  // id 3
  t.ok(0, "write", I(3));
  t.invoke(1, "read").ok(1, "read", I(3));  // id 6
  const History alone = t.build(*model);
  CHECK_FALSE(certify::check_linearization(alone, *model, std::vector<std::uint32_t>{0, 2, 6}).has_value());
}

TEST_CASE("left-out failed cas: random etcd histories, against the verdict") {
  // A linearizable history's witness stays one with its failed cas left out; a
  // history that is not linearizable has no witness, so no order of its other ops,
  // failed cas left out, may pass.
  auto model = make_model_from_spec("etcd");
  std::mt19937_64 rng(11);
  int left_out = 0, refuted = 0;
  for (int i = 0; i < 1500; ++i) {
    testing::RandomHistoryShape shape;
    shape.operations = 3 + i % 4;
    shape.processes = 3;
    shape.crash_probability = i % 3 == 0 ? 0.3 : 0.1;
    const History h = build_history(testing::random_history("etcd", shape, rng), *model);
    CAPTURE(i);
    std::vector<std::uint32_t> kept;
    for (const Operation& op : h.ops) {
      if (op.status != OpStatus::failed) kept.push_back(op.id);
    }
    if (kept.size() == h.ops.size()) continue;
    const CheckResult result = check(h, *model, {.engine = Engine::brute, .jobs = 1});
    if (result.verdict == Verdict::linearizable) {
      std::vector<std::uint32_t> order;
      for (const std::uint32_t id : result.linearization) {
        if (std::find(kept.begin(), kept.end(), id) != kept.end()) order.push_back(id);
      }
      CHECK_FALSE(certify::check_linearization(h, *model, order).has_value());
      ++left_out;
    } else if (result.verdict == Verdict::not_linearizable) {
      std::sort(kept.begin(), kept.end());
      do {
        CHECK(certify::check_linearization(h, *model, kept).has_value());
      } while (std::next_permutation(kept.begin(), kept.end()));
      ++refuted;
    }
  }
  CHECK(left_out > 20);
  CHECK(refuted > 20);
}
