#include "engines/engine_table.hpp"

#include "encoder/encode.hpp"
#include "solvers/solver_engine.hpp"

#include <ariadne/limits.hpp>

#include <array>
#include <stdexcept>
#include <string>

// Limits counts the running engines in a slot per Engine value (limits.hpp).
static_assert(ariadne::kEngineCount <= ariadne::Limits::kEngineSlots,
              "Limits::kEngineSlots must cover every Engine value");

namespace ariadne::engines {

namespace {

// The solvers take what the encoder can encode; asking costs no formula.
std::optional<std::string> refuses_unencodable(const search::SubHistory& sub, const Model& model) {
  std::string why_not;
  if (encoder::supports(model, sub.ops, &why_not, sub.consistency)) return std::nullopt;
  return "unsupported: " + why_not;
}

std::optional<std::string> refuses_large(const search::SubHistory& sub, const Model&) {
  if (sub.ops.size() <= kBruteForceMaxOps) return std::nullopt;
  return "the brute-force engine handles at most " + std::to_string(kBruteForceMaxOps) +
         " operations per partition, and this history has " + std::to_string(sub.ops.size());
}

// How many failing-op steps a native refutation's step is worth: the search replays
// a few prefixes of the partition, each costing up to what the verdict did.
constexpr std::uint64_t kNativeFailingOpSteps = 8;

const std::array<EngineRow, kEngineCount - 1> kRows = {{
    {Engine::wgl, "wgl", EngineKind::native, RaceRole::opening, kDecidesLinearizable, nullptr, kNativeFailingOpSteps,
     "Wing-Gong-Lowe backtracking with a memo table (Knossos', Porcupine's)",
     [](const search::SubHistory& sub, const Model& model, search::MemoryBudget& memory,
        const search::StopSignal& stop) { return search::make_segmented_wgl(sub, model, memory, stop); }},
    {Engine::jit, "jit", EngineKind::native, RaceRole::second, kDecidesLinearizable, nullptr, kNativeFailingOpSteps,
     "Lowe's just-in-time linearization, carrying configurations forward", search::make_jit},
    {Engine::sat, "sat", EngineKind::solver, RaceRole::partner, kDecidesLinearizable | kDecidesSequential,
     refuses_unencodable, 0, "CaDiCaL on the history encoded as ordering constraints", solvers::make_sat_engine},
    {Engine::smt, "smt", EngineKind::solver, RaceRole::second, kDecidesLinearizable | kDecidesSequential,
     refuses_unencodable, 0, "Z3 on the same constraints, as integer difference logic", solvers::make_smt_engine},
    {Engine::brute, "brute", EngineKind::native, RaceRole::none, kDecidesLinearizable | kDecidesSequential,
     refuses_large, kNativeFailingOpSteps, "every order, for histories of at most 14 operations (the test oracle)",
     [](const search::SubHistory& sub, const Model& model, search::MemoryBudget&, const search::StopSignal& stop) {
       return search::make_brute_force(sub, model, stop);
     }},
    {Engine::unique, "unique", EngineKind::native, RaceRole::first, kDecidesLinearizable, nullptr,
     kNativeFailingOpSteps,
     "near-linear tests for histories whose values are written, enqueued,\n"
     "pushed or added once: register, cas-register, etcd without failed cas,\n"
     "each key of kv (gets and puts), fifo-queue, unordered-queue, stack, set;\n"
     "any register history (kv too) with a stale read, a read whose every\n"
     "write real time lets come before it was overwritten before it began, is\n"
     "refuted at once; declines any other history (a value written twice, an\n"
     "append, a crashed removal it cannot place), saying why\n"
     "(docs/unique-values.md)",
     [](const search::SubHistory& sub, const Model& model, search::MemoryBudget&, const search::StopSignal& stop) {
       return search::make_unique_values(sub, model, stop);
     },
     [](const search::SubHistory& sub, const Model& model, search::MemoryBudget&, const search::StopSignal& stop) {
       return search::make_unique_values(sub, model, stop, search::UniqueTests::unique_values);
     },
     [](const search::SubHistory& sub, const Model& model, search::MemoryBudget&, const search::StopSignal& stop) {
       return search::make_unique_values(sub, model, stop, search::UniqueTests::stale_reads);
     }},
    {Engine::program_order, "program-order", EngineKind::native, RaceRole::opening, kDecidesSequential, nullptr,
     kNativeFailingOpSteps,
     "sequential consistency (--consistency sequential): WGL over each\n"
     "process's own order instead of real time, reads placed at once",
     search::make_program_order_search},
}};

}  // namespace

const std::string_view kAutomaticHelp =
    "the default: the unique-value test first, which answers at once on the\n"
    "histories it covers and declines the others; then WGL alone for each\n"
    "partition's first 100 ms, which decides nearly every real history; then\n"
    "the stale-read test (unique's other half), then a race of WGL and SAT,\n"
    "joined a second later by JIT and SMT; the first certified answer wins,\n"
    "the rest are stopped. Under --consistency sequential: the program-order\n"
    "search, raced with SAT, then SMT";

std::span<const EngineRow> engine_rows() { return kRows; }

bool decides(const EngineRow& row, Consistency c) {
  return (row.conditions & (keeps_real_time(c) ? kDecidesLinearizable : kDecidesSequential)) != 0;
}

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

std::string_view engine_help(Engine e) {
  if (e == Engine::automatic) return engines::kAutomaticHelp;
  return engines::engine_row(e).help;
}

bool engine_decides(Engine e, Consistency c) {
  return e == Engine::automatic || engines::decides(engines::engine_row(e), c);
}

std::string engine_names_listed() {
  std::string out = "auto";
  const std::span<const engines::EngineRow> rows = engines::engine_rows();
  for (std::size_t i = 0; i < rows.size(); ++i)
    out += std::string(i + 1 == rows.size() ? " or " : ", ") + std::string(rows[i].name);
  return out;
}

}  // namespace ariadne
