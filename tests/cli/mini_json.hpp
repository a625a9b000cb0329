// A minimal JSON parser for checking the command line's --json output. It is strict
// (no trailing commas, duplicate keys, raw control characters or leading zeros), so a
// test that parses a report also shows the report is well-formed JSON.
#pragma once

#include <cctype>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ariadne::cli_test {

// A parsed JSON value. Numbers are doubles, which is exact for the integers the
// reports carry.
struct Json {
  enum class Type { null, boolean, number, string, array, object } type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  bool has(const std::string& key) const { return object.count(key) > 0; }
  const Json& operator[](const std::string& key) const {
    const auto it = object.find(key);
    if (it == object.end()) throw std::runtime_error("no key " + key);
    return it->second;
  }
  std::vector<long long> integers() const {
    std::vector<long long> out;
    for (const auto& element : array) out.push_back(static_cast<long long>(element.number));
    return out;
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : text_(text) {}

  // The single value `text` holds (surrounding whitespace allowed); throws otherwise.
  Json parse_document() {
    Json value = parse_value();
    skip_space();
    if (at_ != text_.size()) fail("trailing text");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("bad JSON at " + std::to_string(at_) + ": " + what);
  }
  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t' || text_[at_] == '\r'))
      ++at_;
  }
  bool consume(const std::string& word) {
    if (text_.compare(at_, word.size(), word) != 0) return false;
    at_ += word.size();
    return true;
  }
  void expect(char c) {
    skip_space();
    if (at_ >= text_.size() || text_[at_] != c) fail(std::string("expected ") + c);
    ++at_;
  }

  Json parse_value() {
    skip_space();
    if (at_ >= text_.size()) fail("unexpected end");
    Json value;
    const char c = text_[at_];
    if (c == '{') {
      value.type = Json::Type::object;
      ++at_;
      skip_space();
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return value;
      }
      while (true) {
        skip_space();
        const std::string key = parse_string();
        if (value.object.count(key) != 0) fail("duplicate key " + key);
        expect(':');
        value.object[key] = parse_value();
        skip_space();
        if (at_ < text_.size() && text_[at_] == ',') {
          ++at_;
          continue;
        }
        expect('}');
        return value;
      }
    }
    if (c == '[') {
      value.type = Json::Type::array;
      ++at_;
      skip_space();
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return value;
      }
      while (true) {
        value.array.push_back(parse_value());
        skip_space();
        if (at_ < text_.size() && text_[at_] == ',') {
          ++at_;
          continue;
        }
        expect(']');
        return value;
      }
    }
    if (c == '"') {
      value.type = Json::Type::string;
      value.string = parse_string();
      return value;
    }
    if (consume("true")) {
      value.type = Json::Type::boolean;
      value.boolean = true;
      return value;
    }
    if (consume("false")) {
      value.type = Json::Type::boolean;
      return value;
    }
    if (consume("null")) return value;
    return parse_number();
  }

  std::string parse_string() {
    if (at_ >= text_.size() || text_[at_] != '"') fail("expected string");
    ++at_;
    std::string out;
    while (true) {
      if (at_ >= text_.size()) fail("unterminated string");
      const char c = text_[at_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("raw control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= text_.size()) fail("unterminated escape");
      const char e = text_[at_++];
      switch (e) {
        case '"':
        case '\\':
        case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u':
          if (at_ + 4 > text_.size()) fail("short \\u escape");
          for (int k = 0; k < 4; ++k) {
            if (!std::isxdigit(static_cast<unsigned char>(text_[at_ + k]))) fail("bad \\u escape");
          }
          at_ += 4;
          out += '?';  // the tests never compare escaped code points
          break;
        default: fail("bad escape");
      }
    }
  }

  Json parse_number() {
    const std::size_t start = at_;
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    const std::size_t digits = at_;
    while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
    if (at_ == digits) fail("expected a value");
    if (text_[digits] == '0' && at_ - digits > 1) fail("leading zero");
    if (at_ < text_.size() && text_[at_] == '.') {
      const std::size_t fraction = ++at_;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
      if (at_ == fraction) fail("empty fraction");
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      const std::size_t exponent = at_;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
      if (at_ == exponent) fail("empty exponent");
    }
    Json value;
    value.type = Json::Type::number;
    value.number = std::strtod(text_.substr(start, at_ - start).c_str(), nullptr);
    return value;
  }

  const std::string& text_;
  std::size_t at_ = 0;
};

inline Json parse_json(const std::string& text) { return JsonParser(text).parse_document(); }

}  // namespace ariadne::cli_test
