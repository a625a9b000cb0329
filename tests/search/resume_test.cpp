// Resuming a native engine: a search sliced into small budgets and then handed an
// unlimited one (what the race does with the partition's WGL engine) must search on
// to an answer. A step limit of "steps so far + UINT64_MAX" once wrapped around and
// made the resumed search return `undecided` at once, so WGL silently sat out races.
#include "search/search_engine.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

using namespace ariadne;
using search::Outcome;

namespace {

// Twelve concurrent writes and a read of a value none of them wrote: refuting it
// takes thousands of steps.
testing::EventScript many_writes_then_unexplained_read() {
  testing::EventScript s;
  for (int p = 0; p < 12; ++p) s.invoke(p, "write", testing::I(p + 1));
  s.invoke(12, "read");
  for (int p = 0; p < 12; ++p) s.ok(p, "write", testing::I(p + 1));
  s.ok(12, "read", testing::I(999));
  return s;
}

void check_resumes(bool jit) {
  auto model = make_model_from_spec("register(0)");
  History h = many_writes_then_unexplained_read().build(*model);
  search::SubHistory sub;
  for (const Operation& op : h.ops) sub.ops.push_back(&op);
  search::MemoryBudget memory(1ULL << 30);
  search::StopSignal stop;
  auto engine = jit ? search::make_jit(sub, *model, memory, stop) : search::make_wgl(sub, *model, memory, stop);
  REQUIRE(engine->run(10) == Outcome::undecided);
  REQUIRE(engine->steps() > 0);
  CHECK(engine->run(UINT64_MAX) == Outcome::not_linearizable);
}

}  // namespace

TEST_CASE("a WGL search resumed with an unlimited budget runs to its answer") { check_resumes(false); }
TEST_CASE("a JIT search resumed with an unlimited budget runs to its answer") { check_resumes(true); }
