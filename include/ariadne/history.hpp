// Histories: the events a test recorded, and the operations they pair into.
//
// Semantics follow Jepsen and Knossos: events pair per process; an :ok completion
// means the operation took effect and returned the completion's value; a :fail pair
// certainly did not happen and is dropped (unless the model treats it as an
// observation, as the etcd model does for a failed cas); an :info completion, or an
// invocation that never completes, is a crashed operation that may take effect at any
// point after its invocation, or never. :info events with no open invocation and all
// events of non-client processes (a :process that is not an integer) are ignored.
// Real time is file order.
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/value.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ariadne {

class Model;

enum class EventType : std::uint8_t { invoke, ok, fail, info };

struct Event {
  Value process;  // an integer for a client; anything else (e.g. :nemesis) is ignored
  EventType type = EventType::invoke;
  std::string f;  // operation name, e.g. "read" (keywords lose their colon)
  Value value;
  Value key;                          // the Porcupine kv format's :key; nil when the format has none
  std::optional<std::int64_t> index;  // Jepsen's :index, kept for reports
  // When it happened, on one clock (any unit): with timestamps on its client events, a
  // history's real time is their order, not the file's (docs/formats.md, "Timestamps").
  std::optional<std::int64_t> timestamp;
  SourcePos pos;  // where the event starts in its file
};

// What a reader accepted but a user should hear of (a clock going backwards, say):
// the command line prints each on stderr and lists them under "warnings" in JSON.
struct ReadWarning {
  SourcePos pos;
  std::string message;
};

struct EventLog {
  std::string source;  // file name for messages
  std::vector<Event> events;
  std::vector<ReadWarning> warnings = {};
  // The model the file's own header names (a Violin or LiMo log's `# @object queue`,
  // a fastlin history's `# stack`), as a spec: "fifo-queue", "stack",
  // "max-priority-queue". Formats that name no object leave it empty.
  std::optional<std::string> model_hint = {};
};

enum class OpStatus : std::uint8_t {
  ok,       // completed: took effect with the recorded result
  crashed,  // :info or never completed: may take effect at most once, result unknown
  failed,   // :fail, kept only when the model treats it as an observation (etcd cas)
};

// Event positions double as timestamps: file order is real time.
inline constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

// The fields engines and models read on every step come first, and an Operation
// starts on a cache line: they then sit in the first two lines, which matters when a
// partition's operations are scattered over a history of millions.
struct alignas(64) Operation {
  // The 0-based position of the invocation event among all events of the file,
  // counting ignored events too. This is the op id of the command-line contract.
  std::uint32_t id = 0;
  OpStatus status = OpStatus::ok;
  std::int64_t process = 0;
  std::uint64_t call = 0;      // position of the invocation event
  std::uint64_t ret = kNever;  // position of the completion event; kNever if crashed
  std::string f;
  Value key;
  // For :ok ops the completion's value; for crashed and failed ops the invocation's.
  Value value;
  Value invoke_value;
  std::optional<std::int64_t> index;
  SourcePos call_pos;
  SourcePos ret_pos;

  bool must_take_effect() const { return status != OpStatus::crashed; }
  // Real-time precedence: this op completed before `other` was invoked.
  bool precedes(const Operation& other) const { return ret < other.call; }
};

// `a` must come before `b` in every order the condition `c` (consistency.hpp)
// allows. Linearizable: `a` completed before `b` was invoked. Sequential: the same
// process invoked both, `a` first, and `a` did not crash (so it completed before `b`
// was invoked too: program order is real time within one process). It stands here,
// beside Operation, so that consistency.hpp needs no history.
inline bool must_precede(const Operation& a, const Operation& b, Consistency c) {
  if (keeps_real_time(c)) return a.precedes(b);
  return a.process == b.process && a.status != OpStatus::crashed && a.call < b.call;
}

// Events that looked like a client's (:invoke, :ok or :fail) from a process that is
// no client (only integers are: :nemesis, "n1" are not), which the history leaves
// out: counted per process, so that no client op is ever dropped silently.
struct IgnoredEvents {
  Value process;
  std::size_t events = 0;
  SourcePos first;  // the first of them
};

struct History {
  std::string source;
  std::size_t event_count = 0;
  std::vector<Operation> ops;               // in invocation order (ascending id)
  std::vector<ReadWarning> warnings = {};   // the reader's, in file order
  std::vector<IgnoredEvents> ignored = {};  // in order of first appearance (each also a warning)
};

// Pairs events into operations with the semantics above and asks the model to vet
// every operation's shape. Throws InputError naming the offending event's position.
History build_history(const EventLog& log, const Model& model);

// violin_log: the logs of Violin (POPL 2016) and LiMo (PLDI 2025); fastlin: the
// histories of Lee and Mathur's fastlin and PolyLin (OOPSLA 2025). docs/formats.md.
enum class Format : std::uint8_t { auto_detect, edn, jepsen_log, porcupine_kv, json, violin_log, fastlin };

std::optional<Format> parse_format(std::string_view name);
std::string_view format_name(Format format);

// Reads a history file. With Format::auto_detect the format is guessed from the
// content (see history/format_detect.cpp). Throws InputError on malformed input.
EventLog read_events(const std::string& path, Format format = Format::auto_detect);
EventLog parse_events(std::string_view text, const std::string& source, Format format = Format::auto_detect);

// The model a history file's header names (EventLog::model_hint), read from the
// header alone, so that a command can choose its model before it reads the history;
// nullopt for formats that name no object. Throws InputError when the header is
// missing or names an object ariadne does not read.
std::optional<std::string> read_model_hint(const std::string& path, Format format = Format::auto_detect);
std::optional<std::string> parse_model_hint(std::string_view text, const std::string& source,
                                            Format format = Format::auto_detect);

// A Jepsen store folder (store/<test>/<time>/, or the store/<test>/latest link) in
// place of a history file, as read_history takes one: Jepsen writes the history there
// as history.edn, and as history.txt (one tab-separated line per event, which the
// jepsen-log reader reads). `path` itself when it is not a directory; else its
// history.edn, else its history.txt. Throws InputError naming the folder when it
// holds neither.
std::string history_file_in(const std::string& path);
// `path` may also be a Jepsen store folder (store/<test>/<time>, or store/<test>/latest):
// its history.edn is read, else its history.txt.
//
// Reads a history file straight into operations: the file is memory-mapped, and its
// events are paired as the readers pass them, so no EventLog is ever held and pages
// already read leave memory. The same History as build_history(read_events(path,
// format), model) in a fraction of the memory: what to use for large files. Unlike
// build_history, it refuses (InputError) a file without a single event, almost always
// a harness that recorded nothing, and a file cut short while it was read.
History read_history(const std::string& path, const Model& model, Format format = Format::auto_detect);
// The same, polling `limits` as it reads: throws LimitReached (limits.hpp) when one of
// them is reached, or was reached before, so a huge file, a pipe that never ends or
// a FIFO nobody writes to cannot keep a command past its --timeout, --memory-limit
// or Ctrl-C, and a limit reached while reading never stands beside a verdict.
History read_history(const std::string& path, const Model& model, Format format, const Limits& limits);
// The same, keeping only the operations `keep` accepts, judged at their invocation from
// its fields (f, invocation value, key, process): one key shard's, say
// (`check --shard`). Every event is still read and paired, so op ids, times and
// pairing errors are the whole file's; only the kept operations are vetted by the
// model and held in memory.
History read_history(const std::string& path, const Model& model, Format format, const Limits& limits,
                     const std::function<bool(const Operation&)>& keep);
// The same for text in memory; `source` names it in messages. Text without a single
// event is refused as read_history refuses it.
History parse_history(std::string_view text, const std::string& source, const Model& model,
                      Format format = Format::auto_detect);

// Writes the events in `format` (not auto_detect), so that parse_events() of the text
// with that format gives the same events in the same order: op ids and real time are
// kept. jepsen-log drops :index; an event a format cannot hold (a :key in a
// jepsen-log, a keyword inside a value a model reads in json) throws InputError at
// its position. Throws UsageError for auto_detect.
std::string format_events(const EventLog& log, Format format);

// Parses a single EDN value, e.g. an --init argument. Throws InputError.
Value parse_edn_value(std::string_view text, const std::string& source);

// Parses one strict JSON document (RFC 8259) as a Value: null -> nil, booleans,
// integers (big_integer beyond 64 bits), other numbers -> floating, strings, arrays ->
// vector, objects -> map with string keys. Throws InputError at line:column.
Value parse_json_value(std::string_view text, const std::string& source);

}  // namespace ariadne
