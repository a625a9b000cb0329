// Porcupine's key/value test histories: one EDN op map per line, such as
// `{:process 9, :type :invoke, :f :append, :key "0", :value "x 9 0 y"}`.
#pragma once

#include <ariadne/history.hpp>

#include <string>
#include <string_view>

namespace ariadne {

// Each non-blank line holds one op map, read with the same rules as EDN histories
// (read_op_map); :key becomes Event::key.
EventLog parse_porcupine_kv(std::string_view text, const std::string& source);

}  // namespace ariadne
