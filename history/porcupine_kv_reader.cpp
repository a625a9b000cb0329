// Reads Porcupine kv histories: EDN op maps, one per line. The lines go through the
// op-map line driver (op_map_lines.hpp), fast path and general reader alike, which
// holds every line to one op map.
#include "history/edn_history_reader.hpp"
#include "history/event_sink.hpp"

namespace ariadne {

void read_porcupine_kv(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan) {
  edn::Reader reader(text, source);
  read_op_map_file(reader, text, source, sink, plan, true);
}

}  // namespace ariadne
