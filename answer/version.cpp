// The version, from project() in CMakeLists.txt (the build defines ARIADNE_VERSION).
#include "answer/version.hpp"

namespace ariadne::answer {

std::string version_text() { return std::string("ariadne ") + ARIADNE_VERSION; }

}  // namespace ariadne::answer
