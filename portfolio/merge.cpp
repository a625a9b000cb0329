// Locality [HerlihyWing90] says per-key linearizations can always be combined; this is
// the constructive side. Repeatedly take the chain head whose chain suffix has the
// smallest return time. Why it is safe: for the chosen head h, every op z after h in
// its own chain has z.ret >= h.call (its chain respects real time) and so does h
// itself, so the key K(h) = min ret over h's suffix is >= h.call; every op x left
// anywhere has x.ret >= K(its chain) >= K(h) >= h.call, so nothing left was forced
// before h. Suffix minima are precomputed, so the merge is O(n log k) for k chains.
#include "portfolio/merge.hpp"

#include <algorithm>
#include <queue>

namespace ariadne::portfolio {

std::vector<ChainLink> make_chain(std::span<const Operation* const> ops_in_order) {
  std::vector<ChainLink> chain(ops_in_order.size());
  std::uint64_t earliest = kNever;
  for (std::size_t i = ops_in_order.size(); i-- > 0;) {
    const Operation& op = *ops_in_order[i];
    earliest = std::min(earliest, op.ret);
    chain[i] = ChainLink{earliest, op.call, op.id};
  }
  return chain;
}

std::vector<std::uint32_t> merge_chains(const std::vector<std::vector<ChainLink>>& chains) {
  struct Head {
    std::uint64_t key;
    std::uint64_t call;  // tie-break: earlier invocation first, for a natural reading order
    std::size_t chain;
    bool operator>(const Head& o) const { return key != o.key ? key > o.key : call > o.call; }
  };
  // One chain (a history of one object, most of them) merges into itself.
  const auto non_empty = [](const std::vector<ChainLink>& chain) { return !chain.empty(); };
  if (std::count_if(chains.begin(), chains.end(), non_empty) <= 1) {
    std::vector<std::uint32_t> order;
    for (const auto& chain : chains) {
      order.reserve(order.size() + chain.size());
      for (const ChainLink& link : chain) order.push_back(link.id);
    }
    return order;
  }
  std::size_t total = 0;
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  for (std::size_t c = 0; c < chains.size(); ++c) {
    total += chains[c].size();
    if (!chains[c].empty()) heads.push({chains[c][0].suffix_min_ret, chains[c][0].call, c});
  }
  std::vector<std::size_t> pos(chains.size(), 0);
  std::vector<std::uint32_t> order;
  order.reserve(total);
  while (!heads.empty()) {
    const Head h = heads.top();
    heads.pop();
    const auto& chain = chains[h.chain];
    order.push_back(chain[pos[h.chain]].id);
    const std::size_t next = ++pos[h.chain];
    if (next < chain.size()) heads.push({chain[next].suffix_min_ret, chain[next].call, h.chain});
  }
  return order;
}

std::vector<std::uint32_t> merge_linearizations(const std::vector<std::vector<const Operation*>>& chains) {
  std::vector<std::vector<ChainLink>> links;
  links.reserve(chains.size());
  for (const auto& chain : chains) links.push_back(make_chain(chain));
  return merge_chains(links);
}

}  // namespace ariadne::portfolio
