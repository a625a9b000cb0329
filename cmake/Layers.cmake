# The layers of the library, and the build that holds them to their order.
#
# Every folder of the library is a layer, and a layer may include only the layers
# below it (docs/architecture.md draws them):
#
#   base <- history <- models <- {search, encoder} <- solvers <- engines <- refute
#        <- explain <- portfolio <- capi              (libariadne: the checker; capi
#                                                      is its C API, ariadne.h)
#   encoder <- certify <- refute (the proof checker re-encodes a core; certify shares
#   no code with any engine, search or solver)
#   models <- {generators, systems, report}; systems <- explore
#   portfolio <- answer <- batch                      (libariadne-tools: not for users)
#   answer <- follow                                  (check --follow: a file as it grows)
#   {generators, systems, report, explore, answer, batch, follow} <- cli   (the command line)
#
# "A <- B" reads "B includes A". The command line sees the tools' headers and the
# public ones alone, not the checker's layers: what it needs of the checker goes
# through include/ariadne/ or a tool (answer: writing an answer; batch: corpora,
# shards, reports read back, certificates).
#
# Each layer compiles as an object library whose include path holds only what it may
# include: a folder of links, build/layers/LAYER/, with one link per allowed layer and
# an ariadne/ of the public headers (check.hpp, the entry point, only from portfolio
# up). `#include "portfolio/check.hpp"` in search/ then fails to compile, naming the
# file it could not find; that is the enforcement. Third-party headers follow the same
# rule: Boost.Graph from encoder up (encoder's headers use it), Z3 and CaDiCaL in
# solvers alone.

# A layer's direct dependencies; the closure of these is what it may include.
set(ARIADNE_LAYER_DEPS_base "")
set(ARIADNE_LAYER_DEPS_history base)
set(ARIADNE_LAYER_DEPS_models history)
set(ARIADNE_LAYER_DEPS_search models)
set(ARIADNE_LAYER_DEPS_encoder models)
set(ARIADNE_LAYER_DEPS_certify encoder)
set(ARIADNE_LAYER_DEPS_solvers encoder search)
set(ARIADNE_LAYER_DEPS_engines solvers)
set(ARIADNE_LAYER_DEPS_refute engines certify)
set(ARIADNE_LAYER_DEPS_explain refute)
set(ARIADNE_LAYER_DEPS_portfolio explain)
set(ARIADNE_LAYER_DEPS_capi portfolio)
set(ARIADNE_LAYER_DEPS_generators models)
set(ARIADNE_LAYER_DEPS_systems models)
set(ARIADNE_LAYER_DEPS_report models)
set(ARIADNE_LAYER_DEPS_explore systems)
set(ARIADNE_LAYER_DEPS_answer portfolio)
set(ARIADNE_LAYER_DEPS_batch answer)
set(ARIADNE_LAYER_DEPS_follow answer)
# Not a closure: the command line may include these layers' headers, and no others.
set(ARIADNE_CLI_SEES generators systems report explore answer batch follow)

# The checker, bottom up, and the tooling built on it.
set(ARIADNE_CHECKER_LAYERS base history models search encoder certify solvers engines refute explain portfolio capi)
set(ARIADNE_TOOL_LAYERS generators systems report explore answer batch follow)

# Third-party libraries a layer's own headers expose (so every layer above needs their
# include path), and those only its sources use.
set(ARIADNE_LAYER_EXPOSES_encoder Boost::graph)
set(ARIADNE_LAYER_USES_solvers ariadne::cadical ariadne::z3)

# The layers that may call check() itself: the entry point's header is theirs.
set(ARIADNE_ENTRY_LAYERS portfolio capi answer batch follow cli)

function(ariadne_layer_closure layer out)
  set(seen ${layer})
  set(todo ${ARIADNE_LAYER_DEPS_${layer}})
  while(todo)
    list(POP_FRONT todo next)
    if(NOT next IN_LIST seen)
      list(APPEND seen ${next})
      list(APPEND todo ${ARIADNE_LAYER_DEPS_${next}})
    endif()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# Makes build/layers/NAME/: one link per layer in `allowed`, and an ariadne/ of the
# public headers (check.hpp only for the entry layers). Returns its path in `out`.
function(ariadne_layer_include_dir name allowed out)
  set(dir ${PROJECT_BINARY_DIR}/layers/${name})
  # Made afresh at every configure, so a layering change leaves no stale link.
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir}/ariadne)
  foreach(below IN LISTS allowed)
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${below} ${dir}/${below} SYMBOLIC)
  endforeach()
  file(GLOB public_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/ariadne/*.hpp
       ${PROJECT_SOURCE_DIR}/include/ariadne/*.h)
  foreach(header IN LISTS public_headers)
    get_filename_component(header_name ${header} NAME)
    if(header_name STREQUAL "check.hpp" AND NOT name IN_LIST ARIADNE_ENTRY_LAYERS)
      continue()
    endif()
    file(CREATE_LINK ${header} ${dir}/ariadne/${header_name} SYMBOLIC)
  endforeach()
  set(${out} ${dir} PARENT_SCOPE)
endfunction()

# Makes the object library ariadne_layer_LAYER from LAYER/*.cpp, with the include path
# its place allows.
function(ariadne_add_layer layer)
  ariadne_layer_closure(${layer} allowed)
  ariadne_layer_include_dir(${layer} "${allowed}" dir)
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${layer}/*.cpp)
  add_library(ariadne_layer_${layer} OBJECT ${sources} ${ARGN})
  set_target_properties(ariadne_layer_${layer} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(ariadne_layer_${layer} PRIVATE ${dir})
  target_compile_features(ariadne_layer_${layer} PRIVATE cxx_std_20)
  set(third_party ${ARIADNE_LAYER_USES_${layer}})
  foreach(below IN LISTS allowed)
    list(APPEND third_party ${ARIADNE_LAYER_EXPOSES_${below}})
  endforeach()
  target_link_libraries(ariadne_layer_${layer} PRIVATE Threads::Threads ${third_party})
  ariadne_warnings(ariadne_layer_${layer})
  if(ARIADNE_UNITY_BUILD)
    set_target_properties(ariadne_layer_${layer} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
