// How Value prints a double in EDN and JSON (base/value.cpp): the fewest digits that
// read back as the same double, as a person would write it, a whole number with its
// ".0" so that it reads back as a double, and EDN's ##Inf and ##NaN (JSON's null).
#include <ariadne/history.hpp>
#include <ariadne/value.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

using ariadne::Value;

TEST_SUITE("base") {
  TEST_CASE("doubles print in the fewest digits that read back as the same double") {
    struct Case {
      double d;
      const char* text;
    };
    const Case cases[] = {
        {0.204605, "0.204605"},  // %.17g: 0.20460500000000001
        {0.1, "0.1"},            // %.17g: 0.10000000000000001
        {12.1, "12.1"},
        {1.0, "1.0"},
        {-0.0, "-0.0"},
        {100.0, "100.0"},
        {1e21, "1e+21"},
        {1.5e-7, "1.5e-07"},
        {0.30000000000000004, "0.30000000000000004"},  // 0.1 + 0.2: every digit needed
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      CHECK(Value::floating(c.d).to_edn() == c.text);
      CHECK(Value::floating(c.d).to_json() == c.text);
    }
    CHECK(Value::floating(std::numeric_limits<double>::infinity()).to_edn() == "##Inf");
    CHECK(Value::floating(-std::numeric_limits<double>::infinity()).to_edn() == "##-Inf");
    CHECK(Value::floating(std::nan("")).to_edn() == "##NaN");
    CHECK(Value::floating(std::nan("")).to_json() == "null");
    CHECK(Value::vector({Value::floating(0.5), Value::floating(2.0)}).to_json() == "[0.5,2.0]");
  }

  TEST_CASE("every printed double reads back as the same double, in EDN and in JSON") {
    const unsigned seed = std::random_device{}();
    INFO("seed ", seed);
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::uint64_t> bits;
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t b = bits(random);
      double d;
      static_assert(sizeof d == sizeof b);
      std::memcpy(&d, &b, sizeof d);
      if (!std::isfinite(d)) continue;
      const Value v = Value::floating(d);
      CAPTURE(v.to_edn());
      const Value edn = ariadne::parse_edn_value(v.to_edn(), "edn");
      const Value json = ariadne::parse_json_value(v.to_json(), "json");
      REQUIRE(edn.kind() == Value::Kind::floating);
      REQUIRE(json.kind() == Value::Kind::floating);
      const double from_edn = edn.as_floating();
      const double from_json = json.as_floating();
      CHECK(std::memcmp(&d, &from_edn, sizeof d) == 0);
      CHECK(std::memcmp(&d, &from_json, sizeof d) == 0);
    }
  }
}
