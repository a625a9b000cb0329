// Jepsen's line-oriented text logs: one event per line, as in Porcupine's etcd test
// data (`INFO  jepsen.util - 3<TAB>:invoke<TAB>:read<TAB>nil`) and old Knossos logs
// (`94  :invoke :write  0 :conn-not-ready`). See docs/formats.md for the rules.
#pragma once

#include <ariadne/history.hpp>

#include <string>
#include <string_view>

namespace ariadne {

// Whether a line starts with an event with no log prefix: a token, whitespace, then
// :invoke, :ok, :fail or :info. The token must not open an EDN form, so an op map
// such as `{:type :invoke ...}` does not count.
bool looks_like_jepsen_log_event(std::string_view line);

// Whether a line is what a raw console log starts with: the `lein test` line, or a
// log line of some logger ("INFO  jepsen.os.debian - ..."). Such a log is read as a
// console log from its start, even if the test died before any history line.
bool looks_like_jepsen_console_start(std::string_view line);

}  // namespace ariadne
