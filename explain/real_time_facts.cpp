#include "explain/real_time_facts.hpp"

#include <algorithm>

namespace ariadne::explain {

std::vector<RealTimeFact> real_time_facts(std::span<const Operation* const> ops) {
  std::vector<const Operation*> sorted(ops.begin(), ops.end());
  std::sort(sorted.begin(), sorted.end(), [](const Operation* a, const Operation* b) { return a->ret < b->ret; });
  std::vector<RealTimeFact> facts;
  for (const Operation* a : sorted) {
    for (const Operation* b : ops) {
      if (!a->precedes(*b)) continue;
      // Implied when some c fits between them: a before c, and c before b.
      const bool implied =
          std::any_of(ops.begin(), ops.end(), [&](const Operation* c) { return a->precedes(*c) && c->precedes(*b); });
      if (!implied) facts.push_back({a->id, b->id});
    }
  }
  return facts;
}

}  // namespace ariadne::explain
