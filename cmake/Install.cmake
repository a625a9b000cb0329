# What `cmake --install build --prefix P` puts under P: the public headers
# (include/ariadne/), the static library (lib/libariadne.a), the C API as a shared
# library (lib/libariadne_c.so), the command line
# (bin/ariadne) and a CMake package (lib/cmake/ariadne/), so that another project
# says find_package(ariadne) and links ariadne::ariadne (docs/library.md).
#
# The package re-finds the library's own dependencies rather than recording where
# this machine keeps them: a static library's private dependencies must still reach
# the consumer's link line, and finding them on the consumer's machine keeps the
# installed tree relocatable. cmake/SolverLibraries.cmake is installed beside the
# config and shared with the build, so both name Z3 and CaDiCaL the same way.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ARIADNE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ariadne)

# INCLUDES as well as the file set: a consumer's CMake older than 3.23 ignores file
# sets in the exported target, and would otherwise get no include path.
install(TARGETS ariadne EXPORT ariadneTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The C API's shared library (lib/libariadne_c.so), for ctypes and cgo: not part of the
# CMake package, which links the static library.
install(TARGETS ariadne_c LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(ARIADNE_BUILD_CLI)
  install(TARGETS ariadne-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT ariadneTargets NAMESPACE ariadne:: DESTINATION ${ARIADNE_PACKAGE_DIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ariadneConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ariadneConfig.cmake
  INSTALL_DESTINATION ${ARIADNE_PACKAGE_DIR})
# Before 1.0 a minor release may change the API (docs/library.md, "Stability"), so
# find_package(ariadne 0.2) accepts 0.2.x only; from 1.0 on, the same major version.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(ARIADNE_COMPATIBILITY SameMinorVersion)
else()
  set(ARIADNE_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ariadneConfigVersion.cmake
  COMPATIBILITY ${ARIADNE_COMPATIBILITY})
install(FILES
    ${CMAKE_CURRENT_BINARY_DIR}/ariadneConfig.cmake
    ${CMAKE_CURRENT_BINARY_DIR}/ariadneConfigVersion.cmake
    ${CMAKE_CURRENT_LIST_DIR}/SolverLibraries.cmake
  DESTINATION ${ARIADNE_PACKAGE_DIR})
