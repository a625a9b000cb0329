// A witness read back from its file: what `verify-witness --witness` and the replay
// of `corpus --certify` read, so both read the file the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ariadne::batch {

// The op ids of a witness file: a JSON array of ids, or an object whose
// "linearization" is one (what `check --json` prints). Throws InputError.
std::vector<std::uint32_t> read_witness_file(const std::string& path);

}  // namespace ariadne::batch
