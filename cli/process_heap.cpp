// prepare_process_heap() (process_heap.hpp).
//
// Measured on Jepsen's etcd logs (docs/performance.md): the default check of
// etcd_057, a 13-op core shrunk from 81 ops whose switchable formula holds 560,000
// literals, faulted in 5,440 pages; with these settings about 500, and it took 87 ms
// instead of 137 (perf stat -r 8). A 14-op check faults in 30-60 pages fewer: the
// command line's parser and the check's tables sit on the first huge page, which
// costs every process up to 2 MiB more resident memory.
//
// The same as GLIBC_TUNABLES=glibc.malloc.hugetlb=1 with the two thresholds, which
// glibc reads only from the environment when the process starts: so the main
// heap's first kReservedBytes are claimed here at once (one sbrk, address space
// only) and advised as a whole. Threads' arenas are left as they are: measured, the
// race's helper threads gain nothing from sharing the main arena (M_ARENA_MAX 1).
#include "cli/process_heap.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ariadne::cli {

#if defined(__GLIBC__)

namespace {

// Blocks up to this size come from the heap, not from a mapping of their own that
// faults every page in again each time a vector grows; freed memory at the heap's
// top goes back to the kernel only past kTrimBytes. The test binary's main() does
// the same (tests/main.cpp).
constexpr int kMmapThresholdBytes = 256 << 20;
constexpr int kTrimBytes = 512 << 20;
// The main heap's first extension, advised for huge pages: address space, not
// memory, until it is touched.
constexpr std::size_t kReservedBytes = std::size_t{64} << 20;
constexpr std::uintptr_t kHugePageBytes = std::uintptr_t{2} << 20;
constexpr std::size_t kProbeBytes = 64 << 10;
constexpr std::uintptr_t kChunkHeaderBytes = 2 * sizeof(std::size_t);

// The block below the huge pages (prepare_process_heap()), never freed.
void* volatile filler_block = nullptr;

bool user_tunes_malloc() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables != nullptr && std::strstr(tunables, "glibc.malloc.") != nullptr;
}

}  // namespace

// malloc() and free() themselves, not a container: the blocks are there to steer
// glibc's heap, whose chunks they are.
// NOLINTBEGIN(cppcoreguidelines-no-malloc)
void prepare_process_heap() {
  if (user_tunes_malloc()) return;
  mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
  mallopt(M_TRIM_THRESHOLD, kTrimBytes);
  // One block of kReservedBytes makes malloc extend the heap by as much; freed, it
  // stays in the heap (below kTrimBytes). malloc writes only the headers at its two
  // ends, so the whole huge pages between them are untouched when advised: a range
  // already touched has its small pages' table and stays in small pages. The
  // pointer is volatile so that the compiler keeps the pair.
  void* volatile block = std::malloc(kReservedBytes);
  const auto heap_end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const auto start = reinterpret_cast<std::uintptr_t>(block);
  std::free(block);
  // A heap that could not grow gave a mapping of its own, now unmapped.
  if (start == 0 || start > heap_end || heap_end - start < kReservedBytes) return;
  const std::uintptr_t from = (start + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const std::uintptr_t to = (start + kReservedBytes) & ~(kHugePageBytes - 1);
  // A kernel without transparent huge pages refuses the advice (EINVAL): the heap is
  // then an ordinary one.
  if (to <= from || madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE) != 0) return;
  // The heap below `from` is in small pages. A block from the heap's top up to
  // `from`, kept for the process's life, moves every later block onto the huge
  // pages: the command line's parser and a small history's check then touch one
  // page, not a hundred. Only the block's header is ever touched.
  void* volatile probe = std::malloc(kProbeBytes);
  const auto top = reinterpret_cast<std::uintptr_t>(probe);
  std::free(probe);
  if (top < from && from - top > kProbeBytes) filler_block = std::malloc(from - top - kChunkHeaderBytes);
}
// NOLINTEND(cppcoreguidelines-no-malloc)

#else

void prepare_process_heap() {}

#endif

}  // namespace ariadne::cli
