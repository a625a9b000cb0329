// Assembles the page: fixed markup, style and script (report/page/, through
// page_template.hpp) around the history's data (report_data.cpp). Nothing from the
// history reaches the page as markup: the title is escaped here, and everything else
// travels as JSON that the script inserts as text.
#include "report/html_report.hpp"

#include "base/text_encoding.hpp"
#include "report/limit_poll.hpp"
#include "report/page_template.hpp"
#include "report/report_data.hpp"

namespace ariadne::report {

namespace {

// Also replaces bytes that are not UTF-8 (a file name may hold any): the page says it
// is UTF-8.
std::string escape_html(std::string_view raw) {
  const std::string text = replace_invalid_utf8(std::string(raw));
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

void write_html_report(std::ostream& out, const History& history, const Model& model, const CheckResult& result,
                       const ReportContext& context) {
  const ReportData data = build_report_data(history, model, result, context);
  const std::string data_json = report_data_json(data, context.limits);
  LimitPoll(context.limits).check();
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<meta name=\"generator\" content=\"ariadne\">\n"
      << "<title>" << escape_html(data.verdict) << ": " << escape_html(context.file) << " (ariadne)</title>\n"
      << "<style>" << page_style() << "</style>\n</head>\n<body>" << page_markup()
      << "<script type=\"application/json\" id=\"ariadne-data\">" << data_json << "</script>\n"
      << "<script>" << page_script() << "</script>\n</body>\n</html>\n";
}

}  // namespace ariadne::report
