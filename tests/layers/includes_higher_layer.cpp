// Compiled by the test layers.higher_include_refused (tests/CMakeLists.txt) with the
// search layer's include path: search/ may not include portfolio/, so this must not
// compile. It is not part of the test binary.
#include "portfolio/race.hpp"
