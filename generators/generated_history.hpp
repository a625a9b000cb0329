// What every history generator returns, and how it becomes a file. A generated
// history knows its verdict by construction, so the file carries it in the comment
// header that `ariadne corpus DIR` reads (`; expected:`, `; model:`), together with
// the command that reproduces it byte for byte (`; generated:`). Keeping the verdict
// inside the file follows Bitwuzla's regression inputs (see docs/style.md).
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/result.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::generators {

struct GeneratedHistory {
  EventLog log;
  std::string model_spec;  // as make_model_from_spec reads it, e.g. "cas-register(0)"
  Verdict expected = Verdict::linearizable;
  // Under --consistency sequential, when the family knows it (`; expected-sequential:`).
  std::optional<Verdict> expected_sequential;
  // The most operations open at once (invoked and not yet :ok or :fail). Crashed
  // operations stay open to the end of the history, so this is what a backtracking
  // checker has to choose among at its hardest point.
  std::size_t max_open_operations = 0;
  // Sentences describing the history, written as comment lines under the header.
  std::vector<std::string> notes;
};

// The whole file: the header (`; generated: <command>`, `; expected: <verdict>`,
// `; expected-sequential: <verdict>` when known, `; model: <spec>`, then the notes, each line starting with "; "), then
// the events as EDN op maps, one per line. `command` is the command line that reproduces it.
std::string format_generated_file(const GeneratedHistory& history, std::string_view command);

}  // namespace ariadne::generators
