// Transcripts of readings (read_transcript.hpp). Values are written as EDN, which
// tells every kind apart (a vector from a list, a keyword from a string), so equal
// transcripts mean equal events, not merely events that compare equal.
#include "history/read_transcript.hpp"

#include <ariadne/errors.hpp>

namespace ariadne {

namespace {

const char* type_name(EventType type) {
  switch (type) {
    case EventType::invoke: return "invoke";
    case EventType::ok: return "ok";
    case EventType::fail: return "fail";
    case EventType::info: return "info";
  }
  return "?";
}

std::string at(SourcePos pos) { return std::to_string(pos.line) + ":" + std::to_string(pos.column); }

class TranscriptSink final : public EventSink {
 public:
  explicit TranscriptSink(std::string& out) : out_(out) {}
  void add(Event&& e) override {
    out_ += at(e.pos) + " " + e.process.to_edn() + " " + type_name(e.type) + " f=" + e.f +
            " value=" + e.value.to_edn() + " key=" + e.key.to_edn() +
            " index=" + (e.index ? std::to_string(*e.index) : std::string("-")) +
            " timestamp=" + (e.timestamp ? std::to_string(*e.timestamp) : std::string("-")) + "\n";
  }
  void warn(ReadWarning warning) override { out_ += "warning " + at(warning.pos) + " " + warning.message + "\n"; }

 private:
  std::string& out_;
};

}  // namespace

std::string read_transcript(std::string_view text, const std::string& source, Format format, const ReadPlan& plan) {
  std::string out;
  TranscriptSink sink(out);
  try {
    stream_events(text, source, format, sink, plan);
  } catch (const InputError& error) {
    out += std::string("error ") + error.what() + "\n";
  }
  return out;
}

}  // namespace ariadne
