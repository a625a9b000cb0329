// Locality [HerlihyWing90] says per-key linearizations can always be combined; this is
// the constructive side. Repeatedly take the chain head whose chain suffix has the
// smallest return time. Why it is safe: for the chosen head h, every op z after h in
// its own chain has z.ret >= h.call (its chain respects real time) and so does h
// itself, so the key K(h) = min ret over h's suffix is >= h.call; every op x left
// anywhere has x.ret >= K(its chain) >= K(h) >= h.call, so nothing left was forced
// before h. Suffix minima are precomputed, so the merge is O(n log k) for k chains.
#include "portfolio/merge.hpp"

#include <queue>

namespace ariadne::portfolio {

std::vector<std::uint32_t> merge_linearizations(const std::vector<std::vector<const Operation*>>& chains) {
  std::vector<std::vector<std::uint64_t>> suffix_min(chains.size());
  std::size_t total = 0;
  for (std::size_t c = 0; c < chains.size(); ++c) {
    const auto& chain = chains[c];
    total += chain.size();
    auto& mins = suffix_min[c];
    mins.resize(chain.size());
    std::uint64_t m = kNever;
    for (std::size_t i = chain.size(); i-- > 0;) {
      m = std::min(m, chain[i]->ret);
      mins[i] = m;
    }
  }
  struct Head {
    std::uint64_t key;
    std::uint64_t call;  // tie-break: earlier invocation first, for a natural reading order
    std::size_t chain;
    bool operator>(const Head& o) const { return key != o.key ? key > o.key : call > o.call; }
  };
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  std::vector<std::size_t> pos(chains.size(), 0);
  for (std::size_t c = 0; c < chains.size(); ++c) {
    if (!chains[c].empty()) heads.push({suffix_min[c][0], chains[c][0]->call, c});
  }
  std::vector<std::uint32_t> order;
  order.reserve(total);
  while (!heads.empty()) {
    Head h = heads.top();
    heads.pop();
    order.push_back(chains[h.chain][pos[h.chain]]->id);
    std::size_t next = ++pos[h.chain];
    if (next < chains[h.chain].size()) {
      heads.push({suffix_min[h.chain][next], chains[h.chain][next]->call, h.chain});
    }
  }
  return order;
}

}  // namespace ariadne::portfolio
