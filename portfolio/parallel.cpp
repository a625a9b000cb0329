#include "portfolio/parallel.hpp"

#include <ariadne/limits.hpp>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace ariadne::portfolio {

void for_each_index(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& job) {
  if (threads == 0) threads = available_cpus();
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, count));
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) job(i);
  };
  if (threads <= 1) {
    work();
    return;
  }
  std::vector<std::jthread> workers;
  for (unsigned t = 0; t < threads; ++t) workers.emplace_back(work);
}

}  // namespace ariadne::portfolio
