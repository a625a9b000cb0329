// Checking, before any work, that an output named on the command line can be
// written: `check --html FILE` and `check --proof DIR` learn it in a second instead
// of after an hour's check, and a path that cannot be written is a usage error (exit
// 64) before the file is even read, never a status that replaces the verdict's.
#pragma once

#include <string>
#include <string_view>

namespace ariadne::cli {

// `path` is a file that can be created or replaced: it is not a folder and is
// writable if it exists, else its folder exists and is writable. Throws UsageError
// naming `option` and the path. Nothing is created.
void require_writable_file(std::string_view option, const std::string& path);

// `path` is a folder that can be written or created: it is a writable folder if it
// exists, else its nearest existing ancestor is a writable folder (the writer
// creates the rest). Throws UsageError naming `option` and the path.
void require_writable_folder(std::string_view option, const std::string& path);

}  // namespace ariadne::cli
