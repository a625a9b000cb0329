#include "answer/previous_ok.hpp"

#include "answer/check_report.hpp"

namespace ariadne::answer {

namespace {

// The later of `best` and `op` by completion, when `op` is an :ok op that completed
// before `limit`.
const Operation* later_ok(const Operation* best, const Operation& op, std::uint64_t limit) {
  if (op.status != OpStatus::ok || op.ret >= limit) return best;
  return best == nullptr || op.ret > best->ret ? &op : best;
}

}  // namespace

PreviousOk previous_ok(const History& history, const CheckResult& result) {
  if (!result.failing_op) return {};
  const Operation* failing = find_op(history, *result.failing_op);
  if (failing == nullptr || failing->ret == kNever) return {};
  PreviousOk answer;
  if (!result.failing_partition_ops.empty()) {
    for (const std::uint32_t id : result.failing_partition_ops) {
      if (const Operation* op = find_op(history, id)) answer.op = later_ok(answer.op, *op, failing->ret);
    }
  } else if (result.partitions <= 1 && result.keys.empty()) {
    for (const Operation& op : history.ops) answer.op = later_ok(answer.op, op, failing->ret);
  } else {
    return {};
  }
  answer.known = true;
  return answer;
}

}  // namespace ariadne::answer
