// Reads Jepsen text logs line by line: the EDN reader is restarted on each line, so a
// malformed value cannot swallow the next line and errors name the line's end, while
// the keywords it interned carry over from line to line.
//
// A raw Jepsen console log (jepsen.log, or what `lein test` printed) holds the history
// as the lines jepsen.util logs, among the setup, nemesis and analysis output of every
// other logger. As Porcupine's and Horn and Kroening's parsers do, the reader takes
// the history lines and skips the others, counting them in one warning. Once a line
// with jepsen.util's prefix has been seen, or from the start if the first line is
// `lein ...` or another logger's, the history lines are the jepsen.util lines alone
// (each must parse). Before that (a log of bare lines, Knossos' old format), a line is
// a history line unless it starts with a word (it must then parse), or when what
// follows some " - " prefix starts like an event.
#include "history/jepsen_log_reader.hpp"

#include "history/edn_history_reader.hpp"
#include "history/edn_reader.hpp"
#include "history/event_sink.hpp"
#include "history/flat_op_map.hpp"
#include "history/scan_room.hpp"

namespace ariadne {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

bool is_blank(std::string_view line) {
  for (char c : line) {
    if (!is_space(c)) return false;
  }
  return true;
}

// A `;` comment line, as in EDN: no event starts with a semicolon.
bool is_comment(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  return i < line.size() && line[i] == ';';
}

// How many bytes of log prefix ("INFO  jepsen.util - ") precede the event. A " - "
// after the start of an event belongs to its value (a string, a nemesis message).
// Jepsen's later log layout names the thread before the " - " and the logger after it
// ("INFO [2018-02-02 13:04:35,391] jepsen worker 3 - jepsen.util 3<TAB>:invoke ..."):
// the logger's name is then part of the prefix.
std::size_t prefix_length(std::string_view line) {
  if (looks_like_jepsen_log_event(line)) return 0;
  const std::size_t dash = line.find(" - ");
  if (dash == std::string_view::npos) return 0;
  constexpr std::string_view kUtilLogger = "jepsen.util ";
  if (line.substr(dash + 3).starts_with(kUtilLogger)) return dash + 3 + kUtilLogger.size();
  return dash + 3;
}

// Whether a prefix is jepsen.util's, in either layout.
bool is_util_prefix(std::string_view prefix) {
  return prefix.ends_with("jepsen.util - ") || prefix.ends_with(" - jepsen.util ");
}

// In a log of bare lines, a line without a log prefix is a history line unless it
// starts with a word (`lein test ...`, `Ran 1 tests`): a process is an integer, a
// keyword or some other EDN value, so a line that starts like one and does not parse
// is a damaged event, reported as an error, not skipped.
bool could_be_an_event(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  if (i == line.size()) return false;
  const char c = line[i];
  return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

// Digits as '0': two log prefixes of the same logger differ only in their times.
std::string shape_of(std::string_view text) {
  std::string shape(text);
  for (char& c : shape) {
    if (c >= '1' && c <= '9') c = '0';
  }
  return shape;
}

// Whether `text` is what is left of an event cut short: a process token, then
// nothing or a cut :type (":", ":inv", ":ok").
bool looks_like_cut_event(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && is_space(text[i])) ++i;
  if (i == text.size() || !could_be_an_event(text.substr(i))) return false;
  while (i < text.size() && !is_space(text[i])) ++i;
  while (i < text.size() && is_space(text[i])) ++i;
  if (i == text.size()) return true;
  if (text[i] != ':') return false;
  const std::string_view type = text.substr(i + 1);
  for (const std::string_view name : {"invoke", "ok", "fail", "info"}) {
    if (name.starts_with(type)) return true;
  }
  return false;
}

// The file's last line, unterminated and no history line as it stands, is a history
// line cut short when it is the start of a log prefix such as "INFO  jepsen.util - "
// (the last one seen, or jepsen.util's own), or a prefix followed by the start of an
// event. Skipping it would check a history without its last event without a word.
bool is_cut_history_line(std::string_view line, std::string_view util_prefix) {
  if (line.empty()) return false;
  const std::string shape = shape_of(line);
  for (const std::string_view prefix : {util_prefix, std::string_view("INFO  jepsen.util - ")}) {
    if (!prefix.empty() && shape.size() < prefix.size() && shape_of(prefix).starts_with(shape)) return true;
  }
  const std::size_t dash = line.find(" - ");
  return dash != std::string_view::npos && looks_like_cut_event(line.substr(dash + 3));
}

Event parse_line(edn::Reader& reader, const std::string& source) {
  if (reader.at_end()) {
    reader.fail(reader.position(), "expected an event '<process> :<type> :<f> <value>', found end of line");
  }
  Event event;
  event.pos = reader.position();
  event.process = reader.read();
  const bool client = event.process.is_integer();

  if (reader.at_end()) {
    reader.fail(reader.position(),
                "expected :type (:invoke, :ok, :fail or :info) after the process, found end of line");
  }
  const SourcePos type_pos = reader.position();
  event.type = event_type_from_edn(reader.read(), type_pos, source);

  if (reader.at_end()) {
    if (client) reader.fail(reader.position(), "expected the operation :f after :type, found end of line");
    return event;
  }
  const SourcePos f_pos = reader.position();
  event.f = operation_name_from_edn(reader.read(), client, f_pos, source);

  // Jepsen appends error annotations (":conn-not-ready", "[:psql-exception ...]")
  // after the value; they are not part of the history.
  if (!reader.at_end()) event.value = reader.read();
  return event;
}

}  // namespace

bool looks_like_jepsen_log_event(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  if (i == line.size() || std::string_view("{[(#\";").find(line[i]) != std::string_view::npos) return false;
  while (i < line.size() && !is_space(line[i]) && line[i] != '\n') ++i;
  const std::size_t token_end = i;
  while (i < line.size() && is_space(line[i])) ++i;
  if (i == token_end || i == line.size() || line[i] != ':') return false;
  const std::size_t name_begin = ++i;
  while (i < line.size() && !is_space(line[i]) && line[i] != '\n') ++i;
  const std::string_view name = line.substr(name_begin, i - name_begin);
  return name == "invoke" || name == "ok" || name == "fail" || name == "info";
}

bool looks_like_jepsen_console_start(std::string_view line) {
  while (!line.empty() && is_space(line.front())) line.remove_prefix(1);
  if (line.starts_with("lein ") || line.starts_with("$ lein ")) return true;
  for (const std::string_view level : {"INFO ", "WARN ", "ERROR ", "DEBUG ", "TRACE "}) {
    if (line.starts_with(level) && line.find(" - ") != std::string_view::npos) return true;
  }
  return false;
}

JepsenLogLines::JepsenLogLines(std::string source, const ReadPlan& plan)
    : source_(std::move(source)), plan_(plan), reader_({}, source_, {1, 1}, "end of line") {
  reader_.watch_memory(plan.limits);
}

void JepsenLogLines::read(std::string_view text, std::uint32_t first_line, EventSink& sink) {
  std::uint32_t line_number = first_line - 1;
  std::size_t at = 0;
  // A byte-order mark is invisible in editors, so columns count from after it.
  const std::size_t bom = first_line == 1 && text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (at < text.size()) {
    const std::size_t end = find_line_end(text, at, plan_.limits);
    ++line_number;
    std::string_view line = text.substr(at, end - at);
    if (line_number == 1) line.remove_prefix(bom);
    at = end + 1;
    if (is_blank(line) || is_comment(line)) continue;
    if (first_content_line_) console_ = looks_like_jepsen_console_start(line);
    first_content_line_ = false;
    const std::size_t prefix = prefix_length(line);
    const bool util_line = prefix > 0 && is_util_prefix(line.substr(0, prefix));
    if (util_line) console_ = true;
    const bool history_line = console_      ? util_line
                              : prefix == 0 ? could_be_an_event(line)
                                            : looks_like_jepsen_log_event(line.substr(prefix));
    if (util_line) util_prefix_ = line.substr(0, prefix);
    if (!history_line) {
      // A file cut while it was written ends inside a line (no line break after it).
      if (end == text.size() && is_cut_history_line(line, util_prefix_)) {
        throw InputError(source_, {line_number, 1},
                         "the file ends inside this line, which starts like a history line: '" +
                             shorten(std::string(line)) + "' (was the log cut short?)");
      }
      if (skipped_++ == 0) first_skipped_ = line_number;
      continue;
    }
    const SourcePos start{line_number, static_cast<std::uint32_t>(prefix + 1)};
    if (plan_.fast && fast_.read_log_line(line.substr(prefix), start, event_) == FlatOpMapReader::Line::event) {
      sink.add(std::move(event_));
      sink.passed(at);
      continue;
    }
    reader_.restart(line.substr(prefix), start);
    sink.add(parse_line(reader_, source_));
    sink.passed(at);
  }
}

void JepsenLogLines::finish(EventSink& sink) {
  if (skipped_ > 0) {
    sink.warn({{first_skipped_, 1},
               std::to_string(skipped_) +
                   (skipped_ == 1 ? " line is not a history line" : " lines are not history lines") +
                   " (no event, no jepsen.util prefix) and " + (skipped_ == 1 ? "was" : "were") +
                   " skipped, this the first"});
  }
}

void read_jepsen_log(std::string_view text, const std::string& source, EventSink& sink, const ReadPlan& plan) {
  JepsenLogLines lines(source, plan);
  lines.read(text, 1, sink);
  lines.finish(sink);
}

}  // namespace ariadne
