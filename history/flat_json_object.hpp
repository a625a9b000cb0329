// The fast path of the JSON history reader: an event object that sits on one line,
// as JSON writers put one event a line in an array, read straight from the bytes.
//
// It reads a strict subset of JSON and declines the rest: keys that are strings
// without escapes; values that are null, true, false, integers that fit in 64 bits,
// strings of printable ASCII without escapes, and arrays of those. A declined object
// (a float, an escape, a nested object, a line break inside, bad input of any kind)
// is read by the general parser, so the fast path never changes what a file means or
// what an error says (tests/history/fast_reader_differential_test.cpp). An object
// with a member named twice is declined too, for the general parser to refuse.
#pragma once

#include <ariadne/value.hpp>

#include "history/recent_values.hpp"

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace ariadne {

class Limits;

class FlatJsonObjectReader {
 public:
  // `limits`: for the search of a line's end, which can run over a whole file written
  // on one line (scan_room.hpp).
  explicit FlatJsonObjectReader(const Limits* limits = nullptr) : limits_(limits) {}

  // The members of the object read last, in file order; keys point into the text.
  std::vector<std::pair<std::string_view, Value>> members;

  // Reads the object whose '{' is at text[at]; returns the offset after its '}', or
  // 0 when it declines (members then undefined).
  std::size_t read(std::string_view text, std::size_t at);

 private:
  bool read_value(const char*& p, const char* end, Value& out, int depth);
  const char* line_end(std::string_view text, std::size_t at);
  RecentValues recent_;
  const Limits* limits_;
  // The line found last: [line_begin_, line_end_) of line_text_ has no line break.
  const char* line_text_ = nullptr;
  const char* line_begin_ = nullptr;
  const char* line_end_ = nullptr;
};

}  // namespace ariadne
