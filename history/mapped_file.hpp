// A history file's bytes, memory-mapped rather than copied: reading a 1.4 GB Jepsen
// history costs no allocation and no copy, and pages the readers have passed can be
// handed back to the kernel (release_before) so the file never needs to be resident
// all at once. A regular file of 256 KiB or less is read into memory instead, where
// the mapping's page faults would cost more than the copy. Pipes, FIFOs, character devices and other files that cannot
// be mapped are read into memory, polling the command's limits while they wait and grow: a pipe whose writer never
// finishes, a FIFO nobody opens for writing, or /dev/zero would otherwise hold the command past its --timeout,
// --memory-limit and Ctrl-C.
//
// A regular file that shrinks while mapped (another program truncating it) is
// survived (mapping_faults.hpp) and reported by check_unchanged() as bad input.
#pragma once

#include "history/mapping_faults.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace ariadne {

class Limits;

class MappedFile {
 public:
  // Throws InputError (with the path) when the file cannot be opened or read, and
  // LimitReached when `limits` stop the reading of a file that cannot be mapped.
  explicit MappedFile(const std::string& path, const Limits* limits = nullptr);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return text_; }
  // Tells the kernel the bytes before `offset` will not be read again: their pages
  // leave this process's resident set (they stay in the page cache). Harmless to
  // call with any offset, in any order.
  void release_before(std::size_t offset);
  // `length` bytes from `offset` (fewer at the end), read with pread() into `buffer`
  // rather than through the mapping: a look at scattered parts of a mapped file
  // (a size estimate from samples) would map a whole large folio for each (2 MiB for
  // 64 KiB, on ext4 since Linux 6.16), which the memory watch counts as the reading's.
  std::string_view read_at(std::size_t offset, std::size_t length, std::string& buffer) const;
  // Throws InputError naming the file when it was cut short while mapped: what was
  // read of it is then not the file (the missing bytes read as zeros).
  void check_unchanged() const;

 private:
  void read_small(int fd, std::size_t size);
  void read_stream(int fd, const Limits* limits);

  std::string path_;
  int fd_ = -1;  // kept open while mapped, to see the file's size again
  void* mapping_ = nullptr;
  std::size_t mapped_size_ = 0;
  std::size_t released_ = 0;  // page-aligned: bytes before it were released
  std::unique_ptr<MappingFaultWatch> faults_;
  std::string copy_;  // the content, when it could not be mapped
  std::string_view text_;
};

}  // namespace ariadne
