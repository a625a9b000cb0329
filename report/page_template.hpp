// The report page's fixed parts, inlined into every report so that the file needs no
// network: the markup the script fills in, the style sheet and the script (a canvas
// viewer with zoom, pan, lane summaries and hover cards). The data goes between the
// markup and the script, in <script type="application/json" id="ariadne-data">.
//
// Each function returns a file of report/page/ (report.html, report.css, report.js),
// which the build compiles in without its leading comment (cmake/EmbedText.cmake,
// called from the top CMakeLists.txt): edit those files, there is no .cpp here.
#pragma once

#include <string_view>

namespace ariadne::report {

std::string_view page_style();
std::string_view page_markup();
std::string_view page_script();

}  // namespace ariadne::report
