// Reads the growing file and parses its lines a few pieces ahead of the pairing and
// the checks, on a thread of its own when the command may use two (--jobs), so that
// reading and checking share the machine's cores as the offline reading's blocks do.
// With one job, each next() reads inline. Every piece read is also written to the
// spill.
#pragma once

#include <ariadne/history.hpp>

#include "follow/growing_file.hpp"
#include "follow/piece_reader.hpp"
#include "follow/spill.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ariadne::follow {

class ReadAhead {
 public:
  struct Batch {
    std::vector<Event> events;
    std::vector<ReadWarning> warnings;
    std::uint32_t lines = 0;  // lines read so far, this batch's included
    // The reader waited for the writer before this batch came: a caught-up reader,
    // whose checks should not wait for windows to grow.
    bool caught_up = false;
  };

  ReadAhead(GrowingFile& file, PieceReader& pieces, Spill& spill, bool threaded);
  ~ReadAhead();  // stops the reader and joins it
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next batch, waiting up to `wait` for one; nullopt when none came (the reader
  // is waiting on the writer) or when reading has ended (done()). Rethrows what the
  // reader threw (a malformed line, a read error).
  std::optional<Batch> next(std::chrono::milliseconds wait);
  // Reading has ended (the file's end, or stop()) and every batch was taken.
  bool done();
  // Asks the reader to stop (--fail-fast), and waits for it.
  void stop();

 private:
  bool read_one(Batch& batch, std::chrono::milliseconds wait);
  void run();

  GrowingFile& file_;
  PieceReader& pieces_;
  Spill& spill_;
  std::string piece_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Batch> batches_;
  bool ended_ = false;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace ariadne::follow
