// Format names, reading history files, and guessing a file's format from its content.
//
// Detection looks only at the start of the text and at line shapes, never parses
// twice, and checks the most distinctive formats first:
//   1. empty or whitespace-only: an empty history (trivially linearizable);
//   2. the first line that is neither blank nor a `;` comment looks like a Jepsen log
//      line (contains " jepsen.util - ", or is `<token> :invoke|:ok|:fail|:info ...`);
//   3. JSON: `{` or `[{` and then a string key followed by ':' as JSON writes it;
//   4. Porcupine kv: every line is one `{...}` map, and the first mentions :key;
//   5. anything else is an EDN history.
// docs/formats.md states the same rules for users.
#include <ariadne/history.hpp>

#include "history/edn_history_reader.hpp"
#include "history/jepsen_log_reader.hpp"
#include "history/json_reader.hpp"
#include "history/porcupine_kv_reader.hpp"

#include <cerrno>
#include <cstdio>
#include <memory>
#include <system_error>

namespace ariadne {

namespace {

struct FormatName {
  Format format;
  std::string_view name;
};

constexpr FormatName kFormatNames[] = {
    {Format::auto_detect, "auto"},          {Format::edn, "edn"},   {Format::jepsen_log, "jepsen-log"},
    {Format::porcupine_kv, "porcupine-kv"}, {Format::json, "json"},
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Calls `visit(trimmed_line)` for each line that is neither blank nor a `;` comment,
// until it returns false.
template <class Visit>
void each_content_line(std::string_view text, Visit visit) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line.front() == ';') continue;
    if (!visit(line)) return;
  }
}

bool looks_like_jepsen_log(std::string_view text) {
  bool log = false;
  each_content_line(text, [&](std::string_view line) {
    log = line.find(" jepsen.util - ") != std::string_view::npos || looks_like_jepsen_log_event(line);
    return false;
  });
  return log;
}

// `{"key":` or `[{"key" :` ... A string followed by ':' is JSON when the colon touches
// the string or is followed by whitespace; in EDN, `"a" :b` is a string and a keyword.
bool looks_like_json(std::string_view text) {
  std::size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && is_space(text[i])) ++i;
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
  return i + 1 < text.size() && text[i] == ':' && is_space(text[i + 1]);
}

bool looks_like_porcupine_kv(std::string_view text) {
  bool first = true;
  bool kv = true;
  each_content_line(text, [&](std::string_view line) {
    if (line.front() != '{' || line.back() != '}') {
      kv = false;
    } else if (first) {
      // The keyword :key itself, not :keys or :key-count.
      const std::size_t key = line.find(":key");
      const char after = key == std::string_view::npos ? 'x' : line[key + 4];  // the line ends in '}'
      kv = std::string_view(" \t,\"}").find(after) != std::string_view::npos;
    }
    first = false;
    return kv;
  });
  return kv && !first;
}

Format detect_format(std::string_view text) {
  if (looks_like_jepsen_log(text)) return Format::jepsen_log;
  if (looks_like_json(text)) return Format::json;
  if (looks_like_porcupine_kv(text)) return Format::porcupine_kv;
  return Format::edn;
}

std::string read_file(const std::string& path) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw InputError(path, {}, "cannot open file: " + std::generic_category().message(errno));
  std::string content;
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) content.append(buffer, n);
  if (std::ferror(file.get())) {
    throw InputError(path, {}, "cannot read file: " + std::generic_category().message(errno));
  }
  return content;
}

}  // namespace

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

EventLog parse_events(std::string_view text, const std::string& source, Format format) {
  if (format == Format::auto_detect) {
    // Every reader skips a leading byte-order mark; so does detection.
    std::string_view content = text;
    if (content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3);
    if (trim(content).empty()) return EventLog{source, {}};
    format = detect_format(content);
  }
  switch (format) {
    case Format::jepsen_log: return parse_jepsen_log(text, source);
    case Format::porcupine_kv: return parse_porcupine_kv(text, source);
    case Format::json: return parse_json_history(text, source);
    case Format::edn:
    case Format::auto_detect: break;
  }
  return parse_edn_history(text, source);
}

EventLog read_events(const std::string& path, Format format) {
  return parse_events(read_file(path), path, format);
}

}  // namespace ariadne
