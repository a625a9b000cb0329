// The engine table (engines/engine_table.hpp) is the one place an engine is named: every
// row's engine reports the row's name, and names and Engine values map both ways.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "engines/engine_table.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

using namespace ariadne;

TEST_SUITE("portfolio") {

TEST_CASE("every engine of the table reports the row's name, and names parse back to their engine") {
  auto model = make_model_from_spec("register(0)");
  testing::EventScript s;
  s.invoke(0, "write", testing::I(1)).ok(0, "write", testing::I(1));
  s.invoke(1, "read").ok(1, "read", testing::I(1));
  const History h = s.build(*model);
  search::SubHistory sub;
  for (const Operation& op : h.ops) sub.ops.push_back(&op);
  search::MemoryBudget memory(1ULL << 30);
  const search::StopSignal stop;
  CHECK(engines::engine_rows().size() + 1 == kEngineCount);
  for (const engines::EngineRow& row : engines::engine_rows()) {
    INFO(row.name);
    CHECK(row.make(sub, *model, memory, stop)->name() == row.name);
    CHECK(parse_engine(row.name) == row.engine);
    CHECK(engine_name(row.engine) == row.name);
    CHECK(engines::engine_row(row.name) == &row);
  }
  CHECK(parse_engine("auto") == Engine::automatic);
  CHECK(engine_name(Engine::automatic) == "auto");
  CHECK_FALSE(parse_engine("fast").has_value());
  CHECK(engines::engine_row("fast") == nullptr);
  CHECK(engine_names_listed() == "auto, wgl, jit, sat, smt, brute or unique");
}

}  // TEST_SUITE
