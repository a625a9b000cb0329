// The random draws of random trajectories. Each trajectory gets its own generator,
// seeded from (--seed, trajectory number), so a trajectory is the same whichever
// thread runs it and whatever --jobs is. splitmix64 [Steele14] is a few instructions
// per draw; the standard engines' seeding alone would cost more than a whole
// fifteen-step trajectory.
#pragma once

#include "base/hash.hpp"

#include <cstdint>

namespace ariadne::explore {

class FastRandom {
 public:
  FastRandom(std::uint64_t seed, std::uint64_t stream)
      : state_(seed * base::kGoldenGamma ^ base::splitmix64(stream + 1)) {}

  std::uint64_t next() {
    state_ += base::kGoldenGamma;
    return base::splitmix64(state_);
  }
  // Uniform in [0, bound) by multiply-shift [Lemire19]; the bias, at most bound/2^32,
  // is far below anything a few successors could show.
  std::size_t below(std::size_t bound) {
    return static_cast<std::size_t>(((next() >> 32) * static_cast<std::uint64_t>(bound)) >> 32);
  }

 private:
  std::uint64_t state_;
};

}  // namespace ariadne::explore
