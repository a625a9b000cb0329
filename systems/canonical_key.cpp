#include "systems/canonical_key.hpp"

namespace ariadne::systems {

namespace {

constexpr std::uint32_t kNilName = 0xFFFFFFFFu;

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace

std::uint32_t CanonicalKey::rename(Val v) {
  if (v == kNil) return kNilName;
  for (const auto& [original, name] : names_)
    if (original == v) return name;
  const auto name = static_cast<std::uint32_t>(names_.size() + 1);
  names_.emplace_back(v, name);
  return name;
}

std::uint32_t CanonicalKey::name_if_seen(Val v) const {
  if (v == kNil) return kNilName;
  for (const auto& [original, name] : names_)
    if (original == v) return name;
  return 0;
}

KeyHash CanonicalKey::hash() const {
  std::uint64_t high = 0x9e3779b97f4a7c15ULL ^ words_.size();
  std::uint64_t low = 0xc2b2ae3d27d4eb4fULL + words_.size();
  for (const std::uint32_t word : words_) {
    high = mix(high ^ word);
    low = mix(low + word * 0xff51afd7ed558ccdULL);
  }
  return {high, low};
}

}  // namespace ariadne::systems
