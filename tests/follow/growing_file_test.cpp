// GrowingFile against real files, pipes, FIFOs and processes in a temporary folder:
// that every line is handed out once and whole however the writer splits it, that each
// way a follow ends is noticed (and only after the writer's last bytes were read, save
// a truncation, after which nothing more is handed out), and that a wait never outlasts
// its max_wait nor misses a stop for long. Each case takes well under a second.
#include "follow/growing_file.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

using namespace ariadne::follow;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

using TempDir = ariadne::test::TempDir;

// A writer holding its file open, as a test's logger does: after a rename or an unlink
// its writes still go to the file it opened.
class Writer {
 public:
  explicit Writer(const std::string& path)
      : fd_(::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "cannot open " + path);
  }
  ~Writer() { ::close(fd_); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void write(std::string_view text) const {
    while (!text.empty()) {
      const ::ssize_t written = ::write(fd_, text.data(), text.size());
      if (written < 0 && errno == EINTR) continue;
      REQUIRE(written > 0);
      text.remove_prefix(static_cast<std::size_t>(written));
    }
  }

 private:
  int fd_;
};

void append_to(const std::string& path, std::string_view text) { Writer(path).write(text); }

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Reads until the follow ends or `limit` passes, checking that each call hands out
// whole lines only.
std::string follow_to_end(GrowingFile& file, std::chrono::milliseconds limit = 3s) {
  const Clock::time_point give_up = Clock::now() + limit;
  std::string all;
  while (file.end() == FollowEnd::none && Clock::now() < give_up) {
    std::string piece;
    const std::size_t got = file.read_lines(piece, 50ms);
    CHECK(got == piece.size());
    if (!piece.empty()) CHECK(piece.back() == '\n');
    all += piece;
  }
  return all;
}

// Reads until `wanted` bytes have come or `limit` passes, without ending the follow.
std::string read_bytes(GrowingFile& file, std::size_t wanted, std::chrono::milliseconds limit = 3s) {
  const Clock::time_point give_up = Clock::now() + limit;
  std::string all;
  while (all.size() < wanted && file.end() == FollowEnd::none && Clock::now() < give_up) file.read_lines(all, 50ms);
  return all;
}

std::string numbered_lines(int first, int count) {
  std::string text;
  for (int i = first; i < first + count; ++i) text += "line " + std::to_string(1000 + i) + "\n";  // 10 bytes
  return text;
}

// Settings with one field set (designated initializers would have g++ -Wextra ask for
// every other field).
FollowSettings idle_after(double seconds) {
  FollowSettings settings;
  settings.idle_seconds = seconds;
  return settings;
}

FollowSettings writer_pid(pid_t pid) {
  FollowSettings settings;
  settings.pid = pid;
  return settings;
}

FollowSettings stop_when(std::function<bool()> should_stop) {
  FollowSettings settings;
  settings.should_stop = std::move(should_stop);
  return settings;
}

void sleep_in_child(long milliseconds) {
  const timespec pause{0, milliseconds * 1'000'000};
  ::nanosleep(&pause, nullptr);
}

}  // namespace

TEST_CASE("follow_end_name names each end") {
  CHECK(follow_end_name(FollowEnd::none) == "none");
  CHECK(follow_end_name(FollowEnd::closed) == "closed");
  CHECK(follow_end_name(FollowEnd::idle) == "idle");
  CHECK(follow_end_name(FollowEnd::writer_exited) == "writer exited");
  CHECK(follow_end_name(FollowEnd::truncated) == "truncated");
  CHECK(follow_end_name(FollowEnd::replaced) == "replaced");
  CHECK(follow_end_name(FollowEnd::stopped) == "stopped");
  CHECK(follow_end_name(FollowEnd::test_ended) == "test ended");
}

TEST_CASE("an input that cannot be followed is refused with its name") {
  const TempDir dir;
  const std::string missing = dir.file("missing.edn");
  try {
    GrowingFile file(missing, {});
    FAIL("a missing file was opened");
  } catch (const std::system_error& error) {
    CHECK(std::string(error.what()).find("cannot open " + missing + ": ") == 0);
    CHECK(error.code().value() == ENOENT);
  }
  const std::string folder = dir.file("folder");
  fs::create_directory(folder);
  CHECK_THROWS_WITH_AS(GrowingFile(folder, {}), doctest::Contains("cannot open"), std::runtime_error);
}

TEST_CASE("lines written in pieces are handed out once each, whole") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  append_to(path, "");
  const std::vector<std::string> writes{"first line\n", "second li", "ne\nthird", " line\nfourth ", "line\n"};
  std::string expected;
  for (const std::string& text : writes) expected += text;

  GrowingFile file(path, {});
  CHECK_FALSE(file.is_pipe());
  std::jthread writer([&] {
    const Writer out(path);
    for (const std::string& text : writes) {
      std::this_thread::sleep_for(20ms);
      out.write(text);
    }
  });
  std::vector<std::string> pieces;
  std::string all;
  const Clock::time_point give_up = Clock::now() + 3s;
  while (all.size() < expected.size() && Clock::now() < give_up) {
    std::string piece;
    if (file.read_lines(piece, 50ms) == 0) continue;
    REQUIRE(piece.back() == '\n');
    pieces.push_back(piece);
    all += piece;
  }
  CHECK(all == expected);
  CHECK(pieces.size() >= 2);  // the writer's pauses are seen
  CHECK(file.lines_read() == 4);
  CHECK(file.bytes_read() == expected.size());
  CHECK(file.end() == FollowEnd::none);
  CHECK(file.incomplete_tail().empty());
  file.finish(FollowEnd::stopped);
  CHECK(file.end() == FollowEnd::stopped);
  file.finish(FollowEnd::idle);  // the first end is kept
  CHECK(file.end() == FollowEnd::stopped);
  std::string more;
  CHECK(file.read_lines(more, 10ms) == 0);
  CHECK(file.describe_end().find(path) != std::string::npos);
}

TEST_CASE("the caller ends the follow when it reads the end of the test") {
  const TempDir dir;
  const std::string path = dir.file("jepsen.log");
  append_to(path, "worker 0 :invoke\nRun complete\n");
  GrowingFile file(path, {});
  std::string lines;
  CHECK(file.read_lines(lines, 0ms) == 30);
  file.finish(FollowEnd::none);  // not an end
  CHECK(file.end() == FollowEnd::none);
  file.finish(FollowEnd::test_ended);
  CHECK(file.end() == FollowEnd::test_ended);
  CHECK(file.describe_end() == "the end of the test was read in " + path + " after 30 bytes");
}

TEST_CASE("a pipe is read to its end of file, then closed") {
  int ends[2];
  REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
  GrowingFile file("/proc/self/fd/" + std::to_string(ends[0]), {});
  ::close(ends[0]);
  CHECK(file.is_pipe());
  std::jthread writer([write_end = ends[1]] {
    for (const std::string_view text : {"one\ntw", "o\n", "three\nunfinished"}) {
      std::this_thread::sleep_for(15ms);
      CHECK(::write(write_end, text.data(), text.size()) == static_cast<::ssize_t>(text.size()));
    }
    ::close(write_end);
  });
  CHECK(follow_to_end(file) == "one\ntwo\nthree\n");
  CHECK(file.end() == FollowEnd::closed);
  CHECK(file.incomplete_tail() == "unfinished");
  CHECK(file.lines_read() == 3);
  CHECK(file.describe_end().find("end of input") == 0);
}

TEST_CASE("standard input is followed as \"-\"") {
  int ends[2];
  REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
  const int saved_stdin = ::dup(STDIN_FILENO);
  REQUIRE(saved_stdin >= 0);
  REQUIRE(::dup2(ends[0], STDIN_FILENO) == STDIN_FILENO);
  ::close(ends[0]);
  std::string text;
  FollowEnd end = FollowEnd::none;
  std::string described;
  {
    GrowingFile file("-", {});
    std::jthread writer([write_end = ends[1]] {
      std::this_thread::sleep_for(20ms);
      CHECK(::write(write_end, "a\nb\n", 4) == 4);
      ::close(write_end);
    });
    text = follow_to_end(file);
    end = file.end();
    described = file.describe_end();
  }
  ::dup2(saved_stdin, STDIN_FILENO);
  ::close(saved_stdin);
  CHECK(text == "a\nb\n");
  CHECK(end == FollowEnd::closed);
  CHECK(described == "end of input");
}

TEST_CASE("a FIFO waits for its first writer, and ends when the writer closes it") {
  const TempDir dir;
  const std::string path = dir.file("history.fifo");
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  GrowingFile file(path, {});  // does not wait for a writer
  CHECK(file.is_pipe());
  std::string none_yet;
  CHECK(file.read_lines(none_yet, 60ms) == 0);
  CHECK(file.end() == FollowEnd::none);  // no writer yet is not the end
  std::jthread writer([&] {
    const Writer out(path);
    out.write("x\n");
    std::this_thread::sleep_for(20ms);
    out.write("y\n");
  });
  CHECK(follow_to_end(file) == "x\ny\n");
  CHECK(file.end() == FollowEnd::closed);
}

TEST_CASE("a quiet pipe ends only when an idle time was given") {
  int ends[2];
  REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
  SUBCASE("without one it waits") {
    GrowingFile file("/proc/self/fd/" + std::to_string(ends[0]), {});
    std::string lines;
    const Clock::time_point start = Clock::now();
    CHECK(file.read_lines(lines, 120ms) == 0);
    CHECK(milliseconds_since(start) >= 120);
    CHECK(milliseconds_since(start) < 220);
    CHECK(file.end() == FollowEnd::none);
  }
  SUBCASE("with one it ends") {
    GrowingFile file("/proc/self/fd/" + std::to_string(ends[0]), idle_after(0.1));
    CHECK(::write(ends[1], "p\n", 2) == 2);
    const Clock::time_point start = Clock::now();
    CHECK(follow_to_end(file) == "p\n");
    CHECK(file.end() == FollowEnd::idle);
    CHECK(milliseconds_since(start) < 500);
  }
  ::close(ends[0]);
  ::close(ends[1]);
}

TEST_CASE("a file that stops growing ends idle, counted from its last growth") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  append_to(path, "a\nb\n");
  const Clock::time_point start = Clock::now();
  GrowingFile file(path, idle_after(0.2));
  std::jthread writer([&] {
    std::this_thread::sleep_for(100ms);
    append_to(path, "c\n");
  });
  CHECK(follow_to_end(file) == "a\nb\nc\n");
  const double elapsed = milliseconds_since(start);
  CHECK(file.end() == FollowEnd::idle);
  CHECK(elapsed >= 295);  // 100 ms to the growth, then 200 ms of quiet
  CHECK(elapsed < 900);
  CHECK(file.describe_end() == "no change to " + path + " for 0.2 s");
}

TEST_CASE("a last line without its newline is the incomplete tail, once the follow ended") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  append_to(path, "a\nb\nlast");
  GrowingFile file(path, idle_after(0.1));
  std::string lines;
  CHECK(file.read_lines(lines, 0ms) == 4);
  CHECK(lines == "a\nb\n");
  CHECK(file.incomplete_tail().empty());  // it may still get its newline
  CHECK(follow_to_end(file).empty());
  CHECK(file.end() == FollowEnd::idle);
  CHECK(file.incomplete_tail() == "last");
  CHECK(file.bytes_read() == 4);
}

TEST_CASE("a writer process that exits ends the follow after everything it wrote") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  append_to(path, "");
  const std::string lines = numbered_lines(0, 5);
  // Everything the child needs is made before fork(): after it, only async-signal-safe calls.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND);
    for (std::size_t at = 0; at < lines.size(); at += 10) {
      sleep_in_child(15);
      if (::write(fd, lines.data() + at, 10) != 10) ::_exit(1);
    }
    // The last bytes are written just before exiting, mid-line.
    if (::write(fd, "partial", 7) != 7) ::_exit(1);
    ::_exit(0);
  }
  std::string text;
  FollowEnd end = FollowEnd::none;
  std::string tail;
  std::string described;
  {
    GrowingFile file(path, writer_pid(child));
    text = follow_to_end(file);
    end = file.end();
    tail = std::string(file.incomplete_tail());
    described = file.describe_end();
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(text == lines);
  CHECK(end == FollowEnd::writer_exited);
  CHECK(tail == "partial");
  CHECK(described == "process " + std::to_string(child) + " exited");
}

TEST_CASE("a pid that names no process is refused") {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);  // reaped: the pid names nothing now
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  append_to(path, "");
  CHECK_THROWS_WITH_AS(GrowingFile(path, writer_pid(child)), ("no process " + std::to_string(child)).c_str(),
                       std::invalid_argument);
  CHECK_THROWS_AS(GrowingFile(path, writer_pid(0)), std::invalid_argument);  // kill() would take it for a group
}

TEST_CASE("a truncated file ends the follow and nothing read after the truncation is handed out") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  SUBCASE("truncated below what was handed out") {
    append_to(path, numbered_lines(0, 10));  // 100 bytes
    GrowingFile file(path, {});
    CHECK(read_bytes(file, 100) == numbered_lines(0, 10));
    REQUIRE(::truncate(path.c_str(), 10) == 0);
    append_to(path, "new content\n");  // 22 bytes now: less than was read
    CHECK(follow_to_end(file, 1s).empty());
    CHECK(file.end() == FollowEnd::truncated);
    CHECK(file.bytes_read() == 100);
    CHECK(file.describe_end() ==
          path + " was truncated to 22 bytes after 100 had been read; what was read before is checked");
  }
  SUBCASE("truncated within the line being written") {
    append_to(path, numbered_lines(0, 9) + "tail");  // 94 bytes, 90 of them in lines
    GrowingFile file(path, {});
    CHECK(read_bytes(file, 90) == numbered_lines(0, 9));
    REQUIRE(::truncate(path.c_str(), 92) == 0);
    append_to(path, "\n");  // would complete a line, of another content
    CHECK(follow_to_end(file, 1s).empty());
    CHECK(file.end() == FollowEnd::truncated);
    CHECK(file.bytes_read() == 90);
  }
}

TEST_CASE("a file rotated by rename is drained, then the follow ends as replaced") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  const Writer out(path);
  out.write(numbered_lines(0, 3));
  GrowingFile file(path, {});
  CHECK(read_bytes(file, 30) == numbered_lines(0, 3));
  out.write(numbered_lines(3, 2));  // written before the rotation, not yet read
  fs::rename(path, dir.file("history.edn.1"));
  append_to(path, "another file\n");
  CHECK(follow_to_end(file, 1s) == numbered_lines(3, 2));
  CHECK(file.end() == FollowEnd::replaced);
  CHECK(file.describe_end() == path + " was replaced by another file (rotated) after 50 bytes");
}

TEST_CASE("a deleted file is drained, then the follow ends as replaced") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  const Writer out(path);
  out.write(numbered_lines(0, 2));
  GrowingFile file(path, {});
  CHECK(read_bytes(file, 20) == numbered_lines(0, 2));
  out.write(numbered_lines(2, 1) + "cut");
  REQUIRE(::unlink(path.c_str()) == 0);
  CHECK(follow_to_end(file, 1s) == numbered_lines(2, 1));
  CHECK(file.end() == FollowEnd::replaced);
  CHECK(file.incomplete_tail() == "cut");
  CHECK(file.describe_end() == path + " was deleted after 33 bytes");
}

TEST_CASE("should_stop ends a wait promptly") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  append_to(path, "a\n");
  std::atomic<bool> stop{false};
  GrowingFile file(path, stop_when([&] { return stop.load(); }));
  std::string lines;
  CHECK(file.read_lines(lines, 0ms) == 2);
  std::atomic<Clock::rep> stopped_at{0};
  std::jthread stopper([&] {
    std::this_thread::sleep_for(80ms);
    stopped_at = Clock::now().time_since_epoch().count();
    stop = true;
  });
  CHECK(file.read_lines(lines, 5s) == 0);
  const Clock::time_point returned = Clock::now();
  stopper.join();
  CHECK(file.end() == FollowEnd::stopped);
  const double late =
      std::chrono::duration<double, std::milli>(returned.time_since_epoch() - Clock::duration(stopped_at.load()))
          .count();
  CHECK(late < 100);
  CHECK(file.describe_end() == "stopped following " + path + " after 2 bytes");
}

TEST_CASE("max_bytes bounds each call, save for one line longer than it") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  const std::string long_line = std::string(1000, 'x') + "\n";
  const std::string content = numbered_lines(0, 20) + long_line + numbered_lines(20, 3);
  append_to(path, content);
  GrowingFile file(path, {});
  std::string all;
  int calls = 0;
  for (;;) {
    std::string piece;
    const std::size_t got = file.read_lines(piece, 0ms, 35);
    if (got == 0) break;
    ++calls;
    CHECK(piece.back() == '\n');
    if (piece.size() > 35) {
      CHECK(piece == long_line);
    } else {
      CHECK(piece.size() % 10 == 0);  // whole short lines
    }
    all += piece;
  }
  CHECK(all == content);
  CHECK(calls == 7 + 1 + 1);  // 20 lines three at a time, the long line, 3 lines
  CHECK(file.lines_read() == 24);
}

TEST_CASE("a line longer than a read chunk is handed out whole") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  const std::string long_line = std::string(std::size_t{3} << 20, 'y') + "\n";
  append_to(path, "short\n");
  GrowingFile file(path, {});
  std::jthread writer([&] {
    const Writer out(path);
    for (std::size_t at = 0; at < long_line.size(); at += 700'000) {
      std::this_thread::sleep_for(5ms);
      out.write(std::string_view(long_line).substr(at, 700'000));
    }
    out.write("after\n");
  });
  CHECK(read_bytes(file, 6) == "short\n");
  std::string piece;
  const Clock::time_point give_up = Clock::now() + 3s;
  while (piece.empty() && Clock::now() < give_up) file.read_lines(piece, 50ms, 1000);
  CHECK(piece.size() == long_line.size());
  CHECK(piece == long_line);
  writer.join();
  CHECK(read_bytes(file, 6) == "after\n");
}

TEST_CASE("read_lines returns by its max_wait") {
  const TempDir dir;
  const std::string path = dir.file("history.edn");
  append_to(path, "");
  const pid_t self = ::getpid();
  FollowSettings settings = stop_when([] { return false; });
  settings.pid = self;
  GrowingFile file(path, settings);
  for (const auto max_wait : {0ms, 30ms, 150ms}) {
    std::string lines;
    const Clock::time_point start = Clock::now();
    CHECK(file.read_lines(lines, max_wait) == 0);
    const double elapsed = milliseconds_since(start);
    CHECK(elapsed >= static_cast<double>(max_wait.count()));
    CHECK(elapsed < static_cast<double>(max_wait.count()) + 100);
    CHECK(file.end() == FollowEnd::none);
  }
}
