#include "systems/canonical_key.hpp"

#include "base/hash.hpp"

namespace ariadne::systems {

namespace {

constexpr std::uint32_t kNilName = 0xFFFFFFFFu;

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
  std::uint64_t high = base::kGoldenGamma ^ words_.size();
  std::uint64_t low = 0xc2b2ae3d27d4eb4fULL + words_.size();
  for (const std::uint32_t word : words_) {
    high = base::splitmix64(high ^ word);
    low = base::splitmix64(low + word * 0xff51afd7ed558ccdULL);
  }
  return {high, low};
}

}  // namespace ariadne::systems
