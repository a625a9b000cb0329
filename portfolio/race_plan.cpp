#include "portfolio/race_plan.hpp"

#include "engines/engine_table.hpp"

namespace ariadne::portfolio {

RacePlan plan_race(Engine chosen, std::unique_ptr<search::SearchEngine> opening, const search::SubHistory& sub,
                   const Model& model, search::MemoryBudget& memory, const search::StopSignal& stop) {
  RacePlan plan;
  if (!opening) {
    plan.entrants.push_back(engines::engine_row(chosen).make(sub, model, memory, stop));
    plan.start_after.emplace_back(0);
    return plan;
  }
  plan.entrants.push_back(std::move(opening));
  plan.start_after.emplace_back(0);
  auto takes = [&](const engines::EngineRow& row) { return !row.refuses || !row.refuses(sub, model); };
  bool partnered = false;
  for (const engines::EngineRow& row : engines::engine_rows()) {
    if (row.race != engines::RaceRole::partner || !takes(row)) continue;
    plan.entrants.push_back(row.make(sub, model, memory, stop));
    plan.start_after.emplace_back(0);
    partnered = true;
  }
  for (const engines::EngineRow& row : engines::engine_rows()) {
    if (row.race != engines::RaceRole::second || !takes(row)) continue;
    plan.entrants.push_back(row.make(sub, model, memory, stop));
    plan.start_after.push_back(partnered ? kSecondWave : std::chrono::milliseconds(0));
  }
  return plan;
}

}  // namespace ariadne::portfolio
