// Why a prefix's refutation is the whole history's. Take any linearization L of the
// finished history. Every op completed within the prefix returned before any op
// invoked after the prefix was called, so in L it precedes all of them; the ops of L
// up to the last op completed within the prefix are therefore all ops of the prefix:
// its completed ops, and some of its pending ones (those completed later, or never,
// placed that early). That part of L is a prefix of a legal sequence, so it is legal,
// and it keeps real time. In the prefix read as a history, a pending op is crashed:
// it may take effect anywhere after its invocation, with any result, or not at all.
// So the part of L is a linearization of the prefix, the pending ops it holds taking
// effect and the others not. Contrapositive: a prefix with no linearization has no
// finished history with one, whatever its pending ops go on to return. (An op whose
// completion is :fail later is one the prefix may leave out, which it may.)
//
// Timestamped histories are the exception: an event appended later may carry an
// earlier time and change the prefix's real time, so they are checked only at the end.
#include "follow/follow_check.hpp"

#include "follow/piece_reader.hpp"
#include "history/history_builder.hpp"
#include "history/timestamp_order.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/limits.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

namespace ariadne::follow {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

// Jepsen logs this line once the run is over and before it writes the history out
// (jepsen.core, "Run complete, writing"): no event of the run comes after it.
bool ends_the_run(std::string_view piece) {
  for (std::size_t at = piece.find("Run complete, writing"); at != std::string_view::npos;
       at = piece.find("Run complete, writing", at + 1)) {
    const std::size_t line_start = piece.rfind('\n', at);
    const std::string_view before = piece.substr(line_start == std::string_view::npos ? 0 : line_start + 1,
                                                 at - (line_start == std::string_view::npos ? 0 : line_start + 1));
    if (before.find("jepsen.core") != std::string_view::npos) return true;
  }
  return false;
}

// Sees each event on its way to the pairing: whether the history is timestamped.
class Watch final : public EventSink {
 public:
  explicit Watch(EventSink& next) : next_(next) {}
  void add(Event&& event) override {
    if (event.timestamp && event.process.is_integer()) timestamped_ = true;
    next_.add(std::move(event));
  }
  void warn(ReadWarning warning) override { next_.warn(std::move(warning)); }
  bool timestamped() const { return timestamped_; }

 private:
  EventSink& next_;
  bool timestamped_ = false;
};

// When the writer ended without a line break, whether its last bytes may be a line:
// a file that simply stopped growing, or a pipe closed after a last line without one,
// as a finished file without a final newline would be read. A writer that died, or a
// file cut or replaced under us, never gets its last bytes trusted.
bool tail_may_be_whole(FollowEnd end) { return end == FollowEnd::idle || end == FollowEnd::closed; }

}  // namespace

std::string_view prefix_verdict_name(PrefixVerdict verdict) {
  switch (verdict) {
    case PrefixVerdict::none: return "not checked yet";
    case PrefixVerdict::linearizable: return "linearizable so far";
    case PrefixVerdict::unknown: return "unknown so far";
    case PrefixVerdict::not_linearizable: return "NOT LINEARIZABLE";
    case PrefixVerdict::at_the_end: return "timestamped: checked at the end";
  }
  return "";
}

FollowAnswer follow_check(const FollowRequest& request, const Model& model, const CheckOptions& options) {
  if (options.limits == nullptr) throw UsageError("follow_check: CheckOptions::limits must be set");
  const Limits& limits = *options.limits;
  FollowSettings settings = request.settings;
  settings.should_stop = [&limits] { return limits.reached() != Limit::none; };
  GrowingFile file(request.path, settings);
  const std::string source = request.path == "-" ? "standard input" : request.path;

  PieceReader pieces(source, request.format);
  HistoryBuilder builder(source, model);
  builder.use_jobs(limits.jobs());
  TimestampOrder ordered(builder, source);
  Watch watch(ordered);

  FollowAnswer answer;
  FollowProgress progress;
  const Clock::time_point started = Clock::now();
  Clock::time_point next_check = started;
  Clock::time_point last_progress = started;
  Clock::time_point first_unchecked_read{};  // when the first piece not yet checked arrived
  std::uint64_t checked_events = 0;
  double prefix_budget_seconds = 1;
  std::string piece;
  // The first prefix found not linearizable, and its check: the answer if the follow
  // is cut short (--fail-fast, a limit) before the whole history can be checked.
  std::optional<std::pair<History, CheckResult>> violation;
  auto answer_with_violation = [&] {
    answer.history = std::move(violation->first);
    answer.result = std::move(violation->second);
    answer.stopped_early = true;
    return std::move(answer);
  };

  auto report = [&](bool force) {
    const Clock::time_point now = Clock::now();
    if (!request.on_progress || (!force && now - last_progress < std::chrono::milliseconds(200))) return;
    last_progress = now;
    progress.lines = pieces.lines_read();
    progress.ops = builder.client_invocations();
    progress.pending = builder.open_ops();
    progress.seconds = ms_between(started, now) / 1000;
    request.on_progress(progress);
  };

  // Checks the prefix read so far; true when it is refuted and fail_fast ends the follow.
  auto check_prefix = [&]() -> bool {
    History prefix = builder.snapshot();
    checked_events = builder.events_seen();
    if (prefix.ops.empty()) return false;
    const Clock::time_point begun = Clock::now();
    // Its own deadline, so one hard prefix cannot hold the reading up for long: an
    // unknown prefix is tried again later, with twice the time.
    const Limits prefix_limits({.timeout_seconds = prefix_budget_seconds, .jobs = limits.jobs()}, &limits);
    CheckOptions prefix_options = options;
    prefix_options.limits = &prefix_limits;
    CheckResult result = check(prefix, model, prefix_options);
    const Clock::time_point done = Clock::now();
    ++answer.prefix_checks;
    progress.checked_ops = prefix.ops.size();
    // Checks take at most a quarter of the time, however long the history grows.
    next_check = done + std::max<Clock::duration>(std::chrono::milliseconds(50), 3 * (done - begun));
    switch (result.verdict) {
      case Verdict::linearizable: progress.verdict = PrefixVerdict::linearizable; break;
      case Verdict::unknown:
        if (limits.reached() != Limit::none) return false;  // the command's own limit: the loop ends
        progress.verdict = PrefixVerdict::unknown;
        prefix_budget_seconds *= 2;
        break;
      case Verdict::not_linearizable:
        progress.verdict = PrefixVerdict::not_linearizable;
        answer.violation_lines = pieces.lines_read();
        answer.violation_latency_ms = ms_between(first_unchecked_read, done);
        if (request.on_violation) request.on_violation(result, prefix);
        report(true);
        violation.emplace(std::move(prefix), std::move(result));
        return request.fail_fast;
    }
    report(true);
    return false;
  };

  while (file.end() == FollowEnd::none) {
    piece.clear();
    const bool waiting_to_check =
        checked_events < builder.events_seen() && progress.verdict != PrefixVerdict::not_linearizable;
    const auto wait = waiting_to_check
                          ? std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::max<Clock::duration>(Clock::duration::zero(), next_check - Clock::now()))
                          : std::chrono::milliseconds(100);
    if (file.read_lines(piece, std::min(wait, std::chrono::milliseconds(100))) > 0) {
      if (checked_events == builder.events_seen()) first_unchecked_read = Clock::now();
      pieces.read(piece, watch);
      if (pieces.format() == Format::jepsen_log && ends_the_run(piece)) file.finish(FollowEnd::test_ended);
    }
    if (watch.timestamped()) progress.verdict = PrefixVerdict::at_the_end;
    const bool due = checked_events < builder.events_seen() && Clock::now() >= next_check &&
                     progress.verdict != PrefixVerdict::not_linearizable &&
                     progress.verdict != PrefixVerdict::at_the_end && limits.reached() == Limit::none;
    if (due && check_prefix()) {
      answer.end = FollowEnd::stopped;
      answer.end_sentence = "stopped at the first violation (--fail-fast) after " +
                            std::to_string(pieces.lines_read()) + " lines of " + source;
      return answer_with_violation();
    }
    report(false);
  }
  answer.end = file.end();
  answer.end_sentence = file.describe_end();

  // A last line without its line break.
  if (!file.incomplete_tail().empty()) {
    const std::string tail(file.incomplete_tail());
    bool read = false;
    if (tail_may_be_whole(file.end())) {
      try {
        pieces.read(tail, watch);
        read = true;
      } catch (const InputError&) {
        // Cut short: left out below, with a word.
      }
    }
    if (!read) {
      builder.warn({{pieces.lines_read() + (read ? 0u : 1u), 1},
                    "the last line has no line break (" + std::to_string(tail.size()) +
                        " bytes): the writer stopped in the middle of it, so it is left out and what was complete "
                        "before it is checked"});
    }
  }
  pieces.finish(watch);
  ordered.finish();

  const Limit limit = limits.reached();
  if (limit != Limit::none && violation) return answer_with_violation();
  if (limit != Limit::none) {
    // Stopped by --timeout or Ctrl-C while following: what was read has no answer.
    answer.history = builder.snapshot();
    answer.result.verdict = Verdict::unknown;
    answer.result.limit = limit;
    answer.result.limit_phase = Phase::reading;
    answer.result.reason = limits.describe(limit) + " while following " + source + " (" +
                           std::to_string(pieces.lines_read()) + " lines read)";
    return answer;
  }
  if (builder.events_seen() == 0) {
    throw InputError(source, {pieces.lines_read() + 1, 1},
                     "no client operation in " + source +
                         " (no event at all before following stopped: " + answer.end_sentence +
                         "): an empty history is almost always a harness that recorded nothing, so it is refused "
                         "rather than passed");
  }
  if (builder.client_invocations() == 0) {
    builder.warn({{},
                  "no client operation: the " + std::to_string(builder.events_seen()) +
                      " events are all of processes that are no client, so there is nothing to check"});
  }
  answer.history = std::move(builder).finish();
  answer.result = check(answer.history, model, options);
  if (violation && answer.result.verdict == Verdict::unknown) return answer_with_violation();
  if (violation && answer.result.verdict == Verdict::linearizable) {
    throw InternalError("check --follow: a prefix of " + source +
                        " was refuted, but the whole history was found linearizable; both answers were certified, "
                        "so the reasoning that joins them is wrong: please report this history");
  }
  return answer;
}

}  // namespace ariadne::follow
