// Memory-mapping with a fallback to reading, and releasing pages already parsed.
#include "history/mapped_file.hpp"

#include <ariadne/errors.hpp>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <system_error>

#include <fcntl.h>
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
};

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

MappedFile::MappedFile(const std::string& path) {
  const FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) throw InputError(path, {}, "cannot open file: " + error_text());
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) throw InputError(path, {}, "cannot read file: " + error_text());
  if (S_ISDIR(info.st_mode)) throw InputError(path, {}, "is a directory, expected a history file");
  if (S_ISREG(info.st_mode) && info.st_size > 0) {
    const auto size = static_cast<std::size_t>(info.st_size);
    void* mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (mapping != MAP_FAILED) {
      mapping_ = mapping;
      mapped_size_ = size;
      // Readers go front to back once: read ahead generously, drop behind.
      ::madvise(mapping_, mapped_size_, MADV_SEQUENTIAL);
      text_ = std::string_view(static_cast<const char*>(mapping_), size);
      return;
    }
  }
  // A pipe, a character device, an empty or unmappable file: read it all.
  char buffer[1 << 16];
  for (;;) {
    const ::ssize_t n = ::read(file.fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(path, {}, "cannot read file: " + error_text());
    }
    copy_.append(buffer, static_cast<std::size_t>(n));
  }
  text_ = copy_;
}

MappedFile::~MappedFile() {
  if (mapping_) ::munmap(mapping_, mapped_size_);
}

void MappedFile::release_before(std::size_t offset) {
  if (!mapping_) return;
  const std::size_t end = std::min(offset, mapped_size_) / page_size() * page_size();
  if (end <= released_) return;
  ::madvise(static_cast<char*>(mapping_) + released_, end - released_, MADV_DONTNEED);
  released_ = end;
}

}  // namespace ariadne
