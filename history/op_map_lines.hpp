// Reading a file of op maps a line at a time: the fast path (flat_op_map.hpp) on every
// line, on worker threads when the file is large, and the general reader on each line
// the fast path declines. What the sink receives is what the general reader alone
// would have handed it: the same events in the same order with the same positions,
// and the same error at the same place, raised on the calling thread.
//
// Parallel reading: the text is cut into blocks at line starts; workers read blocks
// ahead of the calling thread, which hands each block's events to the sink in file
// order, adding the block's first line number to the line numbers the worker counted
// from the block's start. A worker stops its block at the first line the fast path
// declines; the calling thread then reads on from that line with the general reader,
// and if that reader ends past the block (a map spanning lines), the following blocks
// are read again by the calling thread from where it stands, so a block's work is
// used only when it starts exactly where the file's reading stands.
#pragma once

#include "history/event_sink.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ariadne {

// A line start: its byte offset and its line number.
struct LinePlace {
  std::size_t offset = 0;
  std::uint32_t line = 1;
};

// The general reader of one format, for the lines the fast path declines.
class GeneralLineReader {
 public:
  // Reads from the line start `at` with the general reader, handing events to the
  // sink, until it stands at a line start whose line the fast path may try (or at the
  // text's end), and returns that place. Throws InputError on bad input.
  virtual LinePlace read_from(LinePlace at) = 0;

 protected:
  ~GeneralLineReader() = default;
};

// Reads `text` (whole lines of op maps) into `sink`.
void read_op_map_lines(std::string_view text, EventSink& sink, GeneralLineReader& general, const ReadPlan& plan);

// The place after the line that holds `offset`: the next line's start.
LinePlace next_line_after(std::string_view text, std::size_t offset, std::uint32_t line,
                          const Limits* limits = nullptr);

}  // namespace ariadne
