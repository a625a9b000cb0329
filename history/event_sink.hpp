// Where readers put the events they read. A reader hands each event on as soon as it
// has read it, so a history can be paired into operations while the file streams past
// (HistoryBuilder) instead of first holding every event: for a ten-million-operation
// file that is twenty million events, several gigabytes, that never need to exist at
// once.
#pragma once

#include <ariadne/history.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace ariadne {

class Limits;

class EventSink {
 public:
  virtual void add(Event&& event) = 0;
  // The reader will not look at the bytes before `offset` again (a memory-mapped
  // file can release them). Called after each event; the default ignores it.
  virtual void passed(std::size_t /*offset*/) {}
  // Something the reader accepted but the user should hear of.
  virtual void warn(ReadWarning warning) = 0;

 protected:
  ~EventSink() = default;
};

// Keeps every event, for the callers that want the EventLog itself (convert, the
// public parse_events()).
class EventCollector final : public EventSink {
 public:
  explicit EventCollector(EventLog& log) : log_(log) {}
  void add(Event&& event) override { log_.events.push_back(std::move(event)); }
  void warn(ReadWarning warning) override { log_.warnings.push_back(std::move(warning)); }

 private:
  EventLog& log_;
};

// How the readers may read. The defaults are what every command uses; the others
// exist so that tests and fuzz targets can hold the fast paths and the parallel
// reading to the general reader (tests/history/fast_reader_differential_test.cpp).
struct ReadPlan {
  // The fast paths for the shapes real files have (flat_op_map.hpp); off, every line
  // goes through the general reader.
  bool fast = true;
  // Threads reading blocks of a large file ahead of the sink; 0: one per CPU the
  // process may run on (available_cpus()); 1: none, the calling thread reads
  // everything. read_history() sets the command's jobs (Limits::jobs()).
  unsigned threads = 0;
  // A block's size, and the least size of a file read in parallel is twice this.
  std::size_t block_bytes = std::size_t{1} << 20;
  // The command's limits, for the scans that could touch a whole long line or string
  // at once (scan_room.hpp); none: no memory limit.
  const Limits* limits = nullptr;
};

// Reads `text` in `format` (auto_detect guesses it, see format_detect.cpp) and hands
// every event to `sink` in file order. Throws InputError on malformed input.
void stream_events(std::string_view text, const std::string& source, Format format, EventSink& sink,
                   const ReadPlan& plan = {});

// The format of `text`, which has content, guessed by docs/formats.md's rules
// ("Auto-detection"). `limits`: for the search of a line's end, which can run over a
// line of megabytes.
Format detect_format(std::string_view text, const Limits* limits);

// Each reader, for one known format (docs/formats.md states the rules for users).
// EDN: op maps, bare or in one vector or list.
void read_edn_history(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan = {});
// Jepsen text logs: every line that is neither blank nor a `;` comment is an event; a
// log prefix ending in " - " is stripped, then the line holds EDN values: process,
// :type, :f, value. Text after the value is ignored.
void read_jepsen_log(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan = {});
// Porcupine kv: EDN op maps, one per line.
void read_porcupine_kv(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan = {});
// JSON: each event {"process": 0, "type": "invoke", "f": "write", "value": 1,
// "key": "k", "index": 7}; "process" and "type" are required, "f" too for client
// (integer) processes; other members are ignored. Event::pos is the object's '{'.
void read_json_history(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan = {});
// Violin and LiMo logs: a `# @object` header, then `[id] call m(v)` and `[id] return
// [v]` lines (violin_log_reader.hpp).
void read_violin_log(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan = {});
// fastlin histories: a `# queue` header, then `method value start end` lines
// (fastlin_reader.hpp); the events come in fastlin's order of the times.
void read_fastlin_history(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan = {});

}  // namespace ariadne
