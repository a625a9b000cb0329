// A fast first look at a relaxed history (relaxed_history.hpp) for models with few
// states: the relaxed ops treated as an unlimited supply.
//
// What makes a relaxed history hard for WGL is its relaxed ops: crashed, invoked
// before everything, so at every point the search may place any of them, and which
// ones it has used up is part of every configuration. Here each class of identical
// relaxed ops (same f, argument and key) may instead take effect any number of times.
// The relaxed ops then only move the state, whenever the search likes: from a state
// s, the kept ops may continue from any state of s's closure under the relaxed steps
// (computed once per state, by breadth-first search, so each closure state comes
// with a shortest path of relaxed steps to it). A configuration is just (kept ops
// linearized, state), and the search is WGL's over the kept ops alone.
//
// This over-approximates the relaxed history: every linearization of it is a path
// here (its relaxed ops are relaxed steps taken between two kept ops), so when the
// search exhausts every configuration without reaching the end, the relaxed history
// is not linearizable. A path found is a linearization if it uses no class more
// often than it has members; that is checked, the order is replayed against the
// model and real time, and only then returned. A path that needs more members than a
// class has is not an answer: the search goes on, and an exhausted search that met
// one answers nothing (a configuration it pruned might have led to a path that
// fits).
//
// Answers `undecided` too when the model's closure of some state grows past a bound
// (a queue's relaxed enqueues reach ever longer queues), when more than 4,096 ops are
// kept (the search recurses once per kept op), when the step budget runs out, or
// when the stop signal fires.
#pragma once

#include <ariadne/model.hpp>

#include "refute/relaxed_check.hpp"
#include "refute/relaxed_history.hpp"
#include "search/search_engine.hpp"

#include <cstdint>

namespace ariadne::refute {

struct ClosureDecision {
  RelaxedDecision decision;  // not_linearizable, linearizable (with its witness) or undecided
  // Undecided because some state's closure was too large: the model has too many
  // states for this look, and later relaxed histories of the partition will too.
  bool too_many_states = false;
  std::uint64_t steps = 0;
};

ClosureDecision decide_by_closure(const RelaxedHistory& relaxed, const Model& model, const search::StopSignal& stop,
                                  std::uint64_t step_budget, std::size_t byte_limit);

}  // namespace ariadne::refute
