// Text encodings shared by the readers, the values and the command line: UTF-8
// well-formedness (RFC 3629) and JSON string quoting (RFC 8259), and the shortening of
// user data quoted in messages and reports (declared in <ariadne/value.hpp>). Kept in
// one place so that what the JSON reader accepts and what every writer emits cannot
// drift apart, and so that no error message or report echoes a megabyte value whole.
#pragma once

#include <ariadne/value.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace ariadne {

// Length of the well-formed UTF-8 sequence starting at text[at], or 0 if it is not one:
// overlong forms, surrogates and code points above U+10FFFF are rejected.
std::size_t utf8_sequence_length(std::string_view text, std::size_t at);

// The position of the first byte at or after `from` that does not start a
// well-formed UTF-8 sequence, or text.size() when there is none.
std::size_t first_invalid_utf8(std::string_view text, std::size_t from = 0);

// `text` as a JSON string literal, quotes included. Control characters are escaped
// and bytes that are not well-formed UTF-8 become U+FFFD, so the result always parses
// (file names and history values may hold arbitrary bytes).
std::string json_quote(std::string_view text);

// `text` with every byte that is not part of well-formed UTF-8 replaced by U+FFFD,
// the rest unchanged: for outputs whose format has no byte escape (EDN, the human
// report, HTML), which must stay valid UTF-8 whatever bytes a history held. As in
// json_quote, each stray byte becomes one U+FFFD. Returns `text` as is when it is
// well-formed, which is almost always.
std::string replace_invalid_utf8(std::string text);

}  // namespace ariadne
