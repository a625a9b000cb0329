#include "engines/engine_table.hpp"

#include "solvers/solver_engine.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace ariadne::engines {

namespace {

const std::array<EngineRow, kEngineCount - 1> kRows = {{
    {Engine::wgl, "wgl", true, false,
     [](const search::SubHistory& sub, const Model& model, search::MemoryBudget& memory, const search::StopSignal& stop) {
       return search::make_segmented_wgl(sub, model, memory, stop);
     }},
    {Engine::jit, "jit", true, false, search::make_jit},
    {Engine::sat, "sat", false, false, solvers::make_sat_engine},
    {Engine::smt, "smt", false, false, solvers::make_smt_engine},
    {Engine::brute, "brute", true, false,
     [](const search::SubHistory& sub, const Model& model, search::MemoryBudget&, const search::StopSignal& stop) {
       return search::make_brute_force(sub, model, stop);
     }},
    {Engine::unique, "unique", true, true,
     [](const search::SubHistory& sub, const Model& model, search::MemoryBudget&, const search::StopSignal& stop) {
       return search::make_unique_values(sub, model, stop);
     }},
}};

}  // namespace

std::span<const EngineRow> engine_rows() { return kRows; }

const EngineRow& engine_row(Engine engine) {
  for (const EngineRow& row : kRows) {
    if (row.engine == engine) return row;
  }
  throw std::logic_error("engine_row: no row for engine " + std::to_string(static_cast<int>(engine)));
}

const EngineRow* engine_row(std::string_view name) {
  for (const EngineRow& row : kRows) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

}  // namespace ariadne::engines

namespace ariadne {

std::optional<Engine> parse_engine(std::string_view name) {
  if (name == "auto") return Engine::automatic;
  if (const engines::EngineRow* row = engines::engine_row(name)) return row->engine;
  return std::nullopt;
}

std::string_view engine_name(Engine e) {
  if (e == Engine::automatic) return "auto";
  return engines::engine_row(e).name;
}

std::string engine_names_listed() {
  std::string out = "auto";
  const std::span<const engines::EngineRow> rows = engines::engine_rows();
  for (std::size_t i = 0; i < rows.size(); ++i) out += std::string(i + 1 == rows.size() ? " or " : ", ") + std::string(rows[i].name);
  return out;
}

}  // namespace ariadne
