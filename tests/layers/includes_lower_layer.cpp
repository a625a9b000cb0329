// Compiled by the test layers.lower_include_allowed (tests/CMakeLists.txt) with the
// search layer's include path: search/ may include models/ and the public vocabulary,
// so this compiles. It is not part of the test binary.
#include <ariadne/engine.hpp>

#include "models/value_table.hpp"
