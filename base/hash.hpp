// The project's hash mixing, in one place; and FNV-1a, for fingerprints that must be
// the same on every machine (shards of a corpus or of a history's keys).
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
#include <string_view>

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

// 64-bit FNV-1a (Fowler, Noll and Vo): simple, fixed by its definition, and the same on every platform,
// which std::hash is not required to be.
class Fnv1a64 {
 public:
  void add(std::string_view bytes) {
    for (const char c : bytes) {
      state_ ^= static_cast<unsigned char>(c);
      state_ *= 0x100000001b3ULL;
    }
  }
  // A field and its terminator, so that ("ab", "c") and ("a", "bc") differ.
  void add_field(std::string_view bytes) {
    add(bytes);
    add(std::string_view("\0", 1));
  }
  std::uint64_t value() const { return state_; }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

}  // namespace ariadne::base
