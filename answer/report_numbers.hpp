// The numbers of the reports: milliseconds measured the same way by every command,
// rounded the same way in every JSON report, and printed with fixed decimals in the
// tables, so that two reports of one run can be compared field by field.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace ariadne::answer {

using ReportClock = std::chrono::steady_clock;

inline double ms_since(ReportClock::time_point start) {
  return std::chrono::duration<double, std::milli>(ReportClock::now() - start).count();
}

// Microsecond resolution is all a JSON reader needs, and it keeps reports short.
inline double round_ms(double ms) { return std::round(ms * 1000) / 1000; }

inline std::string format_number(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// 1234567 -> "1,234,567": counts in the millions are read at a glance.
inline std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
  return digits;
}

}  // namespace ariadne::answer
