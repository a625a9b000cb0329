# Compiles text files into a target: each file becomes a function returning its bytes,
# so that a program can write them out (the HTML report's script, style and markup,
# report/page/) while they stay files of their own, which editors, linters and diffs
# understand as JavaScript, CSS and HTML rather than as a C++ string.
#
#     ariadne_embed_text(TARGET <target> NAMESPACE <namespace> [HEADER <header>]
#                        [STRIP_LEADING_COMMENT]
#                        FUNCTIONS <function> <file> [<function> <file>...])
#
# defines `std::string_view <namespace>::<function>()` for each pair, in a .cpp file
# generated into the build tree and added to <target>'s sources. The file is written at
# build time (a custom command running this script with `cmake -P`), so editing <file>
# regenerates and recompiles it. HEADER, relative to the target's include path, is
# included first, so that a definition which does not match its declaration fails to
# compile. STRIP_LEADING_COMMENT drops the comment each file must begin with (`//`
# lines, `/* */` or `<!-- -->`) and the line break ending it: the comment explains the
# file to its readers, and need not ship in every program's output.
#
# The bytes are emitted as an array of numbers, never as a string literal, so nothing
# in a file (a raw string's delimiter, a quote, a backslash, a NUL) can end or alter it.

function(ariadne_embed_text)
  cmake_parse_arguments(PARSE_ARGV 0 arg "STRIP_LEADING_COMMENT" "TARGET;NAMESPACE;HEADER" "FUNCTIONS")
  if(NOT arg_TARGET OR NOT arg_NAMESPACE OR NOT arg_FUNCTIONS OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ariadne_embed_text(TARGET target NAMESPACE namespace [HEADER header] "
                        "[STRIP_LEADING_COMMENT] FUNCTIONS function file...): got ${ARGV}")
  endif()
  list(LENGTH arg_FUNCTIONS count)
  math(EXPR odd "${count} % 2")
  if(odd)
    message(FATAL_ERROR "ariadne_embed_text: FUNCTIONS takes pairs of a function name and a file")
  endif()

  set(script ${CMAKE_CURRENT_FUNCTION_LIST_FILE})
  math(EXPR last "${count} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET arg_FUNCTIONS ${i} function)
    list(GET arg_FUNCTIONS ${j} file)
    cmake_path(ABSOLUTE_PATH file BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE)
    # The generated file names its source relative to the project, not where this
    # checkout happens to be.
    file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${file})
    set(output ${CMAKE_CURRENT_BINARY_DIR}/embedded/${relative}.cpp)
    add_custom_command(OUTPUT ${output}
      COMMAND ${CMAKE_COMMAND}
              -D ARIADNE_EMBED_INPUT=${file}
              -D ARIADNE_EMBED_NAME=${relative}
              -D ARIADNE_EMBED_OUTPUT=${output}
              -D ARIADNE_EMBED_NAMESPACE=${arg_NAMESPACE}
              -D ARIADNE_EMBED_FUNCTION=${function}
              -D ARIADNE_EMBED_HEADER=${arg_HEADER}
              -D ARIADNE_EMBED_STRIP=${arg_STRIP_LEADING_COMMENT}
              -P ${script}
      DEPENDS ${file} ${script}
      COMMENT "Embedding ${relative} as ${arg_NAMESPACE}::${function}()"
      VERBATIM)
    target_sources(${arg_TARGET} PRIVATE ${output})
    # Outside the unity batches: editing the file then recompiles this one small
    # translation unit, not a batch of its neighbours and their heavy headers.
    set_source_files_properties(${output} TARGET_DIRECTORY ${arg_TARGET}
      PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
endfunction()

# The custom command's side: writes ARIADNE_EMBED_OUTPUT from ARIADNE_EMBED_INPUT.
function(_ariadne_embed_text_write)
  # Read as hex, never as text: a text read stops at a NUL and may drop carriage
  # returns. Every byte becomes "0xHH, ", which the comment is also found in: a search
  # for a byte sequence can then only match at a byte's start.
  file(READ ${ARIADNE_EMBED_INPUT} hex HEX)
  string(REGEX REPLACE "(..)" "0x\\1, " bytes "${hex}")
  if(ARIADNE_EMBED_STRIP)
    set(open_length 0)
    if(bytes MATCHES "^(0x2f, 0x2f, (0x([1-9a-f].|0[0-9b-f]), )*0x0a, )+")
      # `//` lines, each with its line break.
      string(LENGTH "${CMAKE_MATCH_0}" end)
    elseif(bytes MATCHES "^0x2f, 0x2a, ")
      set(open_length 12)
      set(close "0x2a, 0x2f, ")
    elseif(bytes MATCHES "^0x3c, 0x21, 0x2d, 0x2d, ")
      set(open_length 24)
      set(close "0x2d, 0x2d, 0x3e, ")
    else()
      set(end -1)
    endif()
    if(open_length)
      # `/* */` or `<!-- -->`: up to the first close after the open, and the line
      # break after it.
      string(SUBSTRING "${bytes}" ${open_length} -1 rest)
      string(FIND "${rest}" "${close}" end)
      if(NOT end EQUAL -1)
        string(LENGTH "${close}" close_length)
        math(EXPR end "${open_length} + ${end} + ${close_length}")
        string(SUBSTRING "${bytes}" ${end} 12 after)
        if(after MATCHES "^(0x0d, )?0x0a, ")
          string(LENGTH "${CMAKE_MATCH_0}" newline_length)
          math(EXPR end "${end} + ${newline_length}")
        endif()
      endif()
    endif()
    if(end EQUAL -1)
      message(FATAL_ERROR "${ARIADNE_EMBED_NAME} must begin with a comment (// lines, /* */ or <!-- -->), "
                          "which the build leaves out")
    endif()
    string(SUBSTRING "${bytes}" ${end} -1 bytes)
  endif()

  # Twelve bytes a line, and a NUL past the end so that the array is never empty (and
  # data() is also a C string).
  string(REPEAT "0x.., " 12 line)
  string(REGEX REPLACE "(${line})" "\\1\n" bytes "${bytes}")
  string(REGEX REPLACE " \n" "\n    " bytes "    ${bytes}0x00")

  set(include)
  if(ARIADNE_EMBED_HEADER)
    set(include "#include \"${ARIADNE_EMBED_HEADER}\"\n")
  endif()
  set(comment "")
  if(ARIADNE_EMBED_STRIP)
    set(comment " after its leading comment")
  endif()
  file(WRITE ${ARIADNE_EMBED_OUTPUT}
"// Generated by cmake/EmbedText.cmake from ${ARIADNE_EMBED_NAME}: edit that file, not this one.
${include}
#include <string_view>

namespace ${ARIADNE_EMBED_NAMESPACE} {

std::string_view ${ARIADNE_EMBED_FUNCTION}() {
  // The bytes of ${ARIADNE_EMBED_NAME}${comment}.
  static constexpr unsigned char bytes[] = {
${bytes}
  };
  return {reinterpret_cast<const char*>(bytes), sizeof bytes - 1};
}

}  // namespace ${ARIADNE_EMBED_NAMESPACE}
")
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED ARIADNE_EMBED_OUTPUT)
  cmake_policy(VERSION 3.25)
  _ariadne_embed_text_write()
endif()
