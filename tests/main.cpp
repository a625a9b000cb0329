// The test binary's main: doctest's, after one allocator setting. The differential
// suites run thousands of small checks, each allocating and freeing a few large
// blocks (solver contexts, memo tables); by default glibc hands such blocks back to
// the kernel at once and the next check faults them in again, zeroed, which cost
// more than the checks themselves. Keeping freed memory in the process avoids that.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <malloc.h>

int main(int argc, char** argv) {
  mallopt(M_MMAP_THRESHOLD, 256 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 512 * 1024 * 1024);
  return doctest::Context(argc, argv).run();
}
