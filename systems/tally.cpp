#include "systems/system_design.hpp"

namespace ariadne::systems {

void Tally::add(std::string_view counter, std::uint64_t amount) {
  for (auto& [name, total] : counters_)
    if (name == counter) {
      total += amount;
      return;
    }
  counters_.emplace_back(std::string(counter), amount);
}

void Tally::merge(const Tally& other) {
  for (const auto& [name, amount] : other.counters_) add(name, amount);
}

}  // namespace ariadne::systems
