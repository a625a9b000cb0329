// The exit statuses of the command line. Users' scripts branch on them, so they are
// part of the contract: 0, 1 and 2 are the three verdicts, and the error statuses
// follow BSD sysexits(3) (64 usage, 65 data, 70 software) so shells and CI systems
// that already know those numbers read them correctly.
#pragma once

#include <ariadne/check.hpp>

namespace ariadne::cli {

inline constexpr int kExitLinearizable = 0;
inline constexpr int kExitNotLinearizable = 1;
inline constexpr int kExitUnknown = 2;
inline constexpr int kExitUsage = 64;
inline constexpr int kExitBadInput = 65;
inline constexpr int kExitInternal = 70;

// For `ariadne corpus`: every row matched its expected verdict, or not.
inline constexpr int kExitCorpusMatches = 0;
inline constexpr int kExitCorpusMismatches = 1;

inline int exit_status_for(Verdict verdict) {
  switch (verdict) {
    case Verdict::linearizable: return kExitLinearizable;
    case Verdict::not_linearizable: return kExitNotLinearizable;
    case Verdict::unknown: return kExitUnknown;
  }
  return kExitUnknown;
}

}  // namespace ariadne::cli
