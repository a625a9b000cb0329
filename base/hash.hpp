// The project's hash mixing, in one place.
//
// splitmix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014): a cheap bijection on 64 bits after which every output
// bit depends on every input bit, so that hash tables may index by the low bits (or
// shard by the high ones) of keys whose variation sits elsewhere. kGoldenGamma is
// splitmix64's increment (2^64 divided by the golden ratio), the usual odd constant
// to add before mixing so that zero does not map to zero.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ariadne::base {

inline constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

inline std::uint64_t splitmix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// Folds `h` into `seed` (Boost's hash_combine): for hashes of compound values, where
// the parts' order matters.
inline std::size_t hash_combine(std::size_t seed, std::size_t h) {
  return seed ^ (h + kGoldenGamma + (seed << 6) + (seed >> 2));
}

}  // namespace ariadne::base
