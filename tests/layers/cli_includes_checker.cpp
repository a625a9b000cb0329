// Compiled by the test layers.cli_checker_include_refused (tests/CMakeLists.txt) with
// the command line's include path: cli/ sees the tools and include/ariadne/ alone, so
// a header of the checker's layers must not compile. It is not part of the test binary.
#include "portfolio/independent.hpp"
