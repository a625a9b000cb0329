// Drawing is throttled: a corpus of small files finishes rows faster than a terminal
// can usefully repaint, and every repaint costs a write to stderr under the lock.
// The file shown is the oldest still running, since that is the one a user waiting
// on a slow row wants to see.
#include "cli/progress_bar.hpp"

#include "answer/terminal.hpp"

#include <algorithm>

namespace ariadne::cli {

using answer::display_width;
using answer::terminal_width;

namespace {
constexpr auto kRedrawInterval = std::chrono::milliseconds(50);
constexpr std::size_t kBarWidth = 24;

// The last `width` display columns of `text`, with a leading ellipsis when cut: the
// end of a path names the file.
std::string tail(const std::string& text, std::size_t width) {
  if (display_width(text) <= width) return text;
  if (width < 2) return "";
  std::size_t start = text.size();
  std::size_t columns = 0;
  while (start > 0 && columns < width - 1) {
    --start;
    if ((static_cast<unsigned char>(text[start]) & 0xC0) != 0x80) ++columns;
  }
  return "\u2026" + text.substr(start);
}
}  // namespace

ProgressBar::ProgressBar(std::FILE* out, std::size_t total, bool enabled)
    : out_(out), total_(total), enabled_(enabled) {}

ProgressBar::~ProgressBar() { erase(); }

void ProgressBar::started(const std::string& name) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  running_.push_back(name);
  draw(false);
}

void ProgressBar::finished(const std::string& name, bool matched) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  ++done_;
  if (!matched) ++mismatches_;
  if (const auto it = std::find(running_.begin(), running_.end(), name); it != running_.end()) running_.erase(it);
  // Always draw a new mismatch so it is never hidden by throttling.
  draw(!matched);
}

void ProgressBar::erase() {
  std::lock_guard lock(mutex_);
  if (!enabled_) return;
  std::fputs("\r\x1b[K", out_);
  std::fflush(out_);
  enabled_ = false;
}

void ProgressBar::draw(bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;

  const std::size_t filled = total_ == 0 ? kBarWidth : done_ * kBarWidth / total_;
  std::string line = "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "] " +
                     std::to_string(done_) + "/" + std::to_string(total_);
  if (mismatches_ > 0) line += "  " + std::to_string(mismatches_) + " mismatch" + (mismatches_ == 1 ? "" : "es");
  if (!running_.empty()) {
    std::string current = running_.front();
    if (running_.size() > 1) current += " (+" + std::to_string(running_.size() - 1) + ")";
    const std::size_t width = terminal_width(out_);
    const std::size_t used = display_width(line) + 2;
    // Leave the last column free: writing there makes some terminals wrap.
    if (width > used + 1) line += "  " + tail(current, width - used - 1);
  }
  std::fputs(("\r\x1b[K" + line).c_str(), out_);
  std::fflush(out_);
}

}  // namespace ariadne::cli
