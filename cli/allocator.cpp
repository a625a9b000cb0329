// glibc serves every allocation above 128 KB-32 MB with a fresh mmap() and gives it
// back with munmap() when freed. A check of a large history allocates and frees
// partition-sized arrays phase after phase (the relaxed histories and their
// meanings in the core and the explanation, each 10^6 entries long for a 10^6-op
// register), and every one of them then costs a page fault per 4 KB, each page
// cleared by the kernel: measured on a refuted 10^6-op register history, 575,000
// page faults and about a third of the command's time. Served from the heap
// instead, and the heap never trimmed, freed memory is reused by the next phase:
// 202,000 page faults, the whole command 4.4-4.9 s -> 2.5-3.8 s, peak resident
// memory 783 -> 812 MB. Memory is still returned at exit; the resident-memory
// watchers (include/ariadne/limits.hpp) see the peak, as before.
//
// Only the command line does this: a program linking libariadne keeps its own
// allocator settings.
#include "cli/allocator.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ariadne::cli {

void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_MAX, 0);  // no mmap() per large block: glibc falls back to it only if the heap cannot grow
  mallopt(M_TRIM_THRESHOLD, 0x7fffffff);  // never hand the heap's top back to the kernel
#endif
}

}  // namespace ariadne::cli
