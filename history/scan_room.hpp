// Room for what a reader is about to touch or copy, under the memory limit.
//
// The memory watch (LimitsWatch) samples the process every few milliseconds and the
// readers poll the limits every megabyte they pass; both count what was read at
// least once. A single line or token of 100 MB escapes them: the search for its end
// touches every page of it (a mapped file's pages count in the resident size) and
// the copy doubles it, all between two polls. So the scans that can run over a whole
// line or string ask first, a chunk at a time, whether the bytes they are about to
// touch still fit (base::would_fit, by the watch's last measure), and stop the
// reading with the memory limit when they do not: what the watch would have found a
// moment later, found before the memory is taken.
#pragma once

#include <cstddef>
#include <string_view>

namespace ariadne {

class Limits;

// How much a scan touches between two questions: small beside any useful memory
// limit, large enough that asking costs nothing measurable.
inline constexpr std::size_t kScanChunk = std::size_t{1} << 20;

// Before a scan reads on through the next chunk of a line or token of which it has
// read `seen` bytes: throws LimitReached (memory), with the limit noted as exceeded,
// when twice `seen` and the chunk (its bytes touched, and what a reader makes of
// them, about as large) would pass the memory limit; nothing without limits or a
// memory limit.
void require_room(const Limits* limits, std::size_t seen);

// The first '\n' in [from, end), or `end`: memchr a chunk at a time, asking for room
// before each chunk past the first for twice the line so far: a line is touched
// whole, then parsed, and what a reader makes of a line is about its size (a JSON
// history written on one line needs twice its size).
const char* find_line_end(const char* from, const char* end, const Limits* limits);

// The offset of the first '\n' in `text` at or after `at`, or text.size().
std::size_t find_line_end(std::string_view text, std::size_t at, const Limits* limits);

// The end of the token that starts at text[at]: the first offset whose byte `in_token`
// refuses, or text.size(). A token is copied into a Value once scanned, so room is
// asked for twice its bytes, before each chunk past the first.
template <class InToken>
std::size_t scan_token_end(std::string_view text, std::size_t at, const Limits* limits, InToken in_token) {
  const std::size_t begin = at;
  for (std::size_t ask_at = at + kScanChunk;; ask_at += kScanChunk) {
    const std::size_t stop = ask_at < text.size() ? ask_at : text.size();
    while (at < stop && in_token(text[at])) ++at;
    if (at < ask_at) return at;
    require_room(limits, at - begin);
  }
}

}  // namespace ariadne
