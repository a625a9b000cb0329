// JSON text for the --json reports. See json_writer.hpp for why this is hand-written.
#include "answer/json_writer.hpp"

#include <ariadne/value.hpp>

#include <charconv>
#include <cmath>

namespace ariadne::answer {

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!container_has_elements_.empty()) {
    if (container_has_elements_.back()) out_ += ", ";
    container_has_elements_.back() = true;
  }
}

JsonWriter& JsonWriter::open(char bracket) {
  separate();
  out_ += bracket;
  container_has_elements_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  out_ += bracket;
  container_has_elements_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  out_ += Value::string(std::string(name)).to_json();
  out_ += ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  separate();
  out_ += Value::string(std::string(text)).to_json();
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t i) {
  separate();
  out_ += std::to_string(i);
  return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t u) {
  separate();
  out_ += std::to_string(u);
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  if (!std::isfinite(d)) return null();  // JSON has no NaN or infinity
  separate();
  char buffer[64];
  // Shortest text that reads back as the same double; always valid JSON.
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, d);
  out_.append(buffer, result.ptr);
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace ariadne::answer
