// The shortening every message and report applies to user data (shorten, declared in
// <ariadne/value.hpp>, implemented in base/text_encoding.cpp).
#include <ariadne/value.hpp>

#include <doctest/doctest.h>

#include <string>

namespace ariadne {
namespace {

TEST_CASE("shorten: long texts keep their head and tail and whole UTF-8 characters") {
  CHECK(shorten("short", 10) == "short");
  const std::string cut = shorten(std::string(100, 'a') + std::string(100, 'b'), 21);
  CHECK(cut.size() <= 21);
  CHECK(cut.front() == 'a');
  CHECK(cut.back() == 'b');
  CHECK(cut.find("\u2026") != std::string::npos);
  // "é" is two bytes: no cut may fall between them.
  std::string accents;
  for (int k = 0; k < 50; ++k) accents += "\u00e9";
  const std::string cut_accents = shorten(accents, 20);
  CHECK(cut_accents.size() <= 20);
  CHECK(cut_accents.substr(0, 2) == "\u00e9");
  CHECK(cut_accents.substr(cut_accents.size() - 2) == "\u00e9");
  CHECK((cut_accents.size() - 3) % 2 == 0);
}

TEST_CASE("shorten: a megabyte name is quoted in under a hundred bytes, a short one whole") {
  CHECK(shorten("read") == "read");
  const std::string quoted = shorten(std::string(1 << 20, 'z'));
  CHECK(quoted.size() <= kQuotedTextLimit);
  CHECK(quoted.find("\u2026") != std::string::npos);
}

}  // namespace
}  // namespace ariadne
