# Third-party dependencies, all from Debian 12 packages (see scripts/install-deps.sh).
# The library's own (Threads, Boost.Graph, Z3, CaDiCaL) are found again by the
# installed package (cmake/ariadneConfig.cmake.in), which reads the Boost version
# from ARIADNE_BOOST_MIN_VERSION so the two cannot drift apart. CLI11 and doctest
# are wanted only for the command line and the tests.
set(ARIADNE_BOOST_MIN_VERSION 1.74)
find_package(Threads REQUIRED)
find_package(Boost ${ARIADNE_BOOST_MIN_VERSION} REQUIRED CONFIG COMPONENTS graph)

include(${CMAKE_CURRENT_LIST_DIR}/SolverLibraries.cmake)
if(ARIADNE_SOLVERS_MISSING)
  list(JOIN ARIADNE_SOLVERS_MISSING ", " missing)
  message(FATAL_ERROR "ariadne needs ${missing}: run scripts/install-deps.sh")
endif()

if(ARIADNE_BUILD_CLI)
  find_package(CLI11 REQUIRED CONFIG)
endif()
if(ARIADNE_BUILD_TESTS)
  find_package(doctest REQUIRED CONFIG)
endif()
