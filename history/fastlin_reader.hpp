// The history files of Lee and Mathur's fastlin (OOPSLA 2025, solarrabbit99/fastlin),
// also read by their PolyLin: a `# queue` (stack, priorityqueue) header line, then one
// operation a line, `method value start end`:
//
//   # stack
//   push 1 1 2
//   pop 1 3 6
//   pop -1 4 5
//
// docs/formats.md ("fastlin histories") states the rules for users.
#pragma once

#include <ariadne/history.hpp>

#include <string>
#include <string_view>

namespace ariadne {

// Whether `text` (with content) looks like a fastlin history: its first line is a
// `#` comment, and its first line that is no comment reads `word integer integer
// integer`.
bool looks_like_fastlin_history(std::string_view text);

// The model that checks the object the header names: fifo-queue for queue, stack for
// stack, max-priority-queue for priorityqueue (fastlin's poll takes the highest
// value). Throws InputError when the first line is no header, or names a set (whose
// contains and remove ariadne's grow-only set has no place for) or an unknown object.
std::string fastlin_model(std::string_view text, const std::string& source);

// The events as a fastlin history that reads back as the same events
// (fastlin_writer.cpp). Throws InputError at an event the format cannot hold.
std::string format_fastlin(const EventLog& log);

}  // namespace ariadne
