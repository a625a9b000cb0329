// See output_path.hpp. access(2) asks the kernel the question the later open() will
// ask (permissions, a read-only file system), without creating or truncating
// anything, so that a refused command leaves no trace.
#include "cli/output_path.hpp"

#include <ariadne/errors.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace ariadne::cli {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(std::string_view option, const std::string& path, const std::string& why) {
  throw UsageError(std::string(option) + ": cannot write " + path + ": " + why);
}

// Whether the process may create entries in `folder`; the reason when it may not.
std::string folder_refusal(const fs::path& folder) {
  std::error_code error;
  const fs::file_status status = fs::status(folder, error);
  if (error) return folder.string() + ": " + error.message();
  if (!fs::is_directory(status)) return folder.string() + " is not a folder";
  if (::access(folder.c_str(), W_OK | X_OK) != 0) return folder.string() + ": " + std::strerror(errno);
  return {};
}

// The folder a relative name like "r.html" lives in.
fs::path folder_of(const fs::path& path) {
  const fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

}  // namespace

void require_writable_file(std::string_view option, const std::string& path) {
  if (path.empty()) refuse(option, path, "an empty path");
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error && error != std::errc::no_such_file_or_directory) refuse(option, path, error.message());
  if (fs::exists(status)) {
    if (fs::is_directory(status)) refuse(option, path, "it is a folder");
    if (::access(path.c_str(), W_OK) != 0) refuse(option, path, std::strerror(errno));
    // Replacing a regular file goes through a new file beside it (cli/html_output.cpp).
    if (fs::is_regular_file(status)) {
      if (const std::string why = folder_refusal(folder_of(path)); !why.empty()) refuse(option, path, why);
    }
    return;
  }
  if (const std::string why = folder_refusal(folder_of(path)); !why.empty()) refuse(option, path, why);
}

void require_writable_folder(std::string_view option, const std::string& path) {
  if (path.empty()) refuse(option, path, "an empty path");
  fs::path existing = fs::path(path);
  // The nearest part of the path that exists: the writer creates the folders below it.
  while (true) {
    std::error_code error;
    const fs::file_status status = fs::status(existing, error);
    if (error && error != std::errc::no_such_file_or_directory) refuse(option, path, error.message());
    if (fs::exists(status)) break;
    const fs::path parent = existing.parent_path();
    if (parent.empty() || parent == existing) {
      existing = ".";
      break;
    }
    existing = parent;
  }
  if (const std::string why = folder_refusal(existing); !why.empty()) refuse(option, path, why);
}

}  // namespace ariadne::cli
