// The line driver of op-map files (op_map_lines.hpp): the fast path line by line,
// blocks read ahead on worker threads, and the general reader for what the fast path
// declines.
#include "history/op_map_lines.hpp"

#include "history/flat_op_map.hpp"
#include "history/scan_room.hpp"

#include <ariadne/limits.hpp>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ariadne {

namespace {

// Blocks read ahead of the one the sink is taking, per worker: enough to keep the
// workers busy while the calling thread pairs events, few enough that the events
// waiting (about 15,000 a megabyte) stay a small part of the history's memory.
constexpr std::size_t kBlocksAheadPerWorker = 4;

// What the fast path made of one block.
struct Block {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::vector<Event> events;  // Event::pos.line counts lines from the block's start (0 for its first line)
  std::size_t stopped = 0;    // the first line the fast path declined, or `end`
  std::uint32_t lines_before_stop = 0;
  bool ready = false;
};

// Reads lines with the fast path from `at` until `limit` or the first declined line;
// hands each event to `emit` with its line number. Returns where it stopped.
template <class Emit>
LinePlace read_fast(std::string_view text, LinePlace at, std::size_t limit, FlatOpMapReader& fast, const Limits* limits,
                    Emit emit) {
  const char* const base = text.data();
  const char* p = base + at.offset;
  const char* const stop = base + limit;
  Event event;
  while (p < stop) {
    const char* end = find_line_end(p, base + text.size(), limits);
    const auto result = fast.read_line({p, static_cast<std::size_t>(end - p)}, at.line, event);
    if (result == FlatOpMapReader::Line::declined) break;
    if (result == FlatOpMapReader::Line::event) emit(std::move(event));
    p = end < base + text.size() ? end + 1 : end;
    ++at.line;
  }
  at.offset = static_cast<std::size_t>(std::min(p, base + text.size()) - base);
  return at;
}

// Reads from `at` up to `limit` on the calling thread: the fast path, and the general
// reader from each line it declines (`declined`: the line at `at` is known to be one).
// Returns where the reading stands, at `limit` or past it.
LinePlace read_stretch(std::string_view text, LinePlace at, std::size_t limit, bool declined, FlatOpMapReader& fast,
                       EventSink& sink, GeneralLineReader& general, const Limits* limits) {
  while (at.offset < limit) {
    if (!declined) {
      at = read_fast(text, at, limit, fast, limits, [&](Event&& event) { sink.add(std::move(event)); });
      sink.passed(at.offset);
      if (at.offset >= limit) break;
    }
    at = general.read_from(at);
    declined = false;
  }
  return at;
}

class ParallelLines {
 public:
  ParallelLines(std::string_view text, EventSink& sink, GeneralLineReader& general, const ReadPlan& plan,
                unsigned workers)
      : text_(text), sink_(sink), general_(general), limits_(plan.limits) {
    const std::size_t block = std::max<std::size_t>(plan.block_bytes, 1);
    for (std::size_t begin = 0; begin < text.size();) {
      std::size_t end = std::min(text.size(), begin + block);
      if (end < text.size()) {
        const char* newline = find_line_end(text.data() + end, text.data() + text.size(), limits_);
        end = std::min(text.size(), static_cast<std::size_t>(newline - text.data()) + 1);
      }
      blocks_.push_back({begin, end, {}, end, 0, false});
      begin = end;
    }
    ahead_ = kBlocksAheadPerWorker * workers;
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }

  ~ParallelLines() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

  ParallelLines(const ParallelLines&) = delete;
  ParallelLines& operator=(const ParallelLines&) = delete;

  void run() {
    LinePlace at;
    FlatOpMapReader fast;  // for the stretches the calling thread reads itself
    for (std::size_t k = 0; k < blocks_.size(); ++k) {
      Block& block = wait_for(k);
      bool declined = false;  // the line at `at` is one the fast path declined
      if (at.offset == block.begin) {
        for (Event& event : block.events) {
          event.pos.line += at.line;
          sink_.add(std::move(event));
        }
        at.offset = block.stopped;
        at.line += block.lines_before_stop;
        declined = at.offset < block.end;
        sink_.passed(at.offset);
      }
      release(k);
      // A declined line, or general reading that ended inside this block: the rest of
      // the block is read here.
      at = read_stretch(text_, at, block.end, declined, fast, sink_, general_, limits_);
    }
  }

 private:
  Block& wait_for(std::size_t k) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return blocks_[k].ready; });
    return blocks_[k];
  }

  void release(std::size_t k) {
    {
      const std::lock_guard lock(mutex_);
      // The vector goes back to the pool with its room: fresh memory costs a page
      // fault every 4 KiB, which on this kind of machine is most of a block's time.
      blocks_[k].events.clear();
      spare_.push_back(std::move(blocks_[k].events));
      consumed_ = k + 1;
    }
    changed_.notify_all();
  }

  void work() {
    FlatOpMapReader fast;
    std::vector<Event> events;
    for (;;) {
      std::size_t k;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stopping_ || (next_ < blocks_.size() && next_ < consumed_ + ahead_); });
        if (stopping_) return;
        k = next_++;
        if (!spare_.empty()) {
          events = std::move(spare_.back());
          spare_.pop_back();
        }
      }
      Block& block = blocks_[k];
      LinePlace stopped{block.begin, 0};
      try {
        stopped = read_fast(text_, stopped, block.end, fast, limits_,
                            [&](Event&& event) { events.push_back(std::move(event)); });
      } catch (const std::exception&) {
        // Out of memory, or out of room under the memory limit, say: the calling thread
        // reads the whole block again itself, and meets the limit there if it holds.
        events.clear();
        stopped = {block.begin, 0};
      }
      {
        const std::lock_guard lock(mutex_);
        block.events = std::move(events);
        events = {};
        block.stopped = stopped.offset;
        block.lines_before_stop = stopped.line;
        block.ready = true;
      }
      changed_.notify_all();
    }
  }

  std::string_view text_;
  EventSink& sink_;
  GeneralLineReader& general_;
  const Limits* limits_;
  std::vector<Block> blocks_;
  std::size_t ahead_ = 1;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t next_ = 0;                   // the next block a worker takes
  std::size_t consumed_ = 0;               // blocks the calling thread is done with
  std::vector<std::vector<Event>> spare_;  // emptied blocks' vectors, for the next
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

unsigned worker_count(const ReadPlan& plan) { return plan.threads != 0 ? plan.threads : available_cpus(); }

}  // namespace

LinePlace next_line_after(std::string_view text, std::size_t offset, std::uint32_t line, const Limits* limits) {
  const std::size_t newline = find_line_end(text, std::min(offset, text.size()), limits);
  return newline < text.size() ? LinePlace{newline + 1, line + 1} : LinePlace{text.size(), line};
}

void read_op_map_lines(std::string_view text, EventSink& sink, GeneralLineReader& general, const ReadPlan& plan) {
  if (!plan.fast) {
    for (LinePlace at; at.offset < text.size();) at = general.read_from(at);
    return;
  }
  const unsigned workers = worker_count(plan);
  if (workers > 1 && text.size() >= 2 * plan.block_bytes) {
    ParallelLines(text, sink, general, plan, workers).run();
    return;
  }
  FlatOpMapReader fast;
  read_stretch(text, {}, text.size(), false, fast, sink, general, plan.limits);
}

}  // namespace ariadne
