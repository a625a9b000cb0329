// The HTML report inside the command's limits (issue 41: on a 10^6-op history it
// took 10 s past --timeout and 742 MB past --memory-limit): a limit reached stops
// building the page with LimitReached, before a byte of it is written.
#include "report/html_report.hpp"
#include "report/report_data.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <sstream>

namespace ariadne::report {

namespace {

History small_history(const Model& model) {
  return parse_history(
      "[{:process 0, :type :invoke, :f :write, :value 1}\n"
      " {:process 0, :type :ok, :f :write, :value 1}\n"
      " {:process 1, :type :invoke, :f :read, :value nil}\n"
      " {:process 1, :type :ok, :f :read, :value 1}]\n",
      "small.edn", model);
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("an HTML report stopped by the limits throws LimitReached and writes nothing") {
    const auto model = make_model_from_spec("register(0)");
    const History history = small_history(*model);
    const CheckResult result = check(history, *model, CheckOptions{});
    REQUIRE(result.verdict == Verdict::linearizable);

    std::atomic<bool> cancel{true};
    const Limits cancelled(0, 0, &cancel);
    std::ostringstream out;
    try {
      write_html_report(out, history, *model, result, ReportContext{"small.edn", model->spec(), &cancelled});
      FAIL("the report was written past a cancel");
    } catch (const LimitReached& stopped) {
      CHECK(stopped.limit() == Limit::cancelled);
    }
    CHECK(out.str().empty());

    // Without limits, and under limits not reached, the page is written.
    const Limits generous(3600, 0);
    write_html_report(out, history, *model, result, ReportContext{"small.edn", model->spec(), &generous});
    CHECK(out.str().find("<!DOCTYPE html>") != std::string::npos);
  }

  TEST_CASE("the report's data and its JSON stop at a limit too") {
    const auto model = make_model_from_spec("register(0)");
    const History history = small_history(*model);
    const CheckResult result = check(history, *model, CheckOptions{});
    std::atomic<bool> cancel{false};
    const Limits limits(0, 0, &cancel);
    const ReportData data = build_report_data(history, *model, result, ReportContext{"small.edn", "register", &limits});
    cancel = true;
    CHECK_THROWS_AS(report_data_json(data, &limits), LimitReached);
    CHECK_THROWS_AS(build_report_data(history, *model, result, ReportContext{"small.edn", "register", &limits}),
                    LimitReached);
    CHECK_FALSE(report_data_json(data).empty());
  }
}  // TEST_SUITE("report")

}  // namespace ariadne::report
