// The process's resident memory, for limits on allocations we cannot count
// ourselves (the SAT and SMT solvers allocate behind our back).
#pragma once

#include <cstdint>

namespace ariadne::portfolio {

// Resident set size in bytes, or 0 where the platform does not say (no /proc).
std::uint64_t resident_bytes();

}  // namespace ariadne::portfolio
