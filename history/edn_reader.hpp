// An EDN reader (https://github.com/edn-format/edn) producing ariadne::Value, with the
// file position of everything it reads so that every error says line:column.
//
// EDN is the notation of Jepsen and Knossos histories, and the building block of the
// other EDN-shaped readers: the op-map history reader, the Porcupine kv reader (one op
// map per line) and the Jepsen text-log reader (a few EDN values per line). They all
// drive one Reader, which is why it can start at any position of a file and name the
// end of its text ("end of input", "end of line").
//
// The reader is iterative, with its own stack, so deep nesting cannot overflow the C++
// stack; it still stops at kMaxNestingDepth because Value itself is compared, hashed,
// printed and destroyed recursively.
#pragma once

#include <ariadne/errors.hpp>
#include <ariadne/value.hpp>

#include "history/recent_values.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ariadne {
class Limits;
}

namespace ariadne::edn {

// Real histories nest a handful of levels; 1,000 keeps the recursive Value operations
// far inside the stack of any thread, even in sanitizer builds.
inline constexpr std::size_t kMaxNestingDepth = 1000;

class Reader {
 public:
  // Reads `text`, whose first byte sits at `start` in the file `source`. `end_name`
  // is how messages call the end of `text`. `text` must outlive the reader.
  Reader(std::string_view text, std::string source, SourcePos start = {1, 1},
         std::string_view end_name = "end of input");

  // Moves on to another piece of the same file, such as the next line of a log,
  // keeping the keywords interned so far.
  void restart(std::string_view text, SourcePos start);
  // Moves to `offset` of the same text, which sits at `pos` in the file: how a reader
  // that skipped lines on a fast path hands the general reader the line it declined.
  void seek(std::size_t offset, SourcePos pos);
  // The command's limits, for the scans that can run over a whole long string, token
  // or comment (scan_room.hpp); none by default.
  void watch_memory(const Limits* limits) { limits_ = limits; }

  // Skips whitespace, commas, `;` comments and `#_` discarded forms, then tells
  // whether the text is exhausted.
  bool at_end();
  // The position of the next unread byte.
  SourcePos position() const;
  // Its offset in the text the reader was given.
  std::size_t offset() const { return at_; }

  // Reads the next value.
  Value read();
  // If the next form is a keyword, consumes it and returns its name (without the
  // colon; valid while the text is), with the same checks read() makes; otherwise
  // consumes nothing. For op-map keys, which need no Value.
  std::optional<std::string_view> read_keyword_name();

  // Reading one vector, list or map item by item, for history readers that turn each
  // op into an Event as they go rather than building the whole file as one Value.
  struct Collection {
    char closer;
    const char* name;  // "vector", "list" or "map", for messages
    SourcePos open;
  };
  // If the next form opens a collection whose opener is in `openers` ("[({"),
  // consumes the opener and returns the collection.
  std::optional<Collection> open_collection(std::string_view openers);
  // Skips to the collection's next item and tells whether there is one; at the end,
  // the closer is left for close(). Throws when the text ends first.
  bool more_items(const Collection& collection);
  void close(const Collection& collection);

  [[noreturn]] void fail(SourcePos pos, const std::string& message) const;
  // The next token or character quoted for a message ("'12x'", "')'"), or the name of
  // the end of the text.
  std::string describe_next() const;

 private:
  enum class FrameKind : std::uint8_t { vector, list, set, map, tag, discard };
  struct Frame {
    FrameKind kind;
    SourcePos open;
    std::vector<Value> items;
    std::string tag;  // for FrameKind::tag: the tag's name, for messages
  };

  void skip_whitespace();
  void skip_ignorable();
  void advance_line(std::size_t newline_offset);
  char peek_at(std::size_t offset) const { return offset < text_.size() ? text_[offset] : '\0'; }
  std::string_view scan_token();
  static const char* collection_name(FrameKind kind);
  static char closer_of(FrameKind kind);

  Value read_atom(SourcePos start);
  Value read_string(SourcePos start);
  Value read_character(SourcePos start);
  Value read_number(SourcePos start);
  Value read_keyword(SourcePos start);
  Value read_symbolic(SourcePos start);
  Value read_symbol(SourcePos start);

  [[noreturn]] void fail_unterminated(const char* name, char closer, SourcePos open) const;
  [[noreturn]] void fail_wrong_closer(const char* name, char closer, SourcePos open) const;
  void push_frame(std::vector<Frame>& frames, FrameKind kind, SourcePos open, std::string tag = {});
  Value close_frame(std::vector<Frame>& frames, char closer, SourcePos at);
  [[noreturn]] void fail_at_end(const std::vector<Frame>& frames) const;

  std::string_view text_;
  std::string source_;
  std::string_view end_name_;
  const Limits* limits_ = nullptr;
  std::size_t at_ = 0;
  std::uint32_t line_ = 1;
  // Offset of the current line's first byte; negative when the text starts mid-line,
  // so that the column is always at_ - line_start_ + 1.
  std::ptrdiff_t line_start_ = 0;

  // Histories repeat a few keywords (:process, :type, :invoke ...) thousands of times;
  // sharing one Value per name saves an allocation each.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, Value, NameHash, std::equal_to<>> keywords_;
  static constexpr std::size_t kRecentKeywords = 256;
  std::vector<Value> recent_keywords_;  // kRecentKeywords once the first keyword is read
  // Keys and values recur too ("k17", "v3 "), but a history may hold millions of
  // distinct strings, so they share through a small direct-mapped cache rather than
  // an interning table that would grow with the file (recent_values.hpp, the fast
  // paths' cache too: it starts small, so reading a small text stays cheap).
  RecentValues recent_strings_;
};

// "line:column", as messages quote other places ("opened at 3:1").
std::string format_pos(SourcePos pos);

// Decodes the four hex digits of a \uXXXX escape at text[at], joining a following
// \uXXXX low surrogate when the first is a high one, and appends the character as
// UTF-8. EDN and JSON strings share this escape.
struct UnicodeEscape {
  std::size_t length = 0;       // bytes consumed from `at`
  const char* error = nullptr;  // set instead when the escape is malformed
};
UnicodeEscape decode_unicode_escape(std::string_view text, std::size_t at, std::string& out);

// The one value a text holds, nothing after it (parse_edn_value, the C API's values).
Value read_single_value(Reader& reader);

}  // namespace ariadne::edn
