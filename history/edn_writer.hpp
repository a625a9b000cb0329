// Writing an EventLog back out as EDN op maps, one map per line, in the shape Jepsen
// writes its history.edn files and our EDN reader accepts (docs/formats.md). The
// generators use it to produce histories that `ariadne check` reads; the round trip
// parse_events(format_edn_events(log)) gives back the same events, positions aside.
#pragma once

#include <ariadne/history.hpp>

#include <string>

namespace ariadne {

// One op map without a trailing newline, e.g.
// {:process 0, :type :invoke, :f :write, :value 3}. :value is always written (nil
// included, as Jepsen does); :key only when it is not nil, :index only when present,
// and :f is left out only for a non-client event that has none.
std::string format_edn_event(const Event& event);

// Every event of `log`, one op map per line, each line ending in '\n'. The maps are
// a run of top-level forms rather than one vector, so a file can be appended to and
// read line by line.
std::string format_edn_events(const EventLog& log);

}  // namespace ariadne
