// Running independent jobs on a few threads. Threads are started here and in the
// check() scheduler only, so that how many run at once is decided in one layer.
#pragma once

#include <cstddef>
#include <functional>

namespace ariadne::portfolio {

// Calls job(i) for every i in [0, count), on up to `threads` threads (0: one per CPU
// the process may run on, available_cpus()), each taking the next index as it finishes the last; returns when all are
// done. With one thread, everything runs on the caller's thread. `job` must not throw.
void for_each_index(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& job);

}  // namespace ariadne::portfolio
