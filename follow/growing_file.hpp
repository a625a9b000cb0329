// Reading a history file while a test is still writing it (`ariadne check FILE --follow`,
// like `tail -f`): GrowingFile hands out the complete lines that have arrived, waits for
// more, and decides when the writer is done. A pipe, a FIFO or standard input is done at
// end of file. A regular file has no such end (its writer may pause for as long as it
// likes), so it is done when the process that writes it exits (--pid), when it has not
// grown for a while (--idle), when the user or a deadline stops it, or when it stops
// being the history: truncated in place, or renamed or deleted by a log rotation.
//
// It only moves bytes; the caller parses the lines. A line is handed out once and whole,
// however the writer split it across its writes, and the bytes held back are one read
// chunk plus the line still being written, so following a file of any size takes little
// memory. Linux only: it waits with inotify where it can, and watches the writer with a
// pidfd.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ariadne::follow {

// Why following stopped; none while it goes on.
enum class FollowEnd : std::uint8_t {
  none,
  closed,         // a pipe or FIFO (or stdin) reached end of file: its writer closed it
  idle,           // the input did not grow for FollowSettings::idle_seconds
  writer_exited,  // the process FollowSettings::pid is gone
  truncated,      // the file became shorter than what was already read (`> file`, logrotate copytruncate)
  replaced,       // the path now names another file, or no file (rotated by rename, or deleted)
  stopped,        // FollowSettings::should_stop returned true (Ctrl-C, the deadline), or the caller stopped
  test_ended,     // the caller read the test's own end-of-run line (given to finish())
};

// "none", "closed", "idle", "writer exited", "truncated", "replaced", "stopped", "test ended".
std::string_view follow_end_name(FollowEnd end);

struct FollowSettings {
  // 0: no idle end; pipes then end at end of file, regular files need a pid, a stop or
  // the caller's finish(). Above 0 it applies to pipes too.
  double idle_seconds = 0;
  // End once this process no longer exists, after reading what it wrote.
  std::optional<int> pid;
  // Polled at least every 50 ms while waiting, and once at the start of each read_lines().
  std::function<bool()> should_stop;
};

class GrowingFile {
 public:
  // "-" is standard input. A regular file is read from its start (standard input from
  // where it stands). Throws std::system_error ("cannot open FILE: reason") or
  // std::runtime_error (a directory) when the input cannot be followed, and
  // std::invalid_argument("no process PID") when settings.pid names no process.
  GrowingFile(std::string path, FollowSettings settings);
  ~GrowingFile();
  GrowingFile(const GrowingFile&) = delete;
  GrowingFile& operator=(const GrowingFile&) = delete;
  GrowingFile(GrowingFile&&) = delete;
  GrowingFile& operator=(GrowingFile&&) = delete;

  // Appends to `lines` the complete lines available now, each with its '\n', about
  // `max_bytes` of them at most (but always one whole line, however long). If there are
  // none, waits up to `max_wait` for some. Returns the number of bytes appended: 0 when
  // the wait timed out or the follow ended (see end()). Throws std::system_error naming
  // the file when reading it fails.
  std::size_t read_lines(std::string& lines, std::chrono::milliseconds max_wait, std::size_t max_bytes = 4u << 20);

  // Ends the follow for a reason the caller found (an end-of-test line, a decision to
  // stop). An end already reached is kept; finish(FollowEnd::none) does nothing.
  void finish(FollowEnd why);
  FollowEnd end() const { return end_; }
  // Once the follow has ended, the bytes after the last newline: the last line of a
  // writer that died mid-line, or of a file that ends without a newline. Empty while
  // following.
  std::string_view incomplete_tail() const;
  std::uint64_t bytes_read() const { return bytes_read_; }  // handed out, in complete lines
  std::uint64_t lines_read() const { return lines_read_; }
  // Standard input or a named file that is a pipe, FIFO, socket or character device:
  // read to end of file, never truncated or rotated.
  bool is_pipe() const { return is_pipe_; }
  // One sentence for the user on why following stopped, such as "history.edn was
  // truncated to 120 bytes after 4,096 had been read; what was read before is checked".
  std::string describe_end() const;
  const std::string& path() const { return path_; }

 private:
  // A descriptor this object opened and closes.
  class OwnedFd {
   public:
    OwnedFd() = default;
    explicit OwnedFd(int fd) : fd_(fd) {}
    ~OwnedFd() { reset(); }
    OwnedFd(const OwnedFd&) = delete;
    OwnedFd& operator=(const OwnedFd&) = delete;
    OwnedFd(OwnedFd&&) = delete;
    OwnedFd& operator=(OwnedFd&&) = delete;
    void reset(int fd = -1);
    int get() const { return fd_; }

   private:
    int fd_ = -1;
  };

  void watch_writer();
  void watch_file();
  std::size_t take_lines(std::string& lines, std::size_t budget, bool whole_line_over_budget);
  bool read_available();
  bool read_pipe();
  bool read_regular_file();
  void append_from_fd(std::size_t wanted);
  FollowEnd end_now();
  FollowEnd end_after_one_more_read();
  bool stop_requested() const;
  bool writer_gone() const;
  bool path_replaced();
  bool idle_for_long_enough() const;
  void wait_for_change(std::chrono::steady_clock::time_point deadline);
  void discard_inotify_events() const;
  std::string display_name() const;

  std::string path_;
  FollowSettings settings_;
  OwnedFd opened_;  // the input when it is not standard input
  int fd_ = -1;     // the input: opened_ or 0
  OwnedFd inotify_;
  OwnedFd pidfd_;
  bool is_pipe_ = false;
  std::uint64_t device_ = 0;
  std::uint64_t inode_ = 0;

  // Bytes read and not yet handed out: [handed_out_, complete_end_) are complete lines,
  // from complete_end_ on the line still being written.
  std::string buffer_;
  std::size_t handed_out_ = 0;
  std::size_t complete_end_ = 0;

  std::uint64_t offset_ = 0;  // position in the file: every byte read from it
  std::uint64_t bytes_read_ = 0;
  std::uint64_t lines_read_ = 0;
  std::chrono::steady_clock::time_point last_growth_;

  bool reached_eof_ = false;                 // a pipe's writer closed it
  std::optional<std::uint64_t> shrunk_to_;   // the size of a file found shorter than offset_
  bool deleted_ = false;                     // with replaced: the path names no file
  FollowEnd pending_end_ = FollowEnd::none;  // noticed; ends after one more read
  FollowEnd end_ = FollowEnd::none;
};

}  // namespace ariadne::follow
