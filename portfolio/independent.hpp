// check() of an independent(MODEL) history (models/independent.cpp): every key
// checked as a history of MODEL, in parallel, with the answers composed as Jepsen's
// independent checker composes them.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <string>
#include <vector>

namespace ariadne::portfolio {

// One key of an independent history: its ops unwrapped for MODEL (independent_unwrap),
// with their original ids and times.
struct KeyHistory {
  Value key;
  History history;
};

// The keys in order of first appearance.
std::vector<KeyHistory> split_by_key(const History& history);

// The first line of a refuted independent history's explanation: "Key K (n of the
// history's N operations) is not linearizable; so are 2 more of the 7 keys (:a, :b);
// what follows is about key K's operations alone." `other_refuted` are the other
// refuted keys' EDN texts, in order of first appearance (the first 10 are named).
// Shared with the merge of key shards (cli/check/key_shards.hpp), so that a merged
// answer reads as an unsharded one.
std::string refuted_key_header(const std::string& failing_key, std::size_t key_operations,
                               std::size_t history_operations, const std::vector<std::string>& other_refuted,
                               std::size_t keys, Consistency consistency);

// `model` is the independent one, `inner` its MODEL.
CheckResult check_independent(const History& history, const Model& model, const Model& inner,
                              const CheckOptions& options);

}  // namespace ariadne::portfolio
