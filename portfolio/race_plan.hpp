// Which engines race on a partition, and when each joins: the race's policy, read from
// the engine table's roles (engines/engine_table.hpp).
//
// With --engine auto the partition's opening search (WGL) has it alone for its first
// kRaceAfter, which decides nearly every real history without starting a thread. A
// partition still open after that goes to the race: the opening search carries on
// beside its partners (SAT), and the second wave (JIT, SMT) joins kSecondWave later
// if neither has answered; at once when no partner can take the partition. On two
// cores that keeps two engines running at a time. A solver engine chosen alone
// (--engine sat, smt) runs in a race of one, whose referee enforces the deadline the
// solver cannot poll.
#pragma once

#include <ariadne/engine.hpp>
#include <ariadne/model.hpp>

#include "search/search_engine.hpp"

#include <chrono>
#include <memory>
#include <span>
#include <vector>

namespace ariadne::portfolio {

// How long the opening search runs alone before a partition is raced.
inline constexpr std::chrono::milliseconds kRaceAfter(100);
// How long the opening search and its partners run before the second wave joins.
inline constexpr std::chrono::milliseconds kSecondWave(1000);

struct RacePlan {
  std::vector<std::unique_ptr<search::SearchEngine>> entrants;
  std::vector<std::chrono::milliseconds> start_after;  // one per entrant, from the race's start
};

// `opening`: the partition's opening search, which joins where it left off; nullptr
// for a solver engine chosen alone (`chosen`), or under --engine auto when the
// opening search is distrusted. `distrusted`: engines left out (scheduler.hpp).
RacePlan plan_race(Engine chosen, std::unique_ptr<search::SearchEngine> opening, const search::SubHistory& sub,
                   const Model& model, search::MemoryBudget& memory, const search::StopSignal& stop,
                   std::span<const Engine> distrusted = {});

}  // namespace ariadne::portfolio
