// Resuming a native engine: a search sliced into small budgets and then handed an
// unlimited one (what the race does with the partition's WGL engine) must search on
// to an answer. A step limit of "steps so far + UINT64_MAX" once wrapped around and
// made the resumed search return `undecided` at once, so WGL silently sat out races.
#include "search/search_engine.hpp"
#include "support/history_builder.hpp"
#include "support/slow_history.hpp"

#include <doctest/doctest.h>

using namespace ariadne;
using search::Outcome;

namespace {

void check_resumes(bool jit) {
  auto model = make_model_from_spec("register(0)");
  // Twelve concurrent writes and reads of 1, 2, 1 over them: refuting it takes
  // thousands of steps (a read of a value nobody wrote no longer does: WGL's
  // lookahead from the root refutes it at the first dead end).
  History h = testing::wgl_slow_history(12).build(*model);
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
