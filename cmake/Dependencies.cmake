# Third-party dependencies, all from Debian 12 packages (see scripts/install-deps.sh).
find_package(Threads REQUIRED)
find_package(CLI11 REQUIRED CONFIG)
find_package(Boost 1.74 REQUIRED CONFIG COMPONENTS graph)
find_package(doctest REQUIRED CONFIG)
find_package(PkgConfig REQUIRED)

# Z3 ships a pkg-config file on Debian, not a CMake package.
pkg_check_modules(Z3 REQUIRED IMPORTED_TARGET z3)
add_library(ariadne::z3 ALIAS PkgConfig::Z3)

# CaDiCaL ships only a header and a static library (libcadical-dev): wrap them in an
# imported target so the rest of the build names it like any other dependency.
find_path(CADICAL_INCLUDE_DIR cadical.hpp REQUIRED)
find_library(CADICAL_LIBRARY NAMES libcadical.a cadical REQUIRED)
add_library(ariadne::cadical STATIC IMPORTED GLOBAL)
set_target_properties(ariadne::cadical PROPERTIES
  IMPORTED_LOCATION "${CADICAL_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${CADICAL_INCLUDE_DIR}")
