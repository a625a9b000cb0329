# CI builds with ARIADNE_WARNINGS_AS_ERRORS (.ci/run through `make test WERROR=ON`), so
# a warning never lands; by hand a warning is only a warning, so that a newer compiler
# with new warnings does not stop a user's build.
option(ARIADNE_WARNINGS_AS_ERRORS "Treat compiler warnings as errors (CI does)" OFF)

function(ariadne_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
    if(ARIADNE_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
  # GCC 12 reports -Wrestrict on `"literal" + std::string` inside libstdc++ at -O2
  # (GCC bug 105329, a false positive); silence it rather than contort every message.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
