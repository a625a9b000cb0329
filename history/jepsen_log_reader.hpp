// Jepsen's line-oriented text logs: one event per line, as in Porcupine's etcd test
// data (`INFO  jepsen.util - 3<TAB>:invoke<TAB>:read<TAB>nil`) and old Knossos logs
// (`94  :invoke :write  0 :conn-not-ready`). See docs/formats.md for the rules.
#pragma once

#include <ariadne/history.hpp>

#include "history/edn_reader.hpp"
#include "history/event_sink.hpp"
#include "history/flat_op_map.hpp"

#include <cstdint>
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

// Reads a log a piece at a time, each piece whole lines: read_jepsen_log() reads the
// whole text as one piece, `check --follow` each piece as it is written. What the
// lines before taught the reader (a console log, the last jepsen.util prefix) carries
// over from piece to piece, so the pieces read as the whole text would.
class JepsenLogLines {
 public:
  JepsenLogLines(std::string source, const ReadPlan& plan);
  // `first_line`: the file's number of the piece's first line. A piece that ends
  // without a line break is the file's last line.
  void read(std::string_view text, std::uint32_t first_line, EventSink& sink);
  // The warning counting the lines skipped, once, after the last piece.
  void finish(EventSink& sink);

 private:
  std::string source_;
  ReadPlan plan_;
  FlatOpMapReader fast_;
  Event event_;
  edn::Reader reader_;
  std::size_t skipped_ = 0;  // lines that are no history line (see the file's header)
  std::uint32_t first_skipped_ = 0;
  // A console log has the jepsen.util lines alone as its history: the analysis at the
  // end prints events again, bare ("Linearizable prefix was:" and the prefix), and
  // clojure.test its "0 failures".
  bool console_ = false;
  bool first_content_line_ = true;
  std::string util_prefix_;  // the last jepsen.util line's log prefix
};

}  // namespace ariadne
