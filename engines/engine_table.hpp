// The engine table: every engine a check can run (Engine, <ariadne/engine.hpp>, less
// automatic), declared once, with all that the rest of ariadne needs to know of it:
// its name, its kind, which partitions it takes, its place in the race, the budget
// the failing-op search derives from its work, its line in `--help`, and how to make
// one. The race's plan (portfolio/race_plan.cpp), the refutation's budgets
// (portfolio/refutation.cpp), `--engine`'s parsing and the help text all read it,
// so a new engine is an Engine value, a row here and its own file.
#pragma once

#include <ariadne/engine.hpp>
#include <ariadne/model.hpp>

#include "search/search_engine.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ariadne::engines {

// native: a search of ours, run in slices and resumed, whose step count measures how
// hard a history is. solver: a formula handed to a SAT or SMT solver, which runs to
// its end on a thread of its own and says nothing of the history's hardness.
enum class EngineKind : std::uint8_t { native, solver };

// Where an engine enters the race of --engine auto (portfolio/race_plan.hpp).
enum class RaceRole : std::uint8_t {
  none,     // never raced (brute force: the oracle, run only when asked for)
  first,    // tried once before anything else: answers at once, or declines at once
  opening,  // the search each partition starts with alone, carried into the race
  partner,  // joins the opening search when the race starts
  second,   // joins a second later, if no one has answered (at once when no partner can)
};

// The conditions (consistency.hpp) an engine decides, as a mask of these.
inline constexpr std::uint8_t kDecidesLinearizable = 1;
inline constexpr std::uint8_t kDecidesSequential = 2;

struct EngineRow {
  Engine engine;
  // As --engine takes it, as results and progress lines name it.
  std::string_view name;
  EngineKind kind;
  // Its role in the race of the conditions it decides.
  RaceRole race;
  // kDecidesLinearizable, kDecidesSequential or both: the scheduler, the race's plan
  // and --engine run an engine only on sub-histories whose condition it decides.
  std::uint8_t conditions;
  // The partitions it cannot take, and why; nullopt when it takes this one. Read
  // before an engine is raced or run alone; nullptr: it takes every partition (or
  // declines at run time, saying why, as the unique-value tests do).
  std::optional<std::string> (*refuses)(const search::SubHistory& sub, const Model& model);
  // The failing-op search's step budget, per model step of the refutation this
  // engine made (at least kFailingOpMinSteps); 0 when its work says nothing of that
  // (a solver's refutation).
  std::uint64_t failing_op_steps_per_step;
  // Its entry in `--help`'s list of engines: lines of at most 80 columns after the
  // name's, the later ones indented to line up with the first.
  std::string_view help;
  using Make = std::unique_ptr<search::SearchEngine> (*)(const search::SubHistory& sub, const Model& model,
                                                         search::MemoryBudget& memory, const search::StopSignal& stop);
  // The engine, as --engine runs it alone.
  Make make;
  // Under --engine auto, when set: what a RaceRole::first engine runs on every
  // partition in place of `make` (its cheap part), and what it runs once on a
  // partition the opening search has not decided within kRaceAfter, before the race
  // starts (the part that costs a pass over the partition, not worth it where the
  // search answers in milliseconds).
  Make make_first = nullptr;
  Make make_before_race = nullptr;
};

// Whether `row`'s engine decides `c` (both sequential conditions read alike).
bool decides(const EngineRow& row, Consistency c);

// The failing-op search's budget when the refuting engine's work gives none.
inline constexpr std::uint64_t kFailingOpMinSteps = 200'000;

// What --engine auto does, for `--help` beside the rows' entries.
extern const std::string_view kAutomaticHelp;

// Every row, in Engine order.
std::span<const EngineRow> engine_rows();
// The row of an engine other than automatic.
const EngineRow& engine_row(Engine engine);
// The row whose name is `name`; nullptr if none.
const EngineRow* engine_row(std::string_view name);

}  // namespace ariadne::engines
