// Memory-mapping with a fallback to reading, and releasing pages already parsed.
#include "history/mapped_file.hpp"

#include "base/limits_ledger.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/limits.hpp>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ariadne {

namespace {

std::string error_text() { return std::generic_category().message(errno); }

struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
  int release() { return std::exchange(fd, -1); }
};

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

// How long a wait for input lasts before the limits are looked at again: a Ctrl-C
// interrupts the wait at once (poll() returns EINTR), a deadline is seen this late.
constexpr int kPollMilliseconds = 20;

// Regular files up to this size are read into memory rather than mapped (read_small).
constexpr std::size_t kCopiedFileBytes = std::size_t{256} << 10;

}  // namespace

MappedFile::MappedFile(const std::string& path, const Limits* limits) : path_(path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait, beyond any limit,
  // for a writer to open it; read_stream() waits for one instead, polling the limits.
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (file.fd < 0) throw InputError(path, {}, "cannot open file: " + error_text());
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) throw InputError(path, {}, "cannot read file: " + error_text());
  if (S_ISDIR(info.st_mode)) throw InputError(path, {}, "is a directory, expected a history file");
  if (S_ISREG(info.st_mode) && info.st_size > 0 && static_cast<std::size_t>(info.st_size) <= kCopiedFileBytes) {
    read_small(file.fd, static_cast<std::size_t>(info.st_size));
    text_ = copy_;
    return;
  }
  if (S_ISREG(info.st_mode) && info.st_size > 0) {
    const auto size = static_cast<std::size_t>(info.st_size);
    void* mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (mapping != MAP_FAILED) {
      auto faults = std::make_unique<MappingFaultWatch>(mapping, size);
      if (faults->watching()) {
        mapping_ = mapping;
        mapped_size_ = size;
        faults_ = std::move(faults);
        fd_ = file.release();
        // Readers go front to back once: read ahead generously, drop behind.
        ::madvise(mapping_, mapped_size_, MADV_SEQUENTIAL);
        text_ = std::string_view(static_cast<const char*>(mapping_), size);
        return;
      }
      ::munmap(mapping, size);
    }
  }
  read_stream(file.fd, limits);
  text_ = copy_;
}

// A small regular file, read whole: its bytes are copied once, where a mapping costs
// a page fault for every few pages the readers touch, and the mmap() and munmap()
// themselves. Read to the end, not to `size`: the file may have grown since fstat()
// (and a file cut short since reads as what is left).
void MappedFile::read_small(int fd, std::size_t size) {
  copy_.resize(size + 1);  // one byte more: a read that fills it means the file grew
  std::size_t done = 0;
  for (;;) {
    if (done == copy_.size()) copy_.resize(copy_.size() + copy_.size() / 2 + 1);
    const ::ssize_t n = ::read(fd, copy_.data() + done, copy_.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n == 0) break;
    if (errno == EINTR) continue;
    throw InputError(path_, {}, "cannot read file: " + error_text());
  }
  copy_.resize(done);
}

// Reads to the end of input, waiting for it with poll() so that the limits are seen
// however slowly it comes. A FIFO opened without a writer reads as empty; poll() on
// Linux reports it neither readable nor hung up until a writer has come, so the loop
// waits for the writer's data or its hang-up, and only then takes read()'s 0 as the end.
void MappedFile::read_stream(int fd, const Limits* limits) {
  char buffer[1 << 16];
  auto stop_at_limits = [&] {
    if (!limits) return;
    if (const Limit limit = limits->reached(); limit != Limit::none) throw LimitReached(limit, limits->describe());
  };
  // The copy grows by half at a time, and each growth is asked for before it is
  // made: the new buffer beside the old is memory the watch would see only at its
  // next sample, tens of megabytes later at the speed of a pipe.
  auto make_room = [&](std::size_t more) {
    if (copy_.size() + more <= copy_.capacity()) return;
    const std::size_t grown = std::max({copy_.capacity() + copy_.capacity() / 2, copy_.size() + more, sizeof buffer});
    if (limits && limits->memory_limit() != 0 &&
        (grown + copy_.capacity() > limits->memory_limit() || !base::would_fit(*limits, grown))) {
      limits->note_memory_exceeded();
      throw LimitReached(Limit::memory, limits->describe(Limit::memory));
    }
    copy_.reserve(grown);
  };
  for (;;) {
    pollfd wanted{fd, POLLIN, 0};
    const int ready = ::poll(&wanted, 1, kPollMilliseconds);
    if (ready < 0 && errno != EINTR) throw InputError(path_, {}, "cannot read file: " + error_text());
    stop_at_limits();
    if (ready <= 0) continue;
    for (;;) {
      const ::ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n > 0) {
        make_room(static_cast<std::size_t>(n));
        copy_.append(buffer, static_cast<std::size_t>(n));
        stop_at_limits();
        continue;
      }
      if (n == 0) return;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      if (errno == EINTR) {
        stop_at_limits();
        continue;
      }
      throw InputError(path_, {}, "cannot read file: " + error_text());
    }
  }
}

MappedFile::~MappedFile() {
  faults_.reset();
  if (mapping_) ::munmap(mapping_, mapped_size_);
  if (fd_ >= 0) ::close(fd_);
}

void MappedFile::release_before(std::size_t offset) {
  if (!mapping_) return;
  const std::size_t end = std::min(offset, mapped_size_) / page_size() * page_size();
  if (end <= released_) return;
  ::madvise(static_cast<char*>(mapping_) + released_, end - released_, MADV_DONTNEED);
  released_ = end;
}

std::string_view MappedFile::read_at(std::size_t offset, std::size_t length, std::string& buffer) const {
  if (offset >= text_.size()) return {};
  length = std::min(length, text_.size() - offset);
  if (!mapping_) return text_.substr(offset, length);
  buffer.resize(length);
  std::size_t done = 0;
  while (done < length) {
    const ::ssize_t n = ::pread(fd_, buffer.data() + done, length - done, static_cast<::off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // cut short or failing: check_unchanged() reports it later
    done += static_cast<std::size_t>(n);
  }
  buffer.resize(done);
  return buffer;
}

void MappedFile::check_unchanged() const {
  if (!mapping_) return;
  struct stat info {};
  const bool shrank = ::fstat(fd_, &info) == 0 && static_cast<std::size_t>(info.st_size) < mapped_size_;
  if (shrank) {
    throw InputError(path_, {},
                     "the file was cut short while it was being read (" + std::to_string(mapped_size_) +
                         " bytes when opened, " + std::to_string(info.st_size) +
                         " now); check it again once nothing writes to it");
  }
  // A page that faulted though the file has its size: an I/O error, or a file cut
  // short and written again while it was read.
  if (faults_->faulted()) {
    throw InputError(path_, {},
                     "a part of the file could not be read while it was being read (an I/O error, or the file was "
                     "rewritten); check it again once nothing writes to it");
  }
}

}  // namespace ariadne
