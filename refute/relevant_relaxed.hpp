// Which relaxed ops can matter to a relaxed history's verdict (see relaxed_history.hpp).
//
// Deciding "is S a core?" means deciding a history in which every op outside S is
// relaxed: a crashed op invoked before everything. When S is small and the partition
// large, nearly every op is relaxed, and a search or a solver must consider placing
// each of them anywhere: that, not S, is what a core decision costs. Most relaxed ops
// cannot matter to S, and leaving those out changes no verdict: leaving ops out only
// removes linearizations, and for each rule in relevant_relaxed.cpp the soundness
// argument there shows that every linearization of the full relaxed history gives one
// without the ops left out. So a decision costs about the size of S, not of the
// partition.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "models/semantics.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <vector>

namespace ariadne::refute {

class RelaxedRelevance {
 public:
  // `ops`: one partition in ascending call order. Models without semantics (defined
  // outside models/) get no rules: every relaxed op is kept.
  RelaxedRelevance(std::span<const Operation* const> ops, const Model& model);

  // Per op of the partition: true when it is relaxed (keep[i] false) and can be left
  // out of the relaxed history of `keep` without changing its verdict.
  std::vector<bool> irrelevant(const std::vector<bool>& keep) const;
  // The ops outside `candidate` that can be left out of the relaxed history of every
  // subset of `candidate` at once (for one formula that decides them all, see
  // switchable_check.hpp). Never marks an op of `candidate`.
  std::vector<bool> irrelevant_to_every_subset(const std::vector<bool>& candidate) const;

  // Register models: widens a refutation's hint (`needed`, per op) with every op that
  // could write what a needed op read once relaxed (a failed cas that would then
  // succeed), since relaxing any of them reopens the read. Other models: unchanged.
  void add_potential_writers(std::vector<bool>& needed) const;

  // The description the rules read: its first ops are the partition's as recorded
  // (then their relaxed twins, sharing value ids). nullptr without semantics.
  const models::Semantics* semantics() const { return semantics_ ? &*semantics_ : nullptr; }
  // With semantics: op i's meaning as recorded, and its relaxed twin's (an op with
  // none means nothing).
  const models::OpMeaning& recorded(std::uint32_t i) const { return semantics_->ops[i]; }
  const models::OpMeaning& relaxed(std::uint32_t i) const;

 private:
  // With `subsets`, what can be left out for every subset of `keep`, each rule
  // widened as its comment says.
  std::vector<bool> leave_out(const std::vector<bool>& keep, bool subsets) const;
  std::vector<bool> irrelevant_registers(const std::vector<bool>& keep, bool subsets) const;
  std::vector<bool> irrelevant_containers(const std::vector<bool>& keep, bool subsets) const;
  std::vector<bool> irrelevant_set(const std::vector<bool>& keep) const;
  std::vector<bool> irrelevant_mutex(const std::vector<bool>& keep) const;

  std::size_t size_ = 0;
  // The partition's ops as recorded, then each op's relaxed twin, in one description
  // so that both share value ids; nullopt without semantics.
  std::optional<models::Semantics> semantics_;
  static constexpr std::uint32_t kNoTwin = 0xffffffffu;
  std::vector<std::uint32_t> relaxed_at_;      // per op: its twin's index in semantics_->ops
  std::set<std::uint32_t> keys_with_appends_;  // registers: keys some op appends to
};

}  // namespace ariadne::refute
