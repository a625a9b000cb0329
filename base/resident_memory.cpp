// resident_bytes() from /proc/<pid>/statm (Linux): its second field is resident pages.
#include "base/resident_memory.hpp"

#include <unistd.h>
#include <cstdio>
#include <string>

namespace ariadne::base {

namespace {

std::uint64_t resident_from(const char* statm_path) {
  std::FILE* statm = std::fopen(statm_path, "r");
  if (!statm) return 0;
  unsigned long long size = 0, resident = 0;
  const int fields = std::fscanf(statm, "%llu %llu", &size, &resident);
  std::fclose(statm);
  if (fields != 2) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

std::uint64_t resident_bytes() { return resident_from("/proc/self/statm"); }

std::uint64_t resident_bytes_of(pid_t pid) {
  return resident_from(("/proc/" + std::to_string(pid) + "/statm").c_str());
}

}  // namespace ariadne::base
