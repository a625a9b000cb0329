// Reads a history that arrives a piece at a time (check --follow): each piece is whole
// lines, and its events are handed on with their places in the whole file, so a
// message names the line of the file, not of the piece. The format is detected on the
// first piece that has content; what a reader learns from the lines before (a
// jepsen.log's console prefix) carries over. Line formats only: an op map, a log
// line or a JSON event per line, as tests append them.
#pragma once

#include <ariadne/history.hpp>

#include "history/event_sink.hpp"
#include "history/jepsen_log_reader.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ariadne::follow {

class PieceReader {
 public:
  PieceReader(std::string source, Format format);

  // Reads one piece. A piece without a final line break is the file's last line (the
  // readers then judge a line cut short). Throws InputError at the file's place.
  void read(std::string_view piece, EventSink& sink);
  // After the last piece: the warnings a reader gives once (lines skipped).
  void finish(EventSink& sink);

  // Auto-detected once the first piece with content was read.
  std::optional<Format> format() const { return format_; }
  std::uint32_t lines_read() const { return lines_; }

 private:
  std::string source_;
  Format requested_;
  std::optional<Format> format_;
  std::optional<JepsenLogLines> jepsen_;
  std::uint32_t lines_ = 0;
};

}  // namespace ariadne::follow
