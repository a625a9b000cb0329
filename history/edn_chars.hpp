// EDN's character classes, as one table that every EDN-shaped reader asks: the
// general reader (edn_reader.cpp) and the fast path for flat op maps (flat_op_map.cpp)
// must end a token at the same byte and accept the same names, or the two would read
// one file as two histories.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ariadne::edn {

enum CharClass : std::uint8_t { kWhitespace = 1, kTerminator = 2, kSymbolChar = 4 };

constexpr std::array<std::uint8_t, 256> make_char_classes() {
  std::array<std::uint8_t, 256> classes{};
  for (unsigned char c : std::string_view(" ,\n\t\r\f\v")) classes[c] |= kWhitespace | kTerminator;
  // Clojure's terminating macro characters end a token too.
  for (unsigned char c : std::string_view("\";@^`~()[]{}\\")) classes[c] |= kTerminator;
  // Symbol and keyword constituents; UTF-8 bytes are accepted as Clojure does.
  for (int c = 'a'; c <= 'z'; ++c) classes[c] |= kSymbolChar;
  for (int c = 'A'; c <= 'Z'; ++c) classes[c] |= kSymbolChar;
  for (int c = '0'; c <= '9'; ++c) classes[c] |= kSymbolChar;
  for (int c = 0x80; c <= 0xff; ++c) classes[c] |= kSymbolChar;
  for (unsigned char c : std::string_view(".*+!-_?$%&=<>/:#'")) classes[c] |= kSymbolChar;
  return classes;
}

inline constexpr std::array<std::uint8_t, 256> kCharClasses = make_char_classes();

inline bool is_whitespace(unsigned char c) { return kCharClasses[c] & kWhitespace; }
inline bool is_terminator(unsigned char c) { return kCharClasses[c] & kTerminator; }
inline bool is_symbol_char(unsigned char c) { return kCharClasses[c] & kSymbolChar; }
inline bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

// Whether a keyword's or symbol's name is one EDN allows.
inline bool is_valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (unsigned char c : name) {
    if (!is_symbol_char(c)) return false;
  }
  // A namespace separator needs a name on both sides; "/" alone is a symbol.
  return name == "/" || (name.front() != '/' && name.back() != '/');
}

}  // namespace ariadne::edn
