// splitmix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014): a cheap bijection on 64 bits after which every output
// bit depends on every input bit, so that hash tables may index by the low bits (or
// shard by the high ones) of keys whose variation sits elsewhere.
#pragma once

#include <cstdint>

namespace ariadne::models {

inline std::uint64_t splitmix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace ariadne::models
