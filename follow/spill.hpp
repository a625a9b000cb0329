// Every complete line `check --follow` reads, kept on disk rather than in memory: a
// refuted partition's whole history is read back from it to certify the refutation,
// with its core and failing op. A temporary file, removed when the Spill goes.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

namespace ariadne::follow {

class Spill {
 public:
  Spill();  // throws std::system_error when no temporary file can be made
  ~Spill();
  Spill(const Spill&) = delete;
  Spill& operator=(const Spill&) = delete;

  // Appends; the reader's thread writes while the checking thread may read back, so
  // both hold lock() around what they do.
  void write(std::string_view text);
  void flush();
  const std::string& path() const { return path_; }
  std::mutex& lock() { return lock_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::mutex lock_;
};

}  // namespace ariadne::follow
