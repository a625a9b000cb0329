// Parsing --memory-limit: a byte count with an optional binary suffix.
#pragma once

#include <cstdint>
#include <string_view>

namespace ariadne::cli {

// "1073741824", "512M", "1.5GiB", "64 KiB": a positive number of bytes, optionally
// followed by K/M/G/T (with or without "iB", any case) or "B". K, M, G and T mean
// 1024, 1024^2, ...: memory is sized in binary units and a user writing "2G" means
// the same as "2GiB". Throws UsageError otherwise.
std::uint64_t parse_byte_size(std::string_view text, std::string_view option = "--memory-limit");

}  // namespace ariadne::cli
