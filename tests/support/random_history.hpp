// Seeded random histories for every model, small enough for the brute-force oracle.
// Results are drawn from small domains rather than simulated, so a good share of the
// histories are linearizable and a good share are not; crashed (:info and
// never-completed) and failed operations are mixed in.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ariadne::testing {

struct RandomHistoryShape {
  int operations = 6;
  int processes = 3;
  double crash_probability = 0.15;
  double fail_probability = 0.1;
};

// Model names with a generator; each is also a valid make_model_from_spec argument.
std::vector<std::string> random_history_models();

EventLog random_history(const std::string& model_spec, const RandomHistoryShape& shape, std::mt19937_64& rng);

// The ops of `history`'s first partition under `model` (all of them for a model
// that is not partitioned), in call order: one partition, as core questions see it.
std::vector<const Operation*> first_partition(const History& history, const Model& model);

}  // namespace ariadne::testing
