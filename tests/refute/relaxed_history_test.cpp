// Relaxing ops for a core (refute/relaxed_history): every relaxed op, and every kept
// crashed op, needs a process of its own, distinct from every process of the history.
#include "refute/relaxed_history.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <set>

using namespace ariadne;

namespace {

Operation op_of(std::int64_t process, std::uint64_t call, std::uint64_t ret) {
  Operation op;
  op.id = static_cast<std::uint32_t>(call);
  op.process = process;
  op.f = "read";
  op.status = ret == kNever ? OpStatus::crashed : OpStatus::ok;
  op.call = call;
  op.ret = ret;
  return op;
}

}  // namespace

TEST_CASE("relaxed ops get processes no op uses, even beside INT64_MAX and INT64_MIN") {
  // corpus/fuzz/relaxed-process-overflow.edn: counting up from the largest process
  // overflowed at INT64_MAX (UBSan) and, wrapped, reused INT64_MIN.
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  const std::vector<Operation> ops{op_of(kMin, 0, 1), op_of(0, 2, 3), op_of(1, 4, 5), op_of(kMax, 6, kNever),
                                   op_of(3, 7, 8)};
  std::vector<const Operation*> pointers;
  for (const Operation& op : ops) pointers.push_back(&op);
  const std::vector<bool> keep{false, false, true, true, true};  // two relaxed, one kept crashed
  const refute::RelaxedHistory relaxed = refute::relax(pointers, keep);
  REQUIRE(relaxed.ops.size() == ops.size());
  std::set<std::int64_t> fresh;
  for (std::size_t i = 0; i < relaxed.ops.size(); ++i) {
    const Operation& op = relaxed.ops[i];
    if (relaxed.kept[i] && op.ret != kNever) {
      CHECK(op.process == ops[relaxed.source_index[i]].process);  // a completed kept op keeps its process
      continue;
    }
    CAPTURE(op.process);
    for (const Operation& original : ops) CHECK(op.process != original.process);
    CHECK(fresh.insert(op.process).second);
  }
  CHECK(fresh == std::set<std::int64_t>{2, 4, 5});  // the smallest unused ids, in order
}
