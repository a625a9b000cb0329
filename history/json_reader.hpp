// ariadne's JSON history format (docs/formats.md): a top-level array of event objects,
// or an object whose "events" member is that array. The parser is strict RFC 8259
// JSON of our own, so that errors carry line:column like every other reader.
#pragma once

#include <ariadne/history.hpp>

#include <string>
#include <string_view>

namespace ariadne {

// One JSON document as a Value: null -> nil, booleans, integers (big_integer beyond
// 64 bits), other numbers -> floating, strings, arrays -> vector, objects -> map
// with string keys.
Value parse_json_value(std::string_view text, const std::string& source);

}  // namespace ariadne
