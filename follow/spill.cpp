#include "follow/spill.hpp"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace ariadne::follow {

Spill::Spill() {
  std::string pattern = (std::filesystem::temp_directory_path() / "ariadne-follow-XXXXXX").string();
  const int fd = mkstemp(pattern.data());
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot make a spill file in " + pattern);
  path_ = pattern;
  file_ = fdopen(fd, "w");
  if (file_ == nullptr) {
    const int error = errno;
    ::close(fd);
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    throw std::system_error(error, std::generic_category(), "cannot open the spill file " + path_);
  }
}

Spill::~Spill() {
  std::fclose(file_);
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

void Spill::write(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    throw std::system_error(errno, std::generic_category(), "cannot write the spill file " + path_);
  }
}

void Spill::flush() { std::fflush(file_); }

}  // namespace ariadne::follow
