// Format names, reading history files, and guessing a file's format from its content.
//
// Detection looks only at the start of the text and at line shapes, never parses
// twice, and checks the most distinctive formats first:
//   1. empty or whitespace-only: no events (read_history() refuses a file without a
//      single event);
//   1a. a fastlin history: the first line is a `#` comment and the first line that is
//      no comment reads `word integer integer integer`;
//   1b. a Violin or LiMo log: a `# @object` line among the leading `#` comments, or
//      the first other line is `[digits] call` or `[digits] return`;
//   2. the first line that is neither blank nor a `;` comment looks like a Jepsen log
//      line (contains " jepsen.util - ", or is `<token> :invoke|:ok|:fail|:info ...`),
//      or, for a raw console log, is `lein ...` or another logger's line (`INFO  x -
//      ...`), or does not start like EDN or JSON and one of the first 100,000 such
//      lines looks like a Jepsen log line;
//   3. JSON: `{` or `[{` and then a string key followed by ':' as JSON writes it;
//   4. Porcupine kv: each of the first 1,000 content lines is one `{...}` map, and the
//      first mentions :key (the reader then holds every line to it);
//   5. anything else is an EDN history.
// docs/formats.md states the same rules for users.
#include <ariadne/history.hpp>

#include "base/text.hpp"
#include "history/event_sink.hpp"
#include "history/fastlin_reader.hpp"
#include "history/history_builder.hpp"
#include "history/jepsen_log_reader.hpp"
#include "history/mapped_file.hpp"
#include "history/scan_room.hpp"
#include "history/timestamp_order.hpp"
#include "history/violin_log_reader.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

namespace ariadne {

namespace {

struct FormatName {
  Format format;
  std::string_view name;
};

constexpr FormatName kFormatNames[] = {
    {Format::auto_detect, "auto"},          {Format::edn, "edn"},   {Format::jepsen_log, "jepsen-log"},
    {Format::porcupine_kv, "porcupine-kv"}, {Format::json, "json"}, {Format::violin_log, "violin-log"},
    {Format::fastlin, "fastlin"},
};

// Calls `visit(trimmed_line)` for each line that is neither blank nor a `;` comment,
// until it returns false.
template <class Visit>
void each_content_line(std::string_view text, const Limits* limits, Visit visit) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = find_line_end(text, at, limits);
    const std::string_view line = base::trim(text.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line.front() == ';') continue;
    if (!visit(line)) return;
  }
}

// A raw console log starts with other loggers' lines (`lein test ...`, `INFO
// jepsen.os.debian - ...`): its first history line may come after thousands, so up to
// this many content lines are looked at, as long as none starts like EDN or JSON.
constexpr std::size_t kConsoleLinesLooked = 100000;

bool looks_like_jepsen_log(std::string_view text, const Limits* limits) {
  bool log = false;
  std::size_t looked = 0;
  each_content_line(text, limits, [&](std::string_view line) {
    if (looked++ == 0 && std::string_view("{[(\"#").find(line.front()) != std::string_view::npos) return false;
    if (looked == 1 && looks_like_jepsen_console_start(line)) {
      log = true;
      return false;
    }
    log = line.find(" jepsen.util - ") != std::string_view::npos || looks_like_jepsen_log_event(line);
    return !log && looked < kConsoleLinesLooked;
  });
  return log;
}

// `{"key":` or `[{"key" :` ... A string followed by ':' is JSON when the colon touches
// the string or is followed by whitespace; in EDN, `"a" :b` is a string and a keyword.
bool looks_like_json(std::string_view text) {
  std::size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && base::is_space(text[i])) ++i;
  };
  skip();
  if (i < text.size() && text[i] == '[') {
    ++i;
    skip();
  }
  if (i >= text.size() || text[i] != '{') return false;
  ++i;
  skip();
  if (i >= text.size() || text[i] != '"') return false;
  for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i) {
    if (text[i] == '\\') ++i;
  }
  if (i >= text.size() || text[i] != '"') return false;
  ++i;
  if (i < text.size() && text[i] == ':') return true;
  skip();
  return i + 1 < text.size() && text[i] == ':' && base::is_space(text[i + 1]);
}

// Looking at a prefix keeps detection from reading a gigabyte file twice.
constexpr std::size_t kPorcupineLinesLooked = 1000;

bool looks_like_porcupine_kv(std::string_view text, const Limits* limits) {
  bool first = true;
  bool kv = true;
  std::size_t looked = 0;
  each_content_line(text, limits, [&](std::string_view line) {
    if (line.front() != '{' || line.back() != '}') {
      kv = false;
    } else if (first) {
      // The keyword :key itself, not :keys or :key-count.
      const std::size_t key = line.find(":key");
      const char after = key == std::string_view::npos ? 'x' : line[key + 4];  // the line ends in '}'
      kv = std::string_view(" \t,\"}").find(after) != std::string_view::npos;
    }
    first = false;
    return kv && ++looked < kPorcupineLinesLooked;
  });
  return kv && !first;
}

}  // namespace

Format detect_format(std::string_view text, const Limits* limits) {
  if (looks_like_fastlin_history(text)) return Format::fastlin;
  if (looks_like_violin_log(text)) return Format::violin_log;
  if (looks_like_jepsen_log(text, limits)) return Format::jepsen_log;
  if (looks_like_json(text)) return Format::json;
  if (looks_like_porcupine_kv(text, limits)) return Format::porcupine_kv;
  return Format::edn;
}

std::optional<Format> parse_format(std::string_view name) {
  for (const auto& entry : kFormatNames) {
    if (entry.name == name) return entry.format;
  }
  return std::nullopt;
}

std::string_view format_name(Format format) {
  for (const auto& entry : kFormatNames) {
    if (entry.format == format) return entry.name;
  }
  return "unknown";
}

void stream_events(std::string_view text, const std::string& source, Format format, EventSink& sink,
                   const ReadPlan& plan) {
  if (format == Format::auto_detect) {
    // Every reader skips a leading byte-order mark; so does detection.
    std::string_view content = text;
    if (content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3);
    if (base::trim(content).empty()) return;
    format = detect_format(content, plan.limits);
  }
  switch (format) {
    case Format::jepsen_log: return read_jepsen_log(text, source, sink, plan);
    case Format::porcupine_kv: return read_porcupine_kv(text, source, sink, plan);
    case Format::json: return read_json_history(text, source, sink, plan);
    case Format::violin_log: return read_violin_log(text, source, sink, plan);
    case Format::fastlin: return read_fastlin_history(text, source, sink, plan);
    case Format::edn:
    case Format::auto_detect: break;
  }
  read_edn_history(text, source, sink, plan);
}

namespace {

// The format `text` is in: `format`, or the one detection finds; auto_detect still
// for text without a byte of content, which stream_events() reads as no events.
Format resolved_format(std::string_view text, Format format) {
  if (format != Format::auto_detect) return format;
  std::string_view content = text;
  if (content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3);
  return base::trim(content).empty() ? Format::auto_detect : detect_format(content, nullptr);
}

// The model the header of `text`, in `format` (resolved), names.
std::optional<std::string> model_hint_in(std::string_view text, const std::string& source, Format format) {
  switch (format) {
    case Format::violin_log: return violin_log_model(text, source);
    case Format::fastlin: return fastlin_model(text, source);
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<std::string> parse_model_hint(std::string_view text, const std::string& source, Format format) {
  return model_hint_in(text, source, resolved_format(text, format));
}

EventLog parse_events(std::string_view text, const std::string& source, Format format) {
  EventLog log;
  log.source = source;
  // Detected once, for the header and for the reading.
  const Format resolved = resolved_format(text, format);
  log.model_hint = model_hint_in(text, source, resolved);
  EventCollector collector(log);
  TimestampOrder ordered(collector, source);
  stream_events(text, source, resolved, ordered);
  ordered.finish();
  return log;
}

namespace {

// Runs `read` over a file's text, then makes sure the text was the file's: a file cut
// short while mapped reads as zeros past its new end, which can make any error, or
// none. The truncation is then the error to report, whatever the reader said.
template <class Read>
auto read_checked(const MappedFile& file, Read read) {
  try {
    auto result = read();
    file.check_unchanged();
    return result;
  } catch (const InputError&) {
    file.check_unchanged();
    throw;
  }
}

}  // namespace

EventLog read_events(const std::string& path, Format format) {
  const std::string file_path = history_file_in(path);
  const MappedFile file(file_path);
  return read_checked(file, [&] { return parse_events(file.text(), file_path, format); });
}

std::optional<std::string> read_model_hint(const std::string& path, Format format) {
  const std::string file_path = history_file_in(path);
  const MappedFile file(file_path);
  return read_checked(file, [&] { return parse_model_hint(file.text(), file_path, format); });
}

namespace {

std::size_t count_byte(std::string_view text, char byte) {
  std::size_t count = 0;
  for (const char* p = text.data();
       (p = static_cast<const char*>(std::memchr(p, byte, text.size() - (p - text.data())))); ++p) {
    ++count;
  }
  return count;
}

std::size_t count_newlines(std::string_view text) { return count_byte(text, '\n'); }

// How many events `text` can hold at most: a line format spends a line or more on
// each event, and a JSON history written on one line (json.dump, json.Marshal) an
// object, opened by a '{', so the larger of the two counts bounds them.
std::size_t event_bound(std::string_view text) { return std::max(count_newlines(text), count_byte(text, '{')); }

// Room to reserve for the operations, from event_bound(). A small file is counted; a
// large one is sampled (32 windows of 64 KiB), since counting it all would touch
// every page of the mapping before the readers start, a tenth of a second for 137 MB
// here. The sampled estimate is padded by half: what is reserved and not used is
// address space, never resident, and an estimate that falls short only costs the
// vector one reallocation. The samples of a mapped file are read, not mapped (see
// MappedFile::read_at).
std::size_t expected_events(std::string_view text, const MappedFile* file) {
  constexpr std::size_t kCountedBelow = std::size_t{8} << 20;
  constexpr std::size_t kWindows = 32;
  constexpr std::size_t kWindow = std::size_t{64} << 10;
  if (text.size() < kCountedBelow) return event_bound(text) + 1;
  std::size_t events = 0;
  const std::size_t stride = (text.size() - kWindow) / (kWindows - 1);
  std::string buffer;
  for (std::size_t i = 0; i < kWindows; ++i) {
    events += event_bound(file ? file->read_at(i * stride, kWindow, buffer) : text.substr(i * stride, kWindow));
  }
  const double per_byte = static_cast<double>(events) / static_cast<double>(kWindows * kWindow);
  return static_cast<std::size_t>(per_byte * static_cast<double>(text.size()) * 1.5) + 1024;
}

// Where `text` ends, as a line and column: where an event was looked for last.
SourcePos end_of(std::string_view text) {
  const std::size_t last_break = text.rfind('\n');
  const std::size_t line_start = last_break == std::string_view::npos ? 0 : last_break + 1;
  return {static_cast<std::uint32_t>(count_newlines(text) + 1),
          static_cast<std::uint32_t>(text.size() - line_start + 1)};
}

// Pairs events as they are read and hands the file's pages back behind the reader,
// so a large file is never resident whole beside the history built from it.
class StreamingBuild final : public EventSink {
 public:
  StreamingBuild(HistoryBuilder& builder, MappedFile* file, const Limits* limits)
      : builder_(builder), file_(file), limits_(limits) {}
  void add(Event&& event) override {
    // A clock read every few thousand events: microseconds apart at any reading speed.
    if (limits_ && (++events_ & (kPollEvery - 1)) == 0) {
      stop_at_limits(*limits_);
    }
    builder_.add(std::move(event));
  }
  void warn(ReadWarning warning) override { builder_.warn(std::move(warning)); }
  void passed(std::size_t offset) override {
    if (file_ && offset >= released_ + kReleaseEvery) {
      file_->release_before(offset);
      released_ = offset;
    }
    // Few events of large values (one string of 100 MB) pass no event count: the
    // bytes read count too.
    if (limits_ && offset >= polled_at_ + kPollEveryBytes) {
      polled_at_ = offset;
      stop_at_limits(*limits_);
    }
  }

  // Throws LimitReached when a limit is reached now, or was reached at any time before
  // (the memory watch withdraws its verdict once the process is back under the limit,
  // but the report names the limit all the same): a limit reached while reading stops
  // the reading, so that it never stands beside a verdict the reading went on to give.
  static void stop_at_limits(const Limits& limits) {
    Limit limit = limits.reached();
    if (limit == Limit::none) limit = limits.first_reached();
    if (limit != Limit::none) throw LimitReached(limit, limits.describe(limit));
  }

 private:
  static constexpr std::size_t kReleaseEvery = 16u << 20;
  static constexpr std::size_t kPollEvery = 4096;
  static constexpr std::size_t kPollEveryBytes = 1u << 20;
  HistoryBuilder& builder_;
  MappedFile* file_;
  const Limits* limits_;
  std::size_t released_ = 0;
  std::size_t polled_at_ = 0;
  std::size_t events_ = 0;
};

History build_streaming(std::string_view text, const std::string& source, const Model& model, Format format,
                        MappedFile* file, const Limits* limits = nullptr,
                        const std::function<bool(const Operation&)>* keep = nullptr) {
  // A filtered read keeps a part of the operations: reserving for all of them would
  // only be address space, but no use either.
  HistoryBuilder builder(source, model, keep ? 0 : expected_events(text, file));
  if (keep) builder.keep_only(*keep);
  StreamingBuild build(builder, file, limits);
  TimestampOrder sink(build, source);
  ReadPlan plan;
  plan.limits = limits;
  // The command's jobs bound the reading threads and the vetting's; without limits,
  // the CPUs the process may run on.
  if (limits) {
    plan.threads = limits->jobs();
    builder.use_jobs(limits->jobs());
  }
  stream_events(text, source, format, sink, plan);
  sink.finish();
  if (limits) StreamingBuild::stop_at_limits(*limits);
  // A key shard holding none of the file's operations is no empty history: the file
  // has some, which require_events() counts.
  builder.require_events(end_of(text), "the end of the file");
  return std::move(builder).finish();
}

}  // namespace

History parse_history(std::string_view text, const std::string& source, const Model& model, Format format) {
  return build_streaming(text, source, model, format, nullptr);
}

namespace {

History read_file(const std::string& path, const Model& model, Format format, const Limits* limits,
                  const std::function<bool(const Operation&)>* keep) {
  const std::string file_path = history_file_in(path);
  MappedFile file(file_path, limits);
  return read_checked(file,
                      [&] { return build_streaming(file.text(), file_path, model, format, &file, limits, keep); });
}

}  // namespace

History read_history(const std::string& path, const Model& model, Format format) {
  return read_file(path, model, format, nullptr, nullptr);
}

History read_history(const std::string& path, const Model& model, Format format, const Limits& limits) {
  return read_file(path, model, format, &limits, nullptr);
}

History read_history(const std::string& path, const Model& model, Format format, const Limits& limits,
                     const std::function<bool(const Operation&)>& keep) {
  return read_file(path, model, format, &limits, &keep);
}

}  // namespace ariadne
