// The EDN op-map writer. Values print through Value::to_edn, which the EDN reader
// reads back exactly (strings are escaped, doubles keep 17 significant digits); this
// file only decides which fields appear and how :f is spelled.
#include "history/edn_writer.hpp"

namespace ariadne {

namespace {

std::string_view type_keyword(EventType type) {
  switch (type) {
    case EventType::invoke: return ":invoke";
    case EventType::ok: return ":ok";
    case EventType::fail: return ":fail";
    case EventType::info: return ":info";
  }
  return ":info";
}

// Whether `name` can be written as a keyword and read back as the same name. This is
// deliberately narrower than what the reader accepts: a name starting with a letter
// and using only plain ASCII constituents is a keyword in every EDN reader, so files
// we write stay portable. Anything else (spaces, a leading digit, a slash) is written
// as a string, which the reader also accepts for :f.
bool is_portable_keyword_name(std::string_view name) {
  if (name.empty()) return false;
  const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!is_letter(name.front())) return false;
  for (const char c : name) {
    const bool digit = c >= '0' && c <= '9';
    if (!is_letter(c) && !digit && std::string_view("*+!-_?=<>.").find(c) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string format_edn_event(const Event& event) {
  std::string out = "{:process ";
  out += event.process.to_edn();
  out += ", :type ";
  out += type_keyword(event.type);
  // A client event always has a name; a nemesis event read without :f has an empty
  // one, and writing :f "" would change what the reader sees for it.
  if (!event.f.empty() || event.process.is_integer()) {
    out += ", :f ";
    out += is_portable_keyword_name(event.f) ? ":" + event.f : Value::string(event.f).to_edn();
  }
  if (!event.key.is_nil()) {
    out += ", :key ";
    out += event.key.to_edn();
  }
  out += ", :value ";
  out += event.value.to_edn();
  if (event.index) {
    out += ", :index ";
    out += std::to_string(*event.index);
  }
  if (event.timestamp) {
    out += ", :timestamp ";
    out += std::to_string(*event.timestamp);
  }
  out += '}';
  return out;
}

std::string format_edn_events(const EventLog& log) {
  std::string out;
  for (const Event& event : log.events) {
    out += format_edn_event(event);
    out += '\n';
  }
  return out;
}

}  // namespace ariadne
