#include "portfolio/race_plan.hpp"

#include "engines/engine_table.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace ariadne::portfolio {

RacePlan plan_race(Engine chosen, std::unique_ptr<search::SearchEngine> opening, const search::SubHistory& sub,
                   const Model& model, search::MemoryBudget& memory, const search::StopSignal& stop,
                   std::span<const Engine> distrusted) {
  RacePlan plan;
  if (chosen != Engine::automatic) {
    plan.entrants.push_back(engines::engine_row(chosen).make(sub, model, memory, stop));
    plan.start_after.emplace_back(0);
    return plan;
  }
  if (opening) {
    plan.entrants.push_back(std::move(opening));
    plan.start_after.emplace_back(0);
  }
  // Rows may share a refusal (the solvers both ask the encoder, a pass over the
  // partition): each is asked once.
  std::vector<std::pair<decltype(engines::EngineRow::refuses), bool>> asked;
  auto takes = [&](const engines::EngineRow& row) {
    if (!engines::decides(row, sub.consistency)) return false;
    if (std::ranges::find(distrusted, row.engine) != distrusted.end()) return false;
    if (!row.refuses) return true;
    for (const auto& [refuses, taken] : asked) {
      if (refuses == row.refuses) return taken;
    }
    const bool taken = !row.refuses(sub, model);
    asked.emplace_back(row.refuses, taken);
    return taken;
  };
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
