// The exit statuses of the command line, and the one place that turns an exception
// into a status and a message. Users' scripts branch on the statuses, so they are
// part of the contract: 0, 1 and 2 are the three verdicts, and the error statuses
// follow BSD sysexits(3) (64 usage, 65 data, 70 software) so shells and CI systems
// that already know those numbers read them correctly.
#pragma once

#include <ariadne/check.hpp>

#include <functional>
#include <string>

namespace ariadne::answer {

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

// What an exception means on the command line.
struct Failure {
  int exit_status = kExitInternal;  // kExitBadInput, kExitUsage or kExitInternal
  std::string message;              // a bug's begins "internal error: "
};

// The failure the exception being handled stands for, so call it only inside a catch
// block: InputError is bad input (65), UsageError and CLI11's errors are usage errors
// (64), anything else is a bug (70). A command that records a row's error instead of
// stopping (corpus, cross-check) records this message.
Failure current_failure();

// Runs `command` and returns its exit status. An exception out of it is printed on
// stderr as "ariadne: MESSAGE", followed by the pointer to --help after a usage
// error and the request to report a bug after an internal one, and its status
// returned instead: a script always gets one of the documented statuses, never an
// abort.
int run_guarded(const std::function<int()>& command);

}  // namespace ariadne::answer
