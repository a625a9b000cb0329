#include "portfolio/imported_refutation.hpp"

#include "models/independent.hpp"
#include "portfolio/confirmation.hpp"
#include "portfolio/independent.hpp"
#include "portfolio/partition.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace ariadne::portfolio {

namespace {

using Held = ImportedRefutationCheck::Answer;

ImportedRefutationCheck failing(std::string why) { return {Held::fails, std::move(why)}; }

// The core's key: its ops' partition of `history` under `model`, which all of them
// must share.
ImportedRefutationCheck check_in_partitions(const History& history, const Model& model, Consistency consistency,
                                            std::span<const std::uint32_t> core, const search::StopSignal& stop,
                                            std::uint64_t memory_limit) {
  if (core.empty()) return failing("it names no operation of the history");
  std::vector<Partition> parts = split(history, model, consistency);
  std::unordered_map<std::uint32_t, std::pair<std::size_t, std::uint32_t>> where;  // id -> partition, index
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const auto& ops = parts[p].sub.ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i) where.emplace(ops[i]->id, std::pair{p, i});
  }
  std::optional<std::size_t> partition;
  std::vector<std::uint32_t> indices;
  for (const std::uint32_t id : core) {
    const auto it = where.find(id);
    if (it == where.end())
      return failing("its core names op " + std::to_string(id) + ", which the history does not have");
    if (partition && *partition != it->second.first) {
      return failing("its core spans keys " + shorten(parts[*partition].key.to_edn()) + " and " +
                     shorten(parts[it->second.first].key.to_edn()) + ", which are checked apart");
    }
    partition = it->second.first;
    indices.push_back(it->second.second);
  }
  Refutation refutation;
  refutation.sub = std::move(parts[*partition].sub);
  refutation.partition = describe_partition(model, parts[*partition]);
  refutation.refuting_ops = std::move(indices);
  refutation.limits = stop;
  // The core, as given, must be refuted: the whole key is decided only if it is the
  // core (confirming a smaller core's key instead would accept a core that is wrong).
  const bool whole = refutation.refuting_ops.size() == refutation.sub.ops.size() || !keeps_real_time(consistency);
  const Confirmation c = confirm_refutation(refutation, model, memory_limit, whole);
  switch (c.answer) {
    case Confirmation::Answer::confirmed: return {Held::holds, {}};
    case Confirmation::Answer::contradicted:
      return failing("the operations of key" + refutation.partition + " are linearizable: " + c.by +
                     " found an order that the certificate checker accepts");
    case Confirmation::Answer::undecided: break;
  }
  if (stop.check() != search::StopSignal::Why::none) return {Held::undecided, "the merge's limits stopped it"};
  return failing("its core, with every other op of key" + refutation.partition +
                 " relaxed, is linearizable, so it proves nothing");
}

}  // namespace

ImportedRefutationCheck check_imported_refutation(const History& history, const Model& model, Consistency consistency,
                                                  std::span<const std::uint32_t> core, const search::StopSignal& stop,
                                                  std::uint64_t memory_limit) {
  const Model* inner = consistency == Consistency::sequential ? nullptr : independent_inner_model(model);
  if (!inner) return check_in_partitions(history, model, consistency, core, stop, memory_limit);
  // independent(MODEL): the key's ops unwrapped, ids kept (models/independent.hpp).
  std::unordered_set<std::uint32_t> wanted(core.begin(), core.end());
  for (KeyHistory& key : split_by_key(history)) {
    const bool mine = std::ranges::any_of(key.history.ops, [&](const Operation& op) { return wanted.contains(op.id); });
    if (mine) return check_in_partitions(key.history, *inner, consistency, core, stop, memory_limit);
  }
  return failing(core.empty()
                     ? "it names no operation of the history"
                     : "its core names op " + std::to_string(core.front()) + ", which the history does not have");
}

}  // namespace ariadne::portfolio
