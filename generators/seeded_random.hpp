// Seeded random draws whose results are the same on every platform. The standard's
// engines (std::mt19937_64) are fully specified, but its distributions are not: the
// same seed gives different numbers under libstdc++, libc++ and MSVC. Generated
// histories promise byte-identical output for a given seed, so the generators draw
// through these helpers instead of std::uniform_int_distribution and friends.
#pragma once

#include <cstdint>
#include <random>

namespace ariadne::generators {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, bound); bound must be positive. Rejection sampling removes the
  // bias a plain `% bound` would have.
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t draw = engine_();
    while (draw >= limit) draw = engine_();
    return draw % bound;
  }

  // Uniform in [low, high]; low <= high.
  std::uint64_t between(std::uint64_t low, std::uint64_t high) { return low + below(high - low + 1); }

  // True with probability `probability`. The top 53 bits make an exact double in
  // [0, 1), so the comparison is the same wherever IEEE doubles are.
  bool chance(double probability) {
    const double unit = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    return unit < probability;
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace ariadne::generators
