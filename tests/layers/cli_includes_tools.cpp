// Compiled by the test layers.cli_tools_include_allowed (tests/CMakeLists.txt) with the
// command line's include path: the tools' headers and the public ones compile there.
// It is not part of the test binary.
#include <ariadne/check.hpp>

#include "answer/check_report.hpp"
#include "batch/key_shards.hpp"
