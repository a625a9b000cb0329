// corpus/regressions/sequential-core-crashed-cas-passes-a-value-on.edn: a crashed
// write whose value only a crashed cas reads still matters to the program-order
// search, so the relaxed history that drops A's write and B's cas from the core holds.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "refute/program_order_core.hpp"
#include "search/search_engine.hpp"

#include <doctest/doctest.h>

using namespace ariadne;

TEST_CASE("sequential cores: a crashed write that a crashed cas passes on is not left out") {
  auto model = make_model_from_spec("cas-register(0)");
  const History h = build_history(read_events(std::string(ARIADNE_SOURCE_DIR) +
                                              "/corpus/regressions/sequential-core-crashed-cas-passes-a-value-on.edn"),
                                  *model);
  const CheckResult whole = check(h, *model, CheckOptions{.consistency = Consistency::sequential, .jobs = 1});
  REQUIRE(whole.verdict == Verdict::not_linearizable);
  CHECK(whole.core_minimal);
  // A's two ops: B's cas, relaxed, still cannot take effect before A's write of 2.
  CHECK(whole.core == std::vector<std::uint32_t>{0, 4});

  // The question the bug got wrong: keep only A's cas; relax B's cas and A's write.
  std::vector<const Operation*> ops;
  for (const Operation& op : h.ops) ops.push_back(&op);
  std::vector<const Operation*> pointers;
  const std::vector<Operation> relaxed = refute::relax_outside(ops, {true, false, false}, pointers);
  search::SubHistory sub{.ops = pointers, .consistency = Consistency::sequential};
  search::MemoryBudget memory(1ULL << 30);
  const search::StopSignal stop;
  CHECK(search::make_program_order_search(sub, *model, memory, stop)->run(0) == search::Outcome::linearizable);
  CHECK(search::make_brute_force(sub, *model, stop)->run(0) == search::Outcome::linearizable);
}
