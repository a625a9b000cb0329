// The process's resident memory, for limits on allocations we cannot count
// ourselves (the SAT and SMT solvers allocate behind our back).
#pragma once

#include <sys/types.h>

#include <cstdint>

namespace ariadne::base {

// Resident set size in bytes, or 0 where the platform does not say (no /proc).
std::uint64_t resident_bytes();
// The same for another process of ours (a child), 0 once it is gone.
std::uint64_t resident_bytes_of(pid_t pid);

}  // namespace ariadne::base
