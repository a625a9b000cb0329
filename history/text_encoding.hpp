// Text encodings shared by the readers, the values and the command line: UTF-8
// well-formedness (RFC 3629), JSON string quoting (RFC 8259), and the shortening of
// user data quoted in messages and reports. Kept in one place so that what the JSON
// reader accepts and what every writer emits cannot drift apart, and so that no error
// message or report echoes a megabyte value whole.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ariadne {

// Length of the well-formed UTF-8 sequence starting at text[at], or 0 if it is not one:
// overlong forms, surrogates and code points above U+10FFFF are rejected.
std::size_t utf8_sequence_length(std::string_view text, std::size_t at);

// `text` as a JSON string literal, quotes included. Control characters are escaped
// and bytes that are not well-formed UTF-8 become U+FFFD, so the result always parses
// (file names and history values may hold arbitrary bytes).
std::string json_quote(std::string_view text);

// `text` cut to at most `limit` bytes around an ellipsis (head and tail kept, since a
// growing kv value differs at its end), never splitting a UTF-8 sequence. A history
// may hold names and values of megabytes; every message or report that quotes one
// goes through here.
std::string shorten(std::string text, std::size_t limit);

// How much of a name or value errors and reports quote (see shorten).
inline constexpr std::size_t kQuotedTextLimit = 80;

// `text` as quoted in an error message: shortened to kQuotedTextLimit.
std::string quoted_briefly(std::string text);

}  // namespace ariadne
