// available_cpus() (include/ariadne/limits.hpp): the CPUs the process may run on.
//
// std::thread::hardware_concurrency() counts the machine's CPUs, not the ones this
// process was given: pinned to one with `taskset -c 0`, or to four of a node's 64 by
// Slurm, a command sized by it would start a thread per CPU of the machine. The
// affinity mask says what the scheduler will actually let it use.
#include <ariadne/limits.hpp>

#include <sched.h>

#include <algorithm>
#include <thread>

namespace ariadne {

unsigned available_cpus() {
#ifdef CPU_COUNT
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (::sched_getaffinity(0, sizeof mask, &mask) == 0) return std::max(1, CPU_COUNT(&mask));
#endif
  // No affinity to ask (another platform, or a mask larger than cpu_set_t holds).
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace ariadne
