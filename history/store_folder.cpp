#include <ariadne/history.hpp>

#include <ariadne/errors.hpp>

#include <filesystem>
#include <system_error>

namespace ariadne {

std::string history_file_in(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  // is_directory follows symbolic links, so store/<test>/latest is a folder too.
  if (!fs::is_directory(path, error)) return path;
  for (const char* name : {"history.edn", "history.txt"}) {
    const fs::path file = fs::path(path) / name;
    if (fs::is_regular_file(file, error)) return file.string();
  }
  throw InputError(path, {},
                   "is a directory without history.edn or history.txt, expected a history file or a Jepsen store "
                   "folder");
}

}  // namespace ariadne
