// The differential sweep of every engine against brute force (issue 41): which
// models, which histories, and the oracle. The in-process sweep
// (tests/portfolio/engine_sweep_test.cpp) and the command-line one
// (tests/cli/engine_sweep_cli_test.cpp) share them, so both sweep the same histories
// and a finding of either is made again by the same seed and index.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/result.hpp>

#include "support/random_history.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ariadne::testing {

// random_history_models(), then independent(M) of each of them.
std::vector<std::string> sweep_models();

// The shape of history `index`: four kinds in turn (values from a few, crash-heavy,
// crashed duplicates of values from a few, unique values with crashed duplicates),
// of 3 to 10 ops, small enough for brute force on every partition.
RandomHistoryShape sweep_shape(int index);
const char* sweep_shape_name(int index);

// History `index` of `spec` in the sweep seeded `seed`: each history has its own
// generator, seeded by all three, so any one of them can be made again alone.
EventLog sweep_history(const std::string& spec, std::uint64_t seed, int index);

// The oracle: check() with Engine::brute; for independent(M), each key's ops taken
// out of their [key value] tuples here and decided as M by brute force, so the
// oracle does not go through the independent-key code it is compared with.
// unknown only if brute force could not decide (a history too large for it).
Verdict brute_force_verdict(const EventLog& log, const std::string& spec);

// Whether two ops write the same (the same :f, :key and value, of an op that writes:
// a write, cas, enqueue, push, add, put, append or txn), crashed or not.
bool writes_a_value_twice(const History& history);

// The variable `name` of the environment as a count, or `fallback` when it is unset;
// anything but digits throws.
std::uint64_t sweep_env_number(const char* name, std::uint64_t fallback);

// The specs named by the variable `name` (a comma-separated list), or every sweep
// model when it is unset: a full sweep can be split over processes by model.
std::vector<std::string> sweep_models_from_env(const char* name);

// A file name for a spec: "independent(fifo-queue())" -> "independent-fifo-queue".
std::string spec_file_name(const std::string& spec);

// A history as `ariadne corpus DIR` reads it: the `; expected:` and `; model:`
// header, `note` as comment lines, then the events as EDN op maps.
std::string sweep_edn_file(const EventLog& log, const std::string& spec, Verdict expected, const std::string& note);

}  // namespace ariadne::testing
