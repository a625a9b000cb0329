// Whole texts in and out: a file read at once, a file written at once, a report
// printed at once. Header-only, because the tests and the fuzz corpus tool compile
// corpus/corpus_rows.cpp without the rest of the command line.
#pragma once

#include <ariadne/errors.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace ariadne::answer {

// The whole of `path`. Throws InputError naming the file, with `unreadable` as its
// message, when it cannot be opened.
inline std::string read_text_file(const std::filesystem::path& path, const std::string& unreadable) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), {}, unreadable);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Writes `text` to `path`, replacing what was there. False when it could not (errno
// says why), so that the caller can say what it was writing.
inline bool write_text_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  return static_cast<bool>(out);
}

// A report on stdout in one piece, flushed, so that it is whole before anything the
// command writes after it.
inline void print(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

}  // namespace ariadne::answer
