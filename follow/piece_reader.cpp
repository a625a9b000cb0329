#include "follow/piece_reader.hpp"

#include "base/text.hpp"

#include <algorithm>
#include <utility>

namespace ariadne::follow {

namespace {

// Hands events on with their lines counted from the file's start, not the piece's.
class ShiftedSink final : public EventSink {
 public:
  ShiftedSink(EventSink& sink, std::uint32_t lines_before) : sink_(sink), lines_before_(lines_before) {}
  void add(Event&& event) override {
    event.pos.line += lines_before_;
    sink_.add(std::move(event));
  }
  void warn(ReadWarning warning) override {
    if (warning.pos.line != 0) warning.pos.line += lines_before_;
    sink_.warn(std::move(warning));
  }

 private:
  EventSink& sink_;
  std::uint32_t lines_before_;
};

std::uint32_t count_lines(std::string_view piece) {
  const auto breaks = static_cast<std::uint32_t>(std::count(piece.begin(), piece.end(), '\n'));
  return breaks + (piece.empty() || piece.back() == '\n' ? 0 : 1);
}

}  // namespace

PieceReader::PieceReader(std::string source, Format format) : source_(std::move(source)), requested_(format) {
  if (format != Format::auto_detect) format_ = format;
}

void PieceReader::read(std::string_view piece, EventSink& sink) {
  const std::uint32_t lines_before = lines_;
  lines_ += count_lines(piece);
  if (!format_) {
    std::string_view content = piece;
    if (lines_before == 0 && content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3);
    if (base::trim(content).empty()) return;
    format_ = detect_format(content, nullptr);
  }
  if (*format_ == Format::jepsen_log) {
    if (!jepsen_) jepsen_.emplace(source_, ReadPlan{.threads = 1});
    jepsen_->read(piece, lines_before + 1, sink);
    return;
  }
  ShiftedSink shifted(sink, lines_before);
  try {
    stream_events(piece, source_, *format_, shifted, ReadPlan{.threads = 1});
  } catch (const InputError& error) {
    SourcePos pos = error.pos();
    if (pos.line != 0) pos.line += lines_before;
    throw InputError(error.source(), pos, error.message());
  }
}

void PieceReader::finish(EventSink& sink) {
  if (jepsen_) jepsen_->finish(sink);
}

}  // namespace ariadne::follow
