// resident_bytes() from /proc/self/statm (Linux): its second field is resident pages.
#include "portfolio/resident_memory.hpp"

#include <cstdio>
#include <unistd.h>

namespace ariadne::portfolio {

std::uint64_t resident_bytes() {
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  if (!statm) return 0;
  unsigned long long size = 0, resident = 0;
  const int fields = std::fscanf(statm, "%llu %llu", &size, &resident);
  std::fclose(statm);
  if (fields != 2) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace ariadne::portfolio
