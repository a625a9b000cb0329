// Stopping a long command cleanly when the user presses Ctrl-C (SIGINT) or a batch
// system ends a job (SIGTERM: Slurm at its time limit or on scancel, Kubernetes when
// it deletes a pod). While an InterruptScope lives, the first such signal only raises
// a flag, which the command hands to its checks as CheckOptions::cancel and reads
// between rows; the command then reports what it has done and exits with
// 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), as a shell would.
// The handler is installed with SA_RESETHAND, so a second signal of the same kind
// finds the default action again and ends the process at once.
#pragma once

#include <signal.h>

#include <atomic>

namespace ariadne::cli {

class InterruptScope {
 public:
  // Installs the handlers. Only one scope may exist at a time (there is one process
  // and one set of signal dispositions); a second throws std::logic_error.
  InterruptScope();
  // Restores the dispositions found when the scope was made.
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // Set once a signal arrived; for CheckOptions::cancel.
  const std::atomic<bool>& flag() const;
  bool interrupted() const { return flag().load(std::memory_order_relaxed); }
  // The signal that arrived first, 0 if none.
  int signal_number() const;
  // "SIGINT" or "SIGTERM"; empty if none arrived.
  const char* signal_name() const;
  // 128 + signal_number(): what the process should exit with.
  int exit_status() const { return 128 + signal_number(); }

 private:
  struct sigaction previous_interrupt_ {};
  struct sigaction previous_terminate_ {};
};

}  // namespace ariadne::cli
