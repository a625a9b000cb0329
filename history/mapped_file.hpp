// A history file's bytes, memory-mapped rather than copied: reading a 1.4 GB Jepsen
// history costs no allocation and no copy, and pages the readers have passed can be
// handed back to the kernel (release_before) so the file never needs to be resident
// all at once. Pipes and other files that cannot be mapped are read into memory.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ariadne {

class MappedFile {
 public:
  // Throws InputError (with the path) when the file cannot be opened or read.
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return text_; }
  // Tells the kernel the bytes before `offset` will not be read again: their pages
  // leave this process's resident set (they stay in the page cache). Harmless to
  // call with any offset, in any order.
  void release_before(std::size_t offset);

 private:
  void* mapping_ = nullptr;
  std::size_t mapped_size_ = 0;
  std::size_t released_ = 0;  // page-aligned: bytes before it were released
  std::string copy_;          // the content, when it could not be mapped
  std::string_view text_;
};

}  // namespace ariadne
