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

// `model` is the independent one, `inner` its MODEL.
CheckResult check_independent(const History& history, const Model& model, const Model& inner,
                              const CheckOptions& options);

}  // namespace ariadne::portfolio
