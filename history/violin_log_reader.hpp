// The execution logs of Violin (Emmi and Enea's POPL 2016 artifact,
// imdea-software/popl-2016-artifact) and LiMo (PLDI 2025, grahnen/LiMo), which share
// one line format:
//
//   # @object queue
//   [1] call add(1)
//       [2] call remove
//   [1] return
//       [2] return empty
//
// docs/formats.md ("Violin and LiMo logs") states the rules for users.
#pragma once

#include <ariadne/history.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace ariadne {

// Whether `text` (with content) looks like such a log: its first content line is a
// `# @object` header, or `[digits] call` / `[digits] return` follows the leading `#`
// comments.
bool looks_like_violin_log(std::string_view text);

// The model that checks the object the log's `# @object` header names (fifo-queue
// for queue and atomic-queue, stack for stack and atomic-stack). Throws InputError
// when the header is missing, repeated or names an object ariadne does not read.
std::string violin_log_model(std::string_view text, const std::string& source);

// The events as a Violin/LiMo log that reads back as the same events
// (violin_log_writer.cpp). Throws InputError at an event the format cannot hold.
std::string format_violin_log(const EventLog& log);

}  // namespace ariadne
