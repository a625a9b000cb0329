// The SIGBUS handler behind MappingFaultWatch (mapping_faults.hpp). The handler reads
// a fixed table of watched ranges with atomic loads only and calls mmap(), a plain
// system call on Linux, though POSIX does not list it as async-signal-safe.
#include "history/mapping_faults.hpp"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <mutex>

#include <sys/mman.h>
#include <unistd.h>

namespace ariadne {

namespace {

// More files than this mapped at once (corpus and cross-check map one per job) are
// read into memory instead (MappedFile), so the table never needs to grow.
constexpr int kWatchSlots = 256;

struct WatchSlot {
  std::atomic<bool> taken{false};
  std::atomic<std::uintptr_t> begin{0};  // 0: not watching (set last, cleared first)
  std::atomic<std::uintptr_t> end{0};
  std::atomic<bool> faulted{false};
};

WatchSlot watch_slots[kWatchSlots];
struct sigaction sigbus_before {};
std::uintptr_t fault_page_size = 4096;
std::once_flag sigbus_installed;

void on_sigbus(int signal_number, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (WatchSlot& slot : watch_slots) {
    const std::uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    if (begin == 0 || address < begin || address >= slot.end.load(std::memory_order_acquire)) continue;
    // Zeros from the faulting page to the mapping's end: one fault, however much of
    // the file went, and the retried access succeeds.
    const std::uintptr_t page = address & ~(fault_page_size - 1);
    const std::uintptr_t end = slot.end.load(std::memory_order_acquire);
    void* zeros =
        ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros != MAP_FAILED) {
      slot.faulted.store(true, std::memory_order_release);
      return;
    }
    break;
  }
  // Not ours: what was there before decides.
  if ((sigbus_before.sa_flags & SA_SIGINFO) != 0 && sigbus_before.sa_sigaction != nullptr) {
    sigbus_before.sa_sigaction(signal_number, info, context);
    return;
  }
  if (sigbus_before.sa_handler != SIG_DFL && sigbus_before.sa_handler != SIG_IGN) {
    sigbus_before.sa_handler(signal_number);
    return;
  }
  // The default action: the access faults again on return and ends the process.
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  ::sigaction(SIGBUS, &fallback, nullptr);
}

void install_sigbus_handler() {
  fault_page_size = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, &sigbus_before);
}

}  // namespace

MappingFaultWatch::MappingFaultWatch(void* begin, std::size_t size) {
  if (begin == nullptr || size == 0) return;
  std::call_once(sigbus_installed, install_sigbus_handler);
  for (int i = 0; i < kWatchSlots; ++i) {
    bool free = false;
    if (!watch_slots[i].taken.compare_exchange_strong(free, true)) continue;
    WatchSlot& slot = watch_slots[i];
    slot.faulted.store(false, std::memory_order_relaxed);
    slot.end.store(reinterpret_cast<std::uintptr_t>(begin) + size, std::memory_order_release);
    slot.begin.store(reinterpret_cast<std::uintptr_t>(begin), std::memory_order_release);
    slot_ = i;
    return;
  }
}

MappingFaultWatch::~MappingFaultWatch() {
  if (slot_ < 0) return;
  WatchSlot& slot = watch_slots[slot_];
  slot.begin.store(0, std::memory_order_release);
  slot.end.store(0, std::memory_order_release);
  slot.taken.store(false, std::memory_order_release);
}

bool MappingFaultWatch::watching() const { return slot_ >= 0; }

bool MappingFaultWatch::faulted() const {
  return slot_ >= 0 && watch_slots[slot_].faulted.load(std::memory_order_acquire);
}

}  // namespace ariadne
