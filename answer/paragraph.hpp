// Prose for a terminal: words filled into lines of a set width, as the report's
// sentence and --help's paragraphs are.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ariadne::answer {

// `text` cut at spaces into lines of at most `width` columns, `indent` included, each
// starting with `indent` and ending in '\n'. Columns are counted in bytes: a line with
// UTF-8 beyond ASCII breaks a little early. A word longer than a line stands alone.
std::string fill_words(std::string_view text, std::size_t width, std::string_view indent = {});

}  // namespace ariadne::answer
