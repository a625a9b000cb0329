// The engine table: every engine a check can run (Engine, <ariadne/engine.hpp>, less
// automatic), with what the rest of the portfolio needs to know of it. Names,
// parsing, the progress line's counts and the factories all read this one table, so
// an engine is added by giving it an Engine value and a row in engines.cpp. Which
// engines the race runs, and when, is the race's policy (check.cpp), not identity.
#pragma once

#include <ariadne/engine.hpp>
#include <ariadne/model.hpp>

#include "search/search_engine.hpp"

#include <memory>
#include <span>
#include <string_view>

namespace ariadne::engines {

struct EngineRow {
  Engine engine;
  // As --engine takes it and as the engine's SearchEngine::name() reports it.
  std::string_view name;
  // A native search of ours, run in slices and resumed, whose step count measures how
  // hard a history is (the failing-op search takes its budget from it); false for the
  // solver-backed engines.
  bool native;
  // Tried by the race before anything else, once per partition: a test that answers
  // at once or declines at once (withdraws, with its reason).
  bool first_in_race;
  std::unique_ptr<search::SearchEngine> (*make)(const search::SubHistory& sub, const Model& model,
                                                search::MemoryBudget& memory, const search::StopSignal& stop);
};

// Every row, in Engine order.
std::span<const EngineRow> engine_rows();
// The row of an engine other than automatic.
const EngineRow& engine_row(Engine engine);
// The row whose name is `name` (an engine's name()); nullptr if none.
const EngineRow* engine_row(std::string_view name);

}  // namespace ariadne::engines
