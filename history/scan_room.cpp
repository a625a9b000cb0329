// Room for a reader's long scans under the memory limit (scan_room.hpp).
#include "history/scan_room.hpp"

#include "base/limits_ledger.hpp"

#include <ariadne/limits.hpp>

#include <algorithm>
#include <cstring>

namespace ariadne {

void require_room(const Limits* limits, std::size_t seen) {
  if (limits == nullptr || limits->memory_limit() == 0 || base::would_fit(*limits, 2 * (seen + kScanChunk))) return;
  limits->note_memory_exceeded();
  throw LimitReached(Limit::memory,
                     limits->describe(Limit::memory) + " (one line or string of the history is longer than " +
                         format_byte_count(seen) + ", and a reading holds it whole, with what it makes of it)");
}

const char* find_line_end(const char* from, const char* end, const Limits* limits) {
  for (const char* p = from; p < end;) {
    // The line is touched whole, then parsed: what is made of it is about its size.
    if (p != from) require_room(limits, static_cast<std::size_t>(p - from));
    const auto chunk = std::min(static_cast<std::size_t>(end - p), kScanChunk);
    if (const auto* newline = static_cast<const char*>(std::memchr(p, '\n', chunk))) return newline;
    p += chunk;
  }
  return end;
}

std::size_t find_line_end(std::string_view text, std::size_t at, const Limits* limits) {
  if (at >= text.size()) return text.size();
  return static_cast<std::size_t>(find_line_end(text.data() + at, text.data() + text.size(), limits) - text.data());
}

}  // namespace ariadne
