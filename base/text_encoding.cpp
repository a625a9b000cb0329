// UTF-8 validation, JSON quoting and shortening; see text_encoding.hpp.
#include "base/text_encoding.hpp"

namespace ariadne {

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

std::string json_quote(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20) {
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += "\\ufffd";  // a stray byte: keep the output valid UTF-8
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  out += '"';
  return out;
}

std::size_t first_invalid_utf8(std::string_view text, std::size_t from) {
  for (std::size_t i = from; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) return i;
    i += length;
  }
  return text.size();
}

std::string replace_invalid_utf8(std::string text) {
  std::size_t at = first_invalid_utf8(text);
  if (at == text.size()) return text;
  std::string out = text.substr(0, at);
  while (at < text.size()) {
    out += "\uFFFD";
    const std::size_t next = first_invalid_utf8(text, at + 1);
    out.append(text, at + 1, next - at - 1);
    at = next;
  }
  return out;
}

std::string shorten(std::string text, std::size_t limit) {
  static constexpr std::string_view kEllipsis = "\u2026";
  if (text.size() <= limit || limit < 2 * kEllipsis.size()) return text;
  const auto is_continuation_byte = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
  std::size_t head = (limit - kEllipsis.size()) / 2;
  std::size_t tail = text.size() - (limit - kEllipsis.size() - head);
  while (head > 0 && is_continuation_byte(text[head])) --head;
  while (tail < text.size() && is_continuation_byte(text[tail])) ++tail;
  return text.substr(0, head) + std::string(kEllipsis) + text.substr(tail);
}

}  // namespace ariadne
