// A small streaming JSON writer for the --json reports. The reports are flat and
// few, so a writer that appends text is all we need; it keeps the command line free
// of a JSON dependency. Strings are escaped per RFC 8259 and forced to valid UTF-8
// (file names and history values may hold arbitrary bytes), and non-finite numbers
// become null, so the output always parses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::answer {

class JsonWriter {
 public:
  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  // Inside an object, every value is preceded by its key.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(bool b);
  JsonWriter& value(std::int64_t i);
  JsonWriter& value(std::uint64_t u);
  JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
  JsonWriter& value(unsigned u) { return value(static_cast<std::uint64_t>(u)); }
  JsonWriter& value(double d);
  JsonWriter& null();

  // Shorthand for key(name).value(v).
  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }

  const std::string& text() const { return out_; }

 private:
  // Writes the separator a new element needs: ", " between siblings, nothing after
  // a key or at the start of a container.
  void separate();
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);

  std::string out_;
  std::vector<bool> container_has_elements_;
  bool after_key_ = false;
};

}  // namespace ariadne::answer
