#include "certify/witness_checker.hpp"

#include "support/history_builder.hpp"

#include <ariadne/check.hpp>

#include <doctest/doctest.h>

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
