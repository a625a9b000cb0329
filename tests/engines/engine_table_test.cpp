// The engine table (engines/engine_table.hpp) is the one place an engine is declared:
// every row's engine reports the row's identity, names and Engine values map both
// ways, and the race's plan follows the rows' roles.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "engines/engine_table.hpp"
#include "portfolio/race_plan.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <vector>

using namespace ariadne;

namespace {

// A write of 1 and a read of it: a register history every engine takes.
struct WriteThenRead {
  std::unique_ptr<Model> model = make_model_from_spec("register(0)");
  History history;
  search::SubHistory sub;
  search::MemoryBudget memory{1ULL << 30};
  const search::StopSignal stop;

  WriteThenRead() {
    testing::EventScript s;
    s.invoke(0, "write", testing::I(1)).ok(0, "write", testing::I(1));
    s.invoke(1, "read").ok(1, "read", testing::I(1));
    history = s.build(*model);
    for (const Operation& op : history.ops) sub.ops.push_back(&op);
  }
};

}  // namespace

TEST_SUITE("portfolio") {
  TEST_CASE("every engine of the table reports the row's identity, and names parse back to their engine") {
    WriteThenRead f;
    // Row i is engine i + 1 (automatic has no row): a value added to Engine without a
    // row of its own leaves the table's last slot value-initialised, as automatic.
    const auto rows = engines::engine_rows();
    for (std::size_t i = 0; i < rows.size(); ++i) CHECK(rows[i].engine == static_cast<Engine>(i + 1));
    for (const engines::EngineRow& row : rows) {
      INFO(row.name);
      CHECK(row.make(f.sub, *f.model, f.memory, f.stop)->id() == row.engine);
      CHECK(parse_engine(row.name) == row.engine);
      CHECK(engine_name(row.engine) == row.name);
      CHECK(engines::engine_row(row.name) == &row);
    }
    CHECK(parse_engine("auto") == Engine::automatic);
    CHECK(engine_name(Engine::automatic) == "auto");
    CHECK_FALSE(parse_engine("fast").has_value());
    CHECK(engines::engine_row("fast") == nullptr);
    CHECK(engine_names_listed() == "auto, wgl, jit, sat, smt, brute, unique or program-order");
  }

  TEST_CASE("the race's plan follows the table: the opening search, its partners at once, the second wave later") {
    WriteThenRead f;
    auto opening = engines::engine_row(Engine::wgl).make(f.sub, *f.model, f.memory, f.stop);
    const portfolio::RacePlan plan =
        portfolio::plan_race(Engine::automatic, std::move(opening), f.sub, *f.model, f.memory, f.stop);
    std::vector<Engine> ids;
    for (const auto& e : plan.entrants) ids.push_back(e->id());
    CHECK(ids == std::vector<Engine>{Engine::wgl, Engine::sat, Engine::jit, Engine::smt});
    CHECK(plan.start_after == std::vector<std::chrono::milliseconds>{std::chrono::milliseconds(0),
                                                                     std::chrono::milliseconds(0),
                                                                     portfolio::kSecondWave, portfolio::kSecondWave});

    // Under sequential consistency the program-order search opens, SAT partners it,
    // and of the second wave only SMT decides the condition.
    f.sub.consistency = Consistency::sequential;
    auto program_order = engines::engine_row(Engine::program_order).make(f.sub, *f.model, f.memory, f.stop);
    const portfolio::RacePlan sequential =
        portfolio::plan_race(Engine::automatic, std::move(program_order), f.sub, *f.model, f.memory, f.stop);
    ids.clear();
    for (const auto& e : sequential.entrants) ids.push_back(e->id());
    CHECK(ids == std::vector<Engine>{Engine::program_order, Engine::sat, Engine::smt});
    f.sub.consistency = Consistency::linearizable;

    // A solver chosen alone races alone.
    const portfolio::RacePlan alone = portfolio::plan_race(Engine::smt, nullptr, f.sub, *f.model, f.memory, f.stop);
    REQUIRE(alone.entrants.size() == 1);
    CHECK(alone.entrants[0]->id() == Engine::smt);
  }

  TEST_CASE("the table's rows say what the budgets and the brute force's limit need") {
    for (const engines::EngineRow& row : engines::engine_rows()) {
      INFO(row.name);
      // A native refutation's steps size the failing-op search; a solver's say nothing.
      CHECK((row.kind == engines::EngineKind::native) == (row.failing_op_steps_per_step > 0));
      CHECK_FALSE(row.help.empty());
    }
    auto model = make_model_from_spec("register(0)");
    testing::EventScript s;
    for (int i = 0; i < 15; ++i) s.invoke(0, "write", testing::I(i)).ok(0, "write", testing::I(i));
    const History h = s.build(*model);
    search::SubHistory sub;
    for (const Operation& op : h.ops) sub.ops.push_back(&op);
    const auto why = engines::engine_row(Engine::brute).refuses(sub, *model);
    REQUIRE(why.has_value());
    CHECK(why->find("at most 14 operations") != std::string::npos);
    sub.ops.pop_back();
    CHECK_FALSE(engines::engine_row(Engine::brute).refuses(sub, *model).has_value());
  }

}  // TEST_SUITE
