# Z3 and CaDiCaL as the imported targets ariadne::z3 and ariadne::cadical, the names
# the library links them by. The build includes this file (cmake/Dependencies.cmake),
# and so does the installed package (ariadneConfig.cmake): libariadne.a links both
# privately, yet a static library's private dependencies still have to reach every
# consumer's link line, and its exported link interface names exactly these targets.
#
# Debian ships Z3 with a pkg-config file rather than a CMake package, and CaDiCaL as
# a bare header and static library. Nothing here stops the configure run: when
# either is missing, ARIADNE_SOLVERS_MISSING says which, and each caller fails its own
# way (the build with an error, find_package(ariadne) by reporting "not found"). Its
# entries hold no semicolon, which would split them as a CMake list.
set(ARIADNE_SOLVERS_MISSING "")

if(NOT TARGET ariadne::z3)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(ARIADNE_Z3 QUIET IMPORTED_TARGET z3)
  endif()
  if(TARGET PkgConfig::ARIADNE_Z3)
    # A target of our own that forwards to pkg-config's: an ALIAS would be exported
    # under the aliased name, which a consumer's pkg-config run need not reproduce.
    add_library(ariadne::z3 INTERFACE IMPORTED)
    target_link_libraries(ariadne::z3 INTERFACE PkgConfig::ARIADNE_Z3)
  else()
    list(APPEND ARIADNE_SOLVERS_MISSING "Z3 (the pkg-config module z3, in Debian's libz3-dev)")
  endif()
endif()

if(NOT TARGET ariadne::cadical)
  find_path(ARIADNE_CADICAL_INCLUDE_DIR cadical.hpp)
  find_library(ARIADNE_CADICAL_LIBRARY NAMES libcadical.a cadical)
  if(ARIADNE_CADICAL_INCLUDE_DIR AND ARIADNE_CADICAL_LIBRARY)
    add_library(ariadne::cadical STATIC IMPORTED)
    set_target_properties(ariadne::cadical PROPERTIES
      IMPORTED_LOCATION "${ARIADNE_CADICAL_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${ARIADNE_CADICAL_INCLUDE_DIR}")
  else()
    list(APPEND ARIADNE_SOLVERS_MISSING "CaDiCaL (cadical.hpp and libcadical.a, in Debian's libcadical-dev)")
  endif()
endif()
