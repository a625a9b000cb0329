#include "follow/read_ahead.hpp"

#include "history/event_sink.hpp"

#include <utility>

namespace ariadne::follow {

namespace {

// Batches read ahead at most: a few pieces of a megabyte, so memory stays small when
// the checks are slower than the reading.
constexpr std::size_t kBatchesAhead = 4;

using Clock = std::chrono::steady_clock;

// Jepsen logs this line once the run is over and before it writes the history out
// (jepsen.core, "Run complete, writing"): no event of the run comes after it.
bool ends_the_run(std::string_view piece) {
  constexpr std::string_view kLine = "Run complete, writing";
  for (std::size_t at = piece.find(kLine); at != std::string_view::npos; at = piece.find(kLine, at + 1)) {
    const std::size_t line_break = piece.rfind('\n', at);
    const std::size_t line_start = line_break == std::string_view::npos ? 0 : line_break + 1;
    if (piece.substr(line_start, at - line_start).find("jepsen.core") != std::string_view::npos) return true;
  }
  return false;
}

class Collect final : public EventSink {
 public:
  explicit Collect(ReadAhead::Batch& batch) : batch_(batch) {}
  void add(Event&& event) override { batch_.events.push_back(std::move(event)); }
  void warn(ReadWarning warning) override { batch_.warnings.push_back(std::move(warning)); }

 private:
  ReadAhead::Batch& batch_;
};

}  // namespace

ReadAhead::ReadAhead(GrowingFile& file, PieceReader& pieces, Spill& spill, bool threaded)
    : file_(file), pieces_(pieces), spill_(spill) {
  if (threaded) thread_ = std::thread([this] { run(); });
}

ReadAhead::~ReadAhead() { stop(); }

void ReadAhead::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

// One piece: what is there now, else a wait for more. A pipe written at full speed is
// empty for moments too, so caught up means the wait took a while.
bool ReadAhead::read_one(Batch& batch, std::chrono::milliseconds wait) {
  piece_.clear();
  std::size_t read = file_.read_lines(piece_, std::chrono::milliseconds(0));
  if (read == 0) {
    const Clock::time_point waiting = Clock::now();
    read = file_.read_lines(piece_, wait);
    batch.caught_up = Clock::now() - waiting >= std::chrono::milliseconds(2);
  }
  if (read == 0) return false;
  {
    std::lock_guard lock(spill_.lock());
    spill_.write(piece_);
  }
  Collect collect(batch);
  pieces_.read(piece_, collect);
  batch.lines = pieces_.lines_read();
  if (pieces_.format() == Format::jepsen_log && ends_the_run(piece_)) file_.finish(FollowEnd::test_ended);
  return true;
}

void ReadAhead::run() {
  try {
    while (file_.end() == FollowEnd::none) {
      Batch batch;
      if (!read_one(batch, std::chrono::milliseconds(100))) continue;
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return batches_.size() < kBatchesAhead || stopping_; });
      if (stopping_) break;
      batches_.push_back(std::move(batch));
      changed_.notify_all();
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    error_ = std::current_exception();
  }
  std::lock_guard lock(mutex_);
  ended_ = true;
  changed_.notify_all();
}

std::optional<ReadAhead::Batch> ReadAhead::next(std::chrono::milliseconds wait) {
  if (!thread_.joinable() && !stopping_) {
    // Inline: one piece now.
    if (file_.end() != FollowEnd::none) return std::nullopt;
    Batch batch;
    if (read_one(batch, wait)) return batch;
    return std::nullopt;
  }
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait, [&] { return !batches_.empty() || ended_; });
  if (!batches_.empty()) {
    Batch batch = std::move(batches_.front());
    batches_.pop_front();
    changed_.notify_all();
    return batch;
  }
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return std::nullopt;
}

bool ReadAhead::done() {
  if (!thread_.joinable()) return file_.end() != FollowEnd::none || stopping_;
  std::lock_guard lock(mutex_);
  return ended_ && batches_.empty() && !error_;
}

}  // namespace ariadne::follow
