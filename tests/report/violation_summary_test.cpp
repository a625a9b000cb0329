// The top of a refuted report: the sentence (CheckResult::why, or one made from the
// failing op) and each core op's role.
#include "report/violation_summary.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace ariadne;
using namespace ariadne::report;
using testing::EventScript;
using testing::I;

namespace {

// p0 writes 1, then p1 writes 2, then p2 reads 1 (stale), then p3 writes 3 and
// reads 3. Op ids: 0 write 1, 2 write 2, 4 read 1, 6 write 3, 8 read 3.
History stale_read(const Model& model) {
  EventScript s;
  s.invoke(0, "write", I(1)).ok(0, "write", I(1)).invoke(1, "write", I(2)).ok(1, "write", I(2));
  s.invoke(2, "read").ok(2, "read", I(1)).invoke(3, "write", I(3)).ok(3, "write", I(3));
  s.invoke(3, "read").ok(3, "read", I(3));
  return s.build(model);
}

CheckResult refuted_at_read() {
  CheckResult r;
  r.verdict = Verdict::not_linearizable;
  r.core = {0, 2, 4, 6};
  r.core_minimal = true;
  r.failing_op = 4;
  r.explanation = "Minimal core: 4 of the 5 operations cannot be linearized together:\n  - write 1 (op 0)\n";
  return r;
}

std::string roles_of(const ViolationSummary& summary) {
  std::string out;
  for (const WhyOp& named : summary.roles) {
    out += std::to_string(named.op) + ":" + std::string(why_role_name(named.role)) + " ";
  }
  return out;
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("violation summary: without why, the sentence names the failing op and the core, and roles follow time") {
    auto model = make_model("register", I(0));
    const History h = stale_read(*model);
    const ViolationSummary summary = summarise_violation(h, *model, refuted_at_read());
    CHECK_FALSE(summary.sentence_given);
    CHECK(summary.sentence ==
          "Op 4 (process 2, read 1) completed at event 5 with a result that no order of the operations before it "
          "explains; the 4 ops of the minimal core below prove it.");
    CHECK_FALSE(summary.roles_given);
    // The write of 3 began after the read completed.
    CHECK(roles_of(summary) == "0:context 2:context 4:refused 6:late ");
  }

  TEST_CASE("violation summary: why and why_ops are used as given, and core ops they leave out are context") {
    auto model = make_model("register", I(0));
    const History h = stale_read(*model);
    CheckResult r = refuted_at_read();
    r.why = "read 1 (op 4) saw write 1 (op 0), which write 2 (op 2) overwrote before the read began.";
    r.why_ops = {{4, WhyRole::refused}, {0, WhyRole::source}, {2, WhyRole::cause}};
    const ViolationSummary summary = summarise_violation(h, *model, r);
    CHECK(summary.sentence_given);
    CHECK(summary.sentence == r.why);
    CHECK(summary.roles_given);
    CHECK(roles_of(summary) == "0:source 2:cause 4:refused 6:late ");
  }

  TEST_CASE("violation summary: without a failing op, the explanation's opening line is the sentence") {
    auto model = make_model("register", I(0));
    const History h = stale_read(*model);
    CheckResult r = refuted_at_read();
    r.failing_op.reset();
    const ViolationSummary summary = summarise_violation(h, *model, r);
    CHECK(summary.sentence == "Minimal core: 4 of the 5 operations cannot be linearized together.");
    CHECK(roles_of(summary) == "0:context 2:context 4:context 6:context ");
  }

  TEST_CASE("violation summary: a keyed history's sentence names the key; a linearizable one has none") {
    auto model = make_model("register", I(0));
    const History h = stale_read(*model);
    CheckResult r = refuted_at_read();
    r.partitions = 3;
    r.failing_partition = "\"x\"";
    CHECK(summarise_violation(h, *model, r).sentence.starts_with("On key \"x\", op 4 (process 2, read 1)"));
    CheckResult fine;
    fine.verdict = Verdict::linearizable;
    const ViolationSummary none = summarise_violation(h, *model, fine);
    CHECK(none.sentence.empty());
    CHECK(none.roles.empty());
  }
}  // TEST_SUITE("report")
