// The signal handler and its flag; see interrupt.hpp. A handler receives nothing but
// the signal's number, so the only place it can leave a note is an object of static
// storage: these two atomics are the one piece of process-wide mutable state in the
// command line, and lock-free atomics are the only such objects the C++ standard lets
// a signal handler touch ([support.signal]). Everything else (cancelling the checks,
// printing the partial report) happens on ordinary threads that read the flag.
#include "cli/interrupt.hpp"

#include <stdexcept>

namespace ariadne::cli {

namespace {

static_assert(std::atomic<bool>::is_always_lock_free, "the handler may only touch lock-free atomics");
static_assert(std::atomic<int>::is_always_lock_free, "the handler may only touch lock-free atomics");

std::atomic<bool> interrupt_requested{false};
std::atomic<int> first_signal{0};
std::atomic<bool> scope_active{false};

extern "C" void note_interrupt(int signal_number) {
  int none = 0;
  first_signal.compare_exchange_strong(none, signal_number);
  interrupt_requested.store(true);
}

void install(int signal_number, struct sigaction& previous) {
  struct sigaction action {};
  action.sa_handler = note_interrupt;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the second signal meets the default action and ends the process.
  // SA_RESTART: a worker blocked in read() when the signal lands carries on instead of
  // failing with EINTR; stopping is the flag's job.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(signal_number, &action, &previous);
}

}  // namespace

InterruptScope::InterruptScope() {
  if (scope_active.exchange(true)) throw std::logic_error("InterruptScope: one is already active");
  interrupt_requested.store(false);
  first_signal.store(0);
  install(SIGINT, previous_interrupt_);
  install(SIGTERM, previous_terminate_);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &previous_interrupt_, nullptr);
  sigaction(SIGTERM, &previous_terminate_, nullptr);
  scope_active.store(false);
}

const std::atomic<bool>& InterruptScope::flag() const { return interrupt_requested; }

int InterruptScope::signal_number() const { return first_signal.load(); }

const char* InterruptScope::signal_name() const {
  switch (signal_number()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "";
  }
}

}  // namespace ariadne::cli
