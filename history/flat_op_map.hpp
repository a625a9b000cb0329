// The fast path of the EDN-shaped readers: an op map that sits on one line, as Jepsen
// writes history.edn and Porcupine its kv files, read straight from the file's bytes
// into an Event, without the general reader's frames, token strings or position
// bookkeeping.
//
// It reads a strict subset of EDN and declines everything else: keys that are
// keywords; values that are nil, booleans, integers that fit in 64 bits, keywords,
// strings without escapes, and vectors, lists, sets and maps of those. A line it
// declines (a float, an escape, a tagged literal, a map spanning lines, a comment
// inside the map, an op map finish() would refuse, bad input of any kind) goes to the
// general reader, which reads it as always: the fast path never changes what a file
// means or what an error says, it only takes the common case off the general path.
// tests/history/fast_reader_differential_test.cpp and the reader fuzz targets
// (fuzz/reader_target.cpp) hold the two paths to the same events and the same errors.
//
// Keywords and short strings share one Value through caches (recent_values.hpp), as
// the general reader's do. One reader per thread: the caches are its own.
#pragma once

#include <ariadne/history.hpp>

#include "history/recent_values.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ariadne {

class FlatOpMapReader {
 public:
  enum class Line : std::uint8_t {
    event,     // one op map, now in the Event
    empty,     // blank, or a `;` comment: no event
    declined,  // anything else: the general reader must read this line
  };

  // Reads one line (its bytes without the '\n'); `line` is its number for Event::pos.
  // An op map must be the line's only form: whitespace, commas or a `;` comment may
  // follow it.
  Line read_line(std::string_view text, std::uint32_t line, Event& event);

  // Reads the op map `text` starts with, which must end within `text` (the rest of its
  // line, or less): returns the bytes it took, through the closing brace, or 0 to
  // decline. `pos` is the brace's place, for Event::pos. What follows the op map is the
  // caller's: how op maps inside a vector, as Knossos writes histories, are read.
  std::size_t read_op_map(std::string_view text, SourcePos pos, Event& event);

  // Reads the values of a Jepsen log line after its prefix: process, :type, :f and
  // an optional value, then anything (Jepsen's error annotations). Declines what the
  // general reader might read otherwise or refuse.
  Line read_log_line(std::string_view text, SourcePos start, Event& event);

 private:
  struct Cursor;
  bool read_value(Cursor& at, Value& out, int depth);
  bool read_keyword(Cursor& at, Value& out);
  bool read_string(Cursor& at, Value& out);
  bool read_integer(Cursor& at, Value& out);
  bool read_symbol(Cursor& at, Value& out);
  bool read_elements(Cursor& at, char closer, std::vector<Value>& out, int depth);

  RecentValues recent_;
};

}  // namespace ariadne
