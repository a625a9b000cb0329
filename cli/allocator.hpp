// How the command line asks the C library's allocator to keep freed memory.
#pragma once

namespace ariadne::cli {

// Called once, first thing in main(): see allocator.cpp.
void keep_freed_memory_for_reuse();

}  // namespace ariadne::cli
