// The top of a refuted report: the violation in one sentence and the part each named
// op plays in it. Both come from CheckResult::why and why_ops (explain/), which this
// only completes: when no sentence was said (a partition too large to explain, a limit
// reached first, a result read from elsewhere), one is made from the failing op; and
// every core op and the failing op get a role, so the page can draw each by its part.
// Without why_ops, the roles the result alone decides: the failing op is refused, a
// core op invoked after it completed is late, the rest is context.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>
#include <ariadne/result.hpp>

#include <string>
#include <vector>

namespace ariadne::report {

struct ViolationSummary {
  std::string sentence;
  bool sentence_given = false;  // CheckResult::why, not made here
  std::vector<WhyOp> roles;     // op ids: the core and the failing op, in id order
  bool roles_given = false;     // from CheckResult::why_ops
};

// For a result not linearizable; empty otherwise.
ViolationSummary summarise_violation(const History& history, const Model& model, const CheckResult& result);

}  // namespace ariadne::report
