// Parsing --memory-limit: a byte count with an optional binary suffix.
#pragma once

#include <ariadne/limits.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace ariadne::cli {

// "1073741824", "512M", "1.5GiB", "64 KiB": a positive number of bytes, optionally
// followed by K/M/G/T (with or without "iB", any case) or "B". K, M, G and T mean
// 1024, 1024^2, ...: memory is sized in binary units and a user writing "2G" means
// the same as "2GiB". Throws UsageError otherwise.
std::uint64_t parse_byte_size(std::string_view text, std::string_view option = "--memory-limit");

// `bytes` as parse_byte_size reads it back, in the largest binary unit that divides it:
// "2GiB", "512MiB", "1000".
std::string byte_size_text(std::uint64_t bytes);

// The default --memory-limit (kDefaultMemoryLimit, limits.hpp), as options and help
// texts spell it.
inline std::string default_memory_limit_text() { return byte_size_text(kDefaultMemoryLimit); }

}  // namespace ariadne::cli
