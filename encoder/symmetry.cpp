// Symmetry breaking among interchangeable crashed ops.
//
// Two crashed ops with the same f, argument and key, and the same real-time
// predecessors (no completion falls between their invocations), are interchangeable:
// the model's step depends on nothing else (model.hpp), and neither has a real-time
// successor, since a crashed op never completes. Any linearization that uses some of
// them can be rewritten to use the earliest-invoked ones, in invocation order. So it
// loses no linearization to require, for consecutive members a, b of such a class,
// that b takes effect only if a does, and then after a.
//
// Without this, a history with many such ops (a core's relaxed history: every op
// outside the core becomes a crashed op invoked first, and the mutex's acquires are
// all alike) hands the solver a pigeonhole problem: refuting it means trying every
// assignment of the interchangeable ops, which CDCL solvers cannot do in short proofs.
//
// With selectors (encode.hpp's OpSelector), a relaxed twin is available only while
// its selector is off, so the rule becomes: b takes effect only if a does or a is
// kept; both taking effect puts a first. The rewriting still applies, to the
// earliest available members, and satisfies these clauses. A kept op answers to its
// selector, not to its class, and stays out of the classes.
#include "encoder/theories.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace ariadne::encoder {

void break_crashed_symmetry(FormulaBuilder& builder, const std::vector<OpSelector>& selectors) {
  const auto side = [&](std::uint32_t i) { return selectors.empty() ? OpSelector::Side::none : selectors[i].side; };
  std::vector<std::uint64_t> completions;
  for (std::uint32_t i = 0; i < builder.op_count(); ++i) {
    if (builder.real_time().ret(i) != kNever) completions.push_back(builder.real_time().ret(i));
  }
  std::sort(completions.begin(), completions.end());
  // Class key: what the op is, and how many ops completed before it was invoked
  // (predecessor sets are nested in an interval order, so equal counts mean equal sets).
  using Key = std::tuple<std::string, std::string, std::string, std::size_t>;
  std::map<Key, std::uint32_t> last_of_class;
  for (std::uint32_t i = 0; i < builder.op_count(); ++i) {
    const Literal present = builder.presence(i);
    if (present == kTrue || present == kFalse) continue;
    const Operation& op = builder.op(i);
    if (op.status != OpStatus::crashed || side(i) == OpSelector::Side::kept) continue;
    const auto before = static_cast<std::size_t>(
        std::lower_bound(completions.begin(), completions.end(), builder.real_time().call(i)) - completions.begin());
    const Key key{op.f, op.invoke_value.to_edn(), op.key.to_edn(), before};
    const auto [it, first] = last_of_class.try_emplace(key, i);
    if (first) continue;
    const std::uint32_t previous = it->second;
    it->second = i;
    if (side(previous) == OpSelector::Side::relaxed) {
      builder.add_clause({-present, builder.presence(previous), builder.selector(selectors[previous].selector)});
      builder.add_clause({-present, -builder.presence(previous), builder.order(previous, i)});
    } else {
      builder.add_clause({-present, builder.presence(previous)});
      builder.add_clause({-present, builder.order(previous, i)});
    }
  }
}

}  // namespace ariadne::encoder
