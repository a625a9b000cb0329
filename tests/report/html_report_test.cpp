// The HTML page as a file: self-contained, with the data block intact.
#include "report/html_report.hpp"
#include "support/history_builder.hpp"
#include "support/text_count.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

using namespace ariadne;
using testing::EventScript;
using testing::I;

namespace {

std::string page_for(const History& h, const Model& model, const CheckResult& r, const report::ReportContext& c) {
  std::ostringstream out;
  report::write_html_report(out, h, model, r, c);
  return out.str();
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("html report: one self-contained file that loads nothing from elsewhere") {
    auto model = make_model("register", I(0));
    EventScript s;
    s.invoke(0, "write", I(1)).ok(0, "write", I(1)).invoke(1, "read").ok(1, "read", I(1));
    const History h = s.build(*model);
    CheckResult r;
    r.verdict = Verdict::linearizable;
    r.linearization = {0, 2};
    const std::string page = page_for(h, *model, r, {"h.edn", "register(0)"});
    CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(testing::count_occurrences(page, "<script") == 2);
    CHECK(testing::count_occurrences(page, "</script>") == 2);
    CHECK(page.find("src=") == std::string::npos);
    CHECK(page.find("<link") == std::string::npos);
    CHECK(page.find("url(") == std::string::npos);
    CHECK(page.find("@import") == std::string::npos);
    CHECK(page.find("<script type=\"application/json\" id=\"ariadne-data\">{") != std::string::npos);
    CHECK(page.size() < 80000);  // the page's own weight, before any op
  }

  TEST_CASE("html report: markup in a file name or a value stays text") {
    auto model = make_model("register", Value());
    const Value nasty = Value::string("</script><img src=x onerror=alert(1)>");
    EventScript s;
    s.invoke(0, "write", nasty).ok(0, "write", nasty);
    const History h = s.build(*model);
    CheckResult r;
    r.verdict = Verdict::not_linearizable;
    r.core = {0};
    r.explanation = "<b>not bold</b>";
    const std::string page = page_for(h, *model, r, {"<b>\"x\".edn", "register"});
    CHECK(testing::count_occurrences(page, "</script>") == 2);
    CHECK(page.find("<img") == std::string::npos);
    CHECK(page.find("<b>") == std::string::npos);
    CHECK(page.find("<title>not-linearizable: &lt;b&gt;&quot;x&quot;.edn (ariadne)</title>") != std::string::npos);
  }

}  // TEST_SUITE("report")
