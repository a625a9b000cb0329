// Reads Porcupine kv histories with one EDN reader over the whole text, op map by op
// map, checking that no two share a line. One reader (rather than one per line) keeps
// its interned keywords, and op maps go straight into Events without a map Value:
// together that halves the time on the 4,000-line files.
#include "history/porcupine_kv_reader.hpp"

#include "history/edn_history_reader.hpp"

#include <algorithm>

namespace ariadne {

EventLog parse_porcupine_kv(std::string_view text, const std::string& source) {
  edn::Reader reader(text, source);
  EventLog log;
  log.source = source;
  log.events.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  std::uint32_t previous_line = 0;
  while (!reader.at_end()) {
    const SourcePos start = reader.position();
    if (start.line == previous_line) {
      reader.fail(start, "expected one op map per line, found " + reader.describe_next() +
                             " after the op map on this line");
    }
    log.events.push_back(read_op_map(reader, source));
    previous_line = reader.position().line;
  }
  return log;
}

}  // namespace ariadne
