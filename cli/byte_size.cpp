// See byte_size.hpp for the accepted forms and why suffixes are binary.
#include "cli/byte_size.hpp"

#include "cli/trimmed.hpp"

#include <ariadne/errors.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <utility>

namespace ariadne::cli {

namespace {

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::uint64_t parse_byte_size(std::string_view text, std::string_view option) {
  const auto fail = [&]() -> UsageError {
    return UsageError(std::string(option) + ": expected a number of bytes such as 512M or 2GiB, got '" +
                      std::string(text) + "'");
  };
  const std::string_view value = trimmed(text);
  std::size_t number_end = 0;
  while (number_end < value.size() &&
         (std::isdigit(static_cast<unsigned char>(value[number_end])) || value[number_end] == '.')) {
    ++number_end;
  }
  if (number_end == 0) throw fail();

  const std::string_view digits = value.substr(0, number_end);
  const bool fractional = digits.find('.') != std::string_view::npos;
  const std::string suffix = lowercase(trimmed(value.substr(number_end)));

  std::uint64_t multiplier = 0;
  if (suffix.empty() || suffix == "b") {
    multiplier = 1;
  } else {
    const std::string_view unit = std::string_view(suffix).substr(1);
    if (unit != "" && unit != "ib" && unit != "b") throw fail();
    switch (suffix.front()) {
      case 'k': multiplier = 1ULL << 10; break;
      case 'm': multiplier = 1ULL << 20; break;
      case 'g': multiplier = 1ULL << 30; break;
      case 't': multiplier = 1ULL << 40; break;
      default: throw fail();
    }
  }

  std::uint64_t bytes = 0;
  if (fractional) {
    double number = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (error != std::errc() || end != digits.data() + digits.size()) throw fail();
    const double total = std::floor(number * static_cast<double>(multiplier));
    if (!(total < 18446744073709551616.0)) throw fail();  // 2^64: would not fit
    bytes = static_cast<std::uint64_t>(total);
  } else {
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (error != std::errc() || end != digits.data() + digits.size()) throw fail();
    if (number > UINT64_MAX / multiplier) throw fail();
    bytes = number * multiplier;
  }
  if (bytes == 0) throw UsageError(std::string(option) + ": must be at least one byte");
  return bytes;
}

std::string byte_size_text(std::uint64_t bytes) {
  for (const auto& [shift, unit] : {std::pair{30, "GiB"}, std::pair{20, "MiB"}, std::pair{10, "KiB"}}) {
    const std::uint64_t size = std::uint64_t{1} << shift;
    if (bytes != 0 && bytes % size == 0) return std::to_string(bytes / size) + unit;
  }
  return std::to_string(bytes);
}

}  // namespace ariadne::cli
