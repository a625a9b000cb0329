// The random draws of random trajectories. Each trajectory gets its own generator,
// seeded from (--seed, trajectory number), so a trajectory is the same whichever
// thread runs it and whatever --jobs is. splitmix64 [Steele14] is a few instructions
// per draw; the standard engines' seeding alone would cost more than a whole
// fifteen-step trajectory.
#pragma once

#include <cstdint>

namespace ariadne::explore {

class FastRandom {
 public:
  FastRandom(std::uint64_t seed, std::uint64_t stream) : state_(seed * 0x9e3779b97f4a7c15ULL ^ mix(stream + 1)) {}

  std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    return mix(state_);
  }
  // Uniform in [0, bound) by multiply-shift [Lemire19]; the bias, at most bound/2^32,
  // is far below anything a few successors could show.
  std::size_t below(std::size_t bound) {
    return static_cast<std::size_t>(((next() >> 32) * static_cast<std::uint64_t>(bound)) >> 32);
  }

 private:
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t state_;
};

}  // namespace ariadne::explore
