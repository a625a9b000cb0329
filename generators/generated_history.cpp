// Formatting a generated history as a file; see generated_history.hpp. The header's
// key lines come first so `ariadne corpus` finds them whatever the notes say.
#include "generators/generated_history.hpp"

#include "history/edn_writer.hpp"

namespace ariadne::generators {

namespace {

// A note is free text; a newline inside it must not end the comment, or the rest
// would be read as EDN.
void append_comment_lines(std::string& out, std::string_view text) {
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find('\n', begin);
    out += "; ";
    out += text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
    out += '\n';
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
}

}  // namespace

std::string format_generated_file(const GeneratedHistory& history, std::string_view command) {
  std::string out;
  append_comment_lines(out, "generated: " + std::string(command));
  append_comment_lines(out, "expected: " + std::string(verdict_name(history.expected)));
  if (history.expected_sequential) {
    append_comment_lines(out, "expected-sequential: " +
                                  std::string(verdict_name(*history.expected_sequential, Consistency::sequential)));
  }
  append_comment_lines(out, "model: " + history.model_spec);
  for (const std::string& note : history.notes) append_comment_lines(out, note);
  out += format_edn_events(history.log);
  return out;
}

}  // namespace ariadne::generators
