# The installed package from a consumer's side (`cmake -P`, registered in
# tests/CMakeLists.txt with the label install): installs the current build into a
# fresh prefix, checks that the installed headers include nothing but standard
# headers and each other, then configures, builds and runs examples/user_model (C++)
# and, given C_EXAMPLE_DIR and C_COMPILER, examples/c_api (C) against that prefix
# alone, with the build's own compilers and generator.
#
# Expects ARIADNE_BUILD_DIR, ARIADNE_CONFIG, ARIADNE_VERSION, ARIADNE_LIBDIR (the
# library's directory under the prefix), EXAMPLE_DIR, WORK_DIR, CXX_COMPILER and
# GENERATOR. Everything happens in a new directory from mktemp under WORK_DIR, so
# parallel or repeated runs never share files; it is removed when the test passes and
# kept, with its path printed, when it fails.
foreach(required ARIADNE_BUILD_DIR ARIADNE_CONFIG ARIADNE_VERSION ARIADNE_LIBDIR EXAMPLE_DIR WORK_DIR
                 CXX_COMPILER GENERATOR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "InstalledPackageTest.cmake: -D${required}=... is missing")
  endif()
endforeach()

execute_process(COMMAND mktemp -d ${WORK_DIR}/installed-package.XXXXXX
  OUTPUT_VARIABLE scratch OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
set(prefix ${scratch}/prefix)

# Runs one step; on failure prints its output and where the scratch directory is.
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n(files kept in ${scratch})")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(config_option "")
if(ARIADNE_CONFIG)
  set(config_option --config ${ARIADNE_CONFIG})
endif()
run_step("cmake --install" ${CMAKE_COMMAND} --install ${ARIADNE_BUILD_DIR} ${config_option} --prefix ${prefix})

# The public API promises standard headers only (docs/library.md): no Z3, CaDiCaL or
# Boost type, and no internal header, may reach a consumer's compiler.
file(GLOB headers ${prefix}/include/ariadne/*.hpp)
if(NOT headers)
  message(FATAL_ERROR "no headers installed under ${prefix}/include/ariadne (files kept in ${scratch})")
endif()
# The C API's header, C all through, may include the C library's headers and no other.
file(GLOB c_headers ${prefix}/include/ariadne/*.h)
if(NOT c_headers)
  message(FATAL_ERROR "no C header installed under ${prefix}/include/ariadne (files kept in ${scratch})")
endif()
foreach(header IN LISTS c_headers)
  file(STRINGS ${header} includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*<(stddef|stdint)\\.h>")
      message(FATAL_ERROR "${header}: '${line}' is not a C standard header (files kept in ${scratch})")
    endif()
  endforeach()
endforeach()
foreach(header IN LISTS headers)
  file(STRINGS ${header} includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(line MATCHES "^[ \t]*#[ \t]*include[ \t]*<ariadne/([a-z_]+\\.hpp)>")
      if(NOT EXISTS ${prefix}/include/ariadne/${CMAKE_MATCH_1})
        message(FATAL_ERROR "${header} includes ${CMAKE_MATCH_1}, which is not installed")
      endif()
    elseif(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*<[a-z_]+>")
      message(FATAL_ERROR "${header}: '${line}' is not a standard header (files kept in ${scratch})")
    endif()
  endforeach()
endforeach()

run_step("the installed command line" ${prefix}/bin/ariadne --version)

# The C API's shared library, for ctypes and cgo: installed, and exporting the C API.
run_step("the installed libariadne_c.so" nm -D --defined-only ${prefix}/${ARIADNE_LIBDIR}/libariadne_c.so)
if(NOT step_output MATCHES " T ariadne_check\n")
  message(FATAL_ERROR "libariadne_c.so does not export ariadne_check (files kept in ${scratch})")
endif()

# The library is built position-independent so that consumers can put it into a
# shared library: every object of the archive must link into one. Undefined symbols
# are allowed in a shared library, so this needs none of the dependencies.
run_step("linking all of libariadne.a into a shared library" ${CXX_COMPILER} -shared
  -o ${scratch}/whole-archive.so
  -Wl,--whole-archive ${prefix}/${ARIADNE_LIBDIR}/libariadne.a -Wl,--no-whole-archive)

# CMAKE_FIND_USE_PACKAGE_REGISTRY off: only the prefix may provide ariadne. No build
# type: the example is compiled unoptimised, which takes 1.5 s less of the test's 6
# to 9, and it links the installed library whichever configuration that was built
# in. A single-configuration generator (Unix Makefiles, Ninja) is assumed, as the
# executable's path below shows.
run_step("configuring examples/user_model" ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${scratch}/build
  -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
  -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
# The example prints the version and the directory of the package it found.
string(FIND "${step_output}" "ariadne ${ARIADNE_VERSION} from ${prefix}/" found_at)
if(found_at EQUAL -1)
  message(FATAL_ERROR "examples/user_model did not find ariadne ${ARIADNE_VERSION} under ${prefix}:\n${step_output}")
endif()
run_step("building examples/user_model" ${CMAKE_COMMAND} --build ${scratch}/build)
run_step("running examples/user_model" ${scratch}/build/user_model)
message(STATUS "${step_output}")

# The C API from a C project (examples/c_api): the installed ariadne.h and library only.
if(DEFINED C_EXAMPLE_DIR)
  run_step("configuring examples/c_api" ${CMAKE_COMMAND} -S ${C_EXAMPLE_DIR} -B ${scratch}/build-c
    -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_C_COMPILER=${C_COMPILER}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  run_step("building examples/c_api" ${CMAKE_COMMAND} --build ${scratch}/build-c)
  run_step("running examples/c_api" ${scratch}/build-c/c_api)
  message(STATUS "${step_output}")
endif()

file(REMOVE_RECURSE ${scratch})
