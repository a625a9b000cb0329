// The certificate checker: replays a claimed linearization against the history and
// the model. It is deliberately small and shares no code with any engine (it depends
// on history and models only), so a "linearizable" answer can be trusted without
// trusting the search that found it.
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ariadne::certify {

// Returns nullopt when `order` (op ids) is a valid linearization of `history`:
// every :ok op exactly once, crashed ops at most once, no unknown or dropped id,
// real-time order respected, and the model reproduces every observed result. A failed
// op kept as an observation (etcd's failed cas) is placed at most once; one left out
// (a linearization lists :ok ops and crashed ops that took effect, docs/command-line.md) must fit,
// changing nothing, at some point its interval allows, which the replay finds (under
// the sequential conditions it must be placed). Otherwise, a sentence saying what is
// wrong.
std::optional<std::string> check_linearization(const History& history, const Model& model,
                                               std::span<const std::uint32_t> order);
// The same under `consistency` (consistency.hpp): under the sequential conditions,
// program order in place of real time: no completed op is placed after an op its own
// process invoked later (under sequential-per-key, later on the same key).
std::optional<std::string> check_linearization(const History& history, const Model& model,
                                               std::span<const std::uint32_t> order, Consistency consistency);

// The same checks in two parts, so that a large keyed history's legality can be
// replayed partition by partition, in parallel, as each partition is decided:
// check_order covers membership and real time for the whole history, and
// check_legality replays the ops of one partition (or of an unpartitioned history) in
// the order the linearization puts them. check_linearization is check_order plus
// check_legality of every partition.
std::optional<std::string> check_order(const History& history, const Model& model, std::span<const std::uint32_t> order,
                                       Consistency consistency = Consistency::linearizable);
std::optional<std::string> check_legality(const Model& model, std::span<const Operation* const> ops_in_order);
// check_legality, also saying in `end_state` the state the replay ends in, as
// CompiledModel::state_value() gives it (nullopt when the replay may end in several
// states or the model cannot say): check --follow starts the next stretch of a history
// from the state its replay, not the search, ends in.
std::optional<std::string> check_legality(const Model& model, std::span<const Operation* const> ops_in_order,
                                          std::optional<Value>& end_state);

// Whether a problem the checks above report says only that the replay branched into
// more states than it tracks: the order may be right, it just cannot be checked.
bool uncheckable(std::string_view problem);

}  // namespace ariadne::certify
