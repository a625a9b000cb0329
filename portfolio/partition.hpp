// A partition: the part of a history one engine decides on its own (one key of a
// partitioned model, else the whole history), with the scheduler's state for it and
// the answer it came to.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>
#include <ariadne/result.hpp>

#include "portfolio/merge.hpp"
#include "search/search_engine.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ariadne::portfolio {

// How the engines are running on a partition: the scheduler's alone.
struct PartitionRun {
  std::unique_ptr<search::SearchEngine> engine;  // the one resumed slice after slice
  std::uint64_t slice = 0;                       // its next slice, in model steps
  bool tried_first = false;                      // the race's first engines (RaceRole::first) ran
  // Engines of this partition stop when another partition refutes the history (the
  // scheduler's signal) or when this partition's race has its answer (settled). Held
  // by pointer because engines keep a reference and partitions move.
  std::unique_ptr<std::atomic<bool>> settled = std::make_unique<std::atomic<bool>>(false);
  std::unique_ptr<search::StopSignal> stop;
  search::StopSignal::Why race_stop_reason = search::StopSignal::Why::none;
};

// What the engines found, for decide() to compose.
struct PartitionAnswer {
  search::Outcome outcome = search::Outcome::undecided;
  std::optional<Engine> winner;                 // the engine that decided it
  std::string withdrawal;                       // why the engines gave up, if they did
  std::vector<const Operation*> linearization;  // once decided, until certified
  std::vector<ChainLink> chain;                 // then, for the merge
  std::vector<std::uint32_t> refuting_ops;      // the refuting engine's (SearchEngine::refuting_ops)
  std::vector<std::string> dropped;             // answers that failed their check (CheckResult::dropped_answers)
  std::uint64_t steps = 0;
  std::chrono::steady_clock::duration searched{};  // time in this partition's engines
  RaceDiagnostics race;                            // entrants empty unless it was raced
};

struct Partition {
  Value key;
  search::SubHistory sub;
  PartitionRun run;
  PartitionAnswer answer;
};

// The partitions of `history`, in order of their keys' first appearance: one per key
// of a partitioned model, except under Consistency::sequential, which is not local
// (consistency.hpp) and so decides the whole history as one partition. Each
// partition's sub-history carries `consistency`.
std::vector<Partition> split(const History& history, const Model& model,
                             Consistency consistency = Consistency::linearizable);
// Whether split() keeps a partitioned model's keys apart under `consistency`.
inline bool splits_by_key(const Model& model, Consistency consistency) {
  return model.is_partitioned() && consistency != Consistency::sequential;
}
// " on key K" for a partition of one key, else empty: for reasons.
std::string describe_partition(const Model& model, const Partition& p);

}  // namespace ariadne::portfolio
