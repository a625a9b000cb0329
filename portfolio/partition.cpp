#include "portfolio/partition.hpp"

#include <unordered_map>

namespace ariadne::portfolio {

std::vector<Partition> split(const History& history, const Model& model, Consistency consistency) {
  std::vector<Partition> parts;
  if (!splits_by_key(model, consistency)) {
    if (history.ops.empty()) return parts;
    parts.emplace_back();
    parts.back().sub.consistency = consistency;
    for (const Operation& op : history.ops) parts.back().sub.ops.push_back(&op);
    return parts;
  }
  std::unordered_map<Value, std::size_t, ValueHash> index;
  for (const Operation& op : history.ops) {
    Value key = model.partition_key(op);
    auto [it, inserted] = index.try_emplace(key, parts.size());
    if (inserted) {
      parts.emplace_back();
      parts.back().key = key;
      parts.back().sub.consistency = consistency;
    }
    parts[it->second].sub.ops.push_back(&op);
  }
  return parts;
}

std::string describe_partition(const Model& model, const Partition& p) {
  return splits_by_key(model, p.sub.consistency) ? " on key " + shorten(p.key.to_edn()) : std::string();
}

}  // namespace ariadne::portfolio
