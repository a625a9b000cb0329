// Seeded random histories for every model, small enough for the brute-force oracle.
// Results are drawn from small domains rather than simulated, so a good share of the
// histories are linearizable and a good share are not; crashed (:info and
// never-completed) and failed operations are mixed in. Two options of the shape
// reach what those draws rarely do: histories of unique values, which the
// unique-value engines decide instead of declining, and crashed duplicates, a value
// written twice of which one write crashed (issue 41: the unique-value queue test
// took a crashed enqueue of a value already enqueued for a second, distinct value).
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
  // Values drawn from a few per model (the default), so most histories write some
  // value twice; or unique: every value written, enqueued, pushed, added, put or
  // appended is new, and reads and removals return a value written so far (now and
  // then one never written).
  bool unique_values = false;
  // The chance that an op writing a value writes instead exactly what an earlier
  // such op wrote, and that one of the two crashes (the new one, or, while it is
  // still open, sometimes the earlier one). 0 draws nothing more, so a seed gives the
  // histories it always gave.
  double crashed_duplicate_probability = 0;
  // fifo-queue, stack, unordered-queue, the priority queues: the chance that a
  // dequeue, pop, poll or peek returns :empty, the observation that it found the
  // container empty (models/container_op.hpp), instead of a value. 0 draws nothing
  // more.
  double empty_probability = 0;
};

// Model names with a generator; each is also a valid make_model_from_spec argument.
// priority-queue() and max-priority-queue() have a generator too (inserts of
// [priority element], polls, peeks), left out of this list, which the tests that
// sweep every model read.
// random_history() also takes independent(NAME) for each of them: ops on keys 0
// and 1, values [key value] tuples, as Jepsen's independent histories.
std::vector<std::string> random_history_models();

EventLog random_history(const std::string& model_spec, const RandomHistoryShape& shape, std::mt19937_64& rng);

// The ops of `history`'s first partition under `model` (all of them for a model
// that is not partitioned), in call order: one partition, as core questions see it.
std::vector<const Operation*> first_partition(const History& history, const Model& model);

}  // namespace ariadne::testing
