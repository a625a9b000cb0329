// Following a growing history file: reading what has arrived, waiting for more with
// inotify (or poll() on a pipe, or short sleeps where inotify cannot be had), and
// noticing each way a follow ends. The ends are looked at only when nothing more can be
// read at that moment, so a writer's last lines are always handed out before its exit,
// an idle spell, a rename or a deletion ends the follow; a truncation is the exception,
// as whatever comes after it is another content.
#include "follow/growing_file.hpp"

#include <algorithm>
#include <cerrno>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ariadne::follow {

namespace {

using Clock = std::chrono::steady_clock;

// The most read at once: what is held beyond the line being written.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
// The longest wait between two looks at should_stop, the writer and the path. Without
// inotify this is also how late a regular file's growth is seen, so it is shorter.
constexpr std::chrono::milliseconds kLongestWait{50};
constexpr std::chrono::milliseconds kPollingWait{25};
// What is read from a pipe that polls readable but holds no bytes (FIONREAD): enough to
// see its end of file, or the bytes of a device that does not count them.
constexpr std::size_t kSmallRead = 4096;

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

std::string with_thousands(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, 1, ',');
  return digits;
}

std::string byte_count(std::uint64_t value) { return with_thousands(value) + (value == 1 ? " byte" : " bytes"); }

// kill(pid, 0) also succeeds on a zombie: a writer that exited but was not yet reaped by
// its parent (a test harness that waits for it later) has stopped writing all the same.
bool is_zombie(int pid) {
  const std::string stat_path = "/proc/" + std::to_string(pid) + "/stat";
  const int fd = ::open(stat_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char text[512];
  const ::ssize_t n = ::read(fd, text, sizeof text);
  ::close(fd);
  if (n <= 0) return false;
  // "PID (COMMAND) STATE ...", where COMMAND may hold spaces and parentheses.
  const std::string_view line(text, static_cast<std::size_t>(n));
  const std::size_t name_end = line.rfind(')');
  if (name_end == std::string_view::npos || name_end + 2 >= line.size()) return false;
  const char state = line[name_end + 2];
  return state == 'Z' || state == 'X';
}

bool process_exists(int pid) { return !(::kill(pid, 0) == -1 && errno == ESRCH); }

}  // namespace

std::string_view follow_end_name(FollowEnd end) {
  switch (end) {
    case FollowEnd::none: return "none";
    case FollowEnd::closed: return "closed";
    case FollowEnd::idle: return "idle";
    case FollowEnd::writer_exited: return "writer exited";
    case FollowEnd::truncated: return "truncated";
    case FollowEnd::replaced: return "replaced";
    case FollowEnd::stopped: return "stopped";
    case FollowEnd::test_ended: return "test ended";
  }
  return "unknown";
}

void GrowingFile::OwnedFd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

GrowingFile::GrowingFile(std::string path, FollowSettings settings)
    : path_(std::move(path)), settings_(std::move(settings)) {
  if (path_ == "-") {
    fd_ = STDIN_FILENO;
  } else {
    // O_NONBLOCK: opening a FIFO would otherwise wait for a writer, past any stop.
    opened_.reset(::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (opened_.get() < 0) throw_errno("cannot open " + path_);
    fd_ = opened_.get();
  }
  struct stat info {};
  if (::fstat(fd_, &info) != 0) throw_errno("cannot open " + display_name());
  if (S_ISDIR(info.st_mode)) throw std::runtime_error("cannot open " + display_name() + ": it is a directory");
  is_pipe_ = !S_ISREG(info.st_mode);
  device_ = info.st_dev;
  inode_ = info.st_ino;
  if (!is_pipe_ && fd_ == STDIN_FILENO) {
    // Standard input redirected from a file is read from where the shell left it.
    const ::off_t position = ::lseek(fd_, 0, SEEK_CUR);
    if (position > 0) offset_ = static_cast<std::uint64_t>(position);
  }
  watch_writer();
  if (!is_pipe_) watch_file();
  last_growth_ = Clock::now();
}

GrowingFile::~GrowingFile() = default;

// A pidfd sees the writer's exit even when its pid has been reused since, and wakes a
// wait at once; kill() polling is the fallback on kernels before 5.3 or under seccomp.
void GrowingFile::watch_writer() {
  if (!settings_.pid) return;
  const int pid = *settings_.pid;
  if (pid <= 0) throw std::invalid_argument("no process " + std::to_string(pid));
#ifdef SYS_pidfd_open
  // A writer that has exited but is not yet reaped is accepted: its file is read to the
  // end, and the follow ends there.
  const long pidfd = ::syscall(SYS_pidfd_open, pid, 0);
  if (pidfd >= 0) {
    pidfd_.reset(static_cast<int>(pidfd));
    return;
  }
  if (errno == ESRCH) throw std::invalid_argument("no process " + std::to_string(pid));
#endif
  if (!process_exists(pid)) throw std::invalid_argument("no process " + std::to_string(pid));
}

// Without inotify (its limits reached, or a file system that has none) the follow still
// works, looking at the file every kPollingWait.
void GrowingFile::watch_file() {
  inotify_.reset(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  if (inotify_.get() < 0) return;
  // The path may already name another file than the one open; /proc names the open one.
  const std::string watched = "/proc/self/fd/" + std::to_string(fd_);
  // IN_ATTRIB: an unlink changes the link count; IN_MOVE_SELF: a rename.
  const std::uint32_t events = IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF;
  if (::inotify_add_watch(inotify_.get(), watched.c_str(), events) < 0) inotify_.reset();
}

std::size_t GrowingFile::read_lines(std::string& lines, std::chrono::milliseconds max_wait, std::size_t max_bytes) {
  if (end_ != FollowEnd::none) return 0;
  if (stop_requested()) {
    end_ = FollowEnd::stopped;
    return 0;
  }
  const Clock::time_point deadline = Clock::now() + std::max(max_wait, std::chrono::milliseconds::zero());
  std::size_t appended = 0;
  for (;;) {
    appended += take_lines(lines, max_bytes > appended ? max_bytes - appended : 0, appended == 0);
    // Lines left in the buffer did not fit in max_bytes: they are the next call's.
    if (appended > 0 && (appended >= max_bytes || complete_end_ > handed_out_)) return appended;
    if (read_available()) continue;
    if (appended > 0) return appended;
    // Everything readable has been read: now an end can be taken.
    if (const FollowEnd end = end_now(); end != FollowEnd::none) {
      end_ = end;
      return 0;
    }
    if (pending_end_ == FollowEnd::none) pending_end_ = end_after_one_more_read();
    if (pending_end_ != FollowEnd::none) continue;
    if (idle_for_long_enough()) {
      end_ = FollowEnd::idle;
      return 0;
    }
    if (Clock::now() >= deadline) return 0;
    wait_for_change(deadline);
  }
}

// Hands out the complete lines that fit in `budget` bytes, or, when not even one does
// and `whole_line_over_budget`, the first line whole.
std::size_t GrowingFile::take_lines(std::string& lines, std::size_t budget, bool whole_line_over_budget) {
  if (complete_end_ == handed_out_) return 0;
  std::size_t cut = complete_end_;
  if (complete_end_ - handed_out_ > budget) {
    const std::string_view complete(buffer_.data() + handed_out_, complete_end_ - handed_out_);
    const std::size_t last_newline = complete.substr(0, budget).rfind('\n');
    if (last_newline != std::string_view::npos) {
      cut = handed_out_ + last_newline + 1;
    } else if (whole_line_over_budget) {
      cut = handed_out_ + complete.find('\n', budget) + 1;
    } else {
      return 0;
    }
  }
  const std::string_view handed(buffer_.data() + handed_out_, cut - handed_out_);
  lines.append(handed);
  lines_read_ += static_cast<std::uint64_t>(std::count(handed.begin(), handed.end(), '\n'));
  const std::size_t length = handed.size();
  bytes_read_ += length;
  handed_out_ = cut;
  return length;
}

// Reads one chunk if the input has bytes now, without waiting; returns whether it did.
// Called only when every complete line has been handed out, so only the line being
// written is kept, moved to the front.
bool GrowingFile::read_available() {
  buffer_.erase(0, handed_out_);
  complete_end_ -= handed_out_;
  handed_out_ = 0;
  return is_pipe_ ? read_pipe() : read_regular_file();
}

bool GrowingFile::read_pipe() {
  if (reached_eof_) return false;
  // A FIFO nobody has opened for writing yet reads as end of file; Linux reports it
  // neither readable nor hung up until a writer has come and gone, so a read made only
  // on poll()'s word returns 0 only at the real end.
  pollfd input{fd_, POLLIN, 0};
  if (::poll(&input, 1, 0) <= 0) return false;  // nothing yet, or EINTR: the caller comes back
  if ((input.revents & POLLNVAL) != 0)
    throw std::system_error(EBADF, std::generic_category(), "cannot read " + display_name());
  int waiting = 0;
  std::size_t wanted = kChunkBytes;
  if (::ioctl(fd_, FIONREAD, &waiting) == 0) {
    wanted = waiting > 0 ? std::min(static_cast<std::size_t>(waiting), kChunkBytes) : kSmallRead;
  }
  const std::size_t before = buffer_.size();
  append_from_fd(wanted);
  return buffer_.size() > before;
}

bool GrowingFile::read_regular_file() {
  if (shrunk_to_) return false;
  // The size, asked first, tells a truncation apart from no news, and sizes the read so
  // that no more is asked than is there.
  struct stat info {};
  if (::fstat(fd_, &info) != 0) throw_errno("cannot read " + display_name());
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size < offset_) {
    shrunk_to_ = size;
    return false;
  }
  if (size == offset_) return false;
  const std::size_t before = buffer_.size();
  append_from_fd(static_cast<std::size_t>(std::min<std::uint64_t>(size - offset_, kChunkBytes)));
  return buffer_.size() > before;
}

// One read() of up to `wanted` bytes onto the end of the buffer. Sets reached_eof_ when
// read() returns 0 on a pipe; a regular file's end is judged by its size instead.
void GrowingFile::append_from_fd(std::size_t wanted) {
  const std::size_t before = buffer_.size();
  buffer_.resize(before + wanted);
  ::ssize_t got = 0;
  do {
    got = ::read(fd_, buffer_.data() + before, wanted);
  } while (got < 0 && errno == EINTR);
  if (got < 0) {
    const int error = errno;
    buffer_.resize(before);
    if (error == EAGAIN || error == EWOULDBLOCK) return;
    throw std::system_error(error, std::generic_category(), "cannot read " + display_name());
  }
  buffer_.resize(before + static_cast<std::size_t>(got));
  if (got == 0) {
    if (is_pipe_) reached_eof_ = true;
    return;
  }
  offset_ += static_cast<std::uint64_t>(got);
  last_growth_ = Clock::now();
  const std::string_view fresh(buffer_.data() + before, static_cast<std::size_t>(got));
  if (const std::size_t newline = fresh.rfind('\n'); newline != std::string_view::npos) {
    complete_end_ = before + newline + 1;
  }
}

// The ends that need nothing more read: the input ended, its content changed, an end
// noticed before the last read, a stop.
FollowEnd GrowingFile::end_now() {
  if (reached_eof_) return FollowEnd::closed;
  if (shrunk_to_) return FollowEnd::truncated;
  if (pending_end_ != FollowEnd::none) return pending_end_;
  if (stop_requested()) return FollowEnd::stopped;
  return FollowEnd::none;
}

// The ends after which the input may still hold bytes written just before: the writer
// wrote its last lines and exited, or wrote them and had the file renamed, between the
// last read and this look.
FollowEnd GrowingFile::end_after_one_more_read() {
  if (!is_pipe_ && path_replaced()) return FollowEnd::replaced;
  if (writer_gone()) return FollowEnd::writer_exited;
  return FollowEnd::none;
}

bool GrowingFile::stop_requested() const { return settings_.should_stop && settings_.should_stop(); }

bool GrowingFile::writer_gone() const {
  if (!settings_.pid) return false;
  if (pidfd_.get() >= 0) {
    pollfd exited{pidfd_.get(), POLLIN, 0};
    return ::poll(&exited, 1, 0) > 0 && (exited.revents & (POLLIN | POLLHUP)) != 0;
  }
  return !process_exists(*settings_.pid) || is_zombie(*settings_.pid);
}

bool GrowingFile::path_replaced() {
  if (path_ == "-") return false;
  struct stat info {};
  if (::stat(path_.c_str(), &info) != 0) {
    deleted_ = true;
    return true;
  }
  return info.st_dev != device_ || info.st_ino != inode_;
}

bool GrowingFile::idle_for_long_enough() const {
  if (settings_.idle_seconds <= 0) return false;
  return Clock::now() - last_growth_ >= std::chrono::duration<double>(settings_.idle_seconds);
}

// Sleeps until the input may have changed, the writer exits, or the next look is due.
void GrowingFile::wait_for_change(Clock::time_point deadline) {
  const Clock::time_point now = Clock::now();
  Clock::duration wait =
      std::min<Clock::duration>(deadline - now, inotify_.get() >= 0 || is_pipe_ ? kLongestWait : kPollingWait);
  if (settings_.idle_seconds > 0) {
    const auto idle_at = last_growth_ + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(settings_.idle_seconds));
    wait = std::min(wait, idle_at - now);
  }
  // Rounded up, so that the wait ends at or after the time it waits for, not just before.
  const auto milliseconds = std::chrono::ceil<std::chrono::milliseconds>(wait).count();
  if (milliseconds <= 0) return;
  pollfd watched[2]{};
  nfds_t count = 0;
  const int input_fd = is_pipe_ ? fd_ : inotify_.get();
  if (input_fd >= 0) watched[count++] = {input_fd, POLLIN, 0};
  if (pidfd_.get() >= 0) watched[count++] = {pidfd_.get(), POLLIN, 0};
  if (::poll(watched, count, static_cast<int>(milliseconds)) < 0 && errno != EINTR)
    throw_errno("cannot wait for " + display_name());
  if (!is_pipe_ && inotify_.get() >= 0 && (watched[0].revents & POLLIN) != 0) discard_inotify_events();
}

// The events only wake the wait; what changed is found by looking at the file.
void GrowingFile::discard_inotify_events() const {
  alignas(inotify_event) char events[4096];
  for (;;) {
    const ::ssize_t got = ::read(inotify_.get(), events, sizeof events);
    if (got > 0 || (got < 0 && errno == EINTR)) continue;
    return;
  }
}

void GrowingFile::finish(FollowEnd why) {
  if (end_ == FollowEnd::none) end_ = why;
}

std::string_view GrowingFile::incomplete_tail() const {
  if (end_ == FollowEnd::none) return {};
  return std::string_view(buffer_).substr(complete_end_);
}

std::string GrowingFile::display_name() const { return path_ == "-" ? "standard input" : path_; }

std::string GrowingFile::describe_end() const {
  const std::string name = display_name();
  switch (end_) {
    case FollowEnd::none: return "still following " + name;
    case FollowEnd::closed: return path_ == "-" ? "end of input" : "end of input: the writer closed " + name;
    case FollowEnd::idle: {
      std::ostringstream seconds;
      seconds << settings_.idle_seconds;
      return "no change to " + name + " for " + seconds.str() + " s";
    }
    case FollowEnd::writer_exited:
      return settings_.pid ? "process " + std::to_string(*settings_.pid) + " exited"
                           : "the writer of " + name + " exited";
    case FollowEnd::truncated:
      if (shrunk_to_) {
        return name + " was truncated to " + byte_count(*shrunk_to_) + " after " + with_thousands(offset_) +
               " had been read; what was read before is checked";
      }
      return name + " was truncated after " + byte_count(offset_) + " had been read; what was read before is checked";
    case FollowEnd::replaced:
      if (pending_end_ == FollowEnd::replaced) {
        return name + (deleted_ ? " was deleted after " : " was replaced by another file (rotated) after ") +
               byte_count(offset_);
      }
      return name + " was replaced (rotated or deleted) after " + byte_count(offset_);
    case FollowEnd::stopped: return "stopped following " + name + " after " + byte_count(offset_);
    case FollowEnd::test_ended: return "the end of the test was read in " + name + " after " + byte_count(bytes_read_);
  }
  return "following " + name + " ended";
}

}  // namespace ariadne::follow
