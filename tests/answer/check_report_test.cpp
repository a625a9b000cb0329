// The human report of `check` (answer/check_report.cpp) on results that no check of
// this process made: a merge of key shards prints what the shards' reports said, so
// the report must stand any result's shape, never trusting that its ids are there.
#include "answer/check_report.hpp"
#include "answer/terminal.hpp"

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

namespace {

using namespace ariadne;

constexpr const char* kBad =
    "[{:process 0, :type :invoke, :f :write, :value 1}\n"
    " {:process 0, :type :ok, :f :write, :value 1}\n"
    " {:process 1, :type :invoke, :f :read, :value nil}\n"
    " {:process 1, :type :ok, :f :read, :value 2}]\n";

std::string report_text(const History& history, const CheckResult& result) {
  answer::CheckReport report;
  report.file = "bad.edn";
  report.model_spec = "register";
  report.history = &history;
  report.result = &result;
  report.prefix = true;
  return answer::format_check_text(report, answer::Style(false), false);
}

}  // namespace

TEST_CASE("check --prefix: a prefix without a failing op, or with one the history lacks, is shown unbounded") {
  const auto model = make_model_from_spec("register");
  const History history = parse_history(kBad, "bad.edn", *model);
  CheckResult result;
  result.verdict = Verdict::not_linearizable;
  result.core = {0, 2};
  result.prefix_linearization = {0};
  for (const std::optional<std::uint32_t> failing :
       {std::optional<std::uint32_t>{}, std::optional<std::uint32_t>{99}}) {
    CAPTURE(failing.value_or(0));
    result.failing_op = failing;
    const std::string text = report_text(history, result);
    CHECK(text.find("Longest linearizable prefix, in this order:") != std::string::npos);
  }
  result.failing_op = 2;
  CHECK(report_text(history, result).find("every operation invoked before event 3, in this order (the failing op 2") !=
        std::string::npos);
}
