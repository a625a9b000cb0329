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
#include "follow/read_ahead.hpp"
#include "follow/spill.hpp"
#include "follow/windowed_check.hpp"
#include "history/history_builder.hpp"
#include "history/timestamp_order.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/limits.hpp>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <utility>

namespace ariadne::follow {

namespace {

using Clock = std::chrono::steady_clock;

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
    case PrefixVerdict::not_linearizable: return "NOT LINEARIZABLE";
    case PrefixVerdict::at_the_end: return "checked at the end";
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
  Spill spill;

  PieceReader pieces(source, request.format);
  HistoryBuilder builder(source, model);
  builder.use_jobs(limits.jobs());
  // Under linearizability, windows that settle and drop what is behind them; the
  // sequential conditions are not local in time (an op invoked later may be ordered
  // before an op that completed earlier), so their history is held and checked at the
  // end.
  const bool windowed = options.consistency == Consistency::linearizable;
  std::optional<WindowedCheck> windows;
  if (windowed) {
    windows.emplace(source, model, options);
    builder.hand_on([&](const Operation& op) { windows->called(op); },
                    [&](Operation&& op) { windows->ended(std::move(op)); });
  }
  TimestampOrder ordered(builder, source);

  FollowAnswer answer;
  FollowProgress progress;
  progress.verdict = windowed ? PrefixVerdict::none : PrefixVerdict::at_the_end;
  Clock::time_point last_progress = Clock::now();
  bool unchecked = false;

  auto report = [&](bool force, std::uint32_t lines) {
    const Clock::time_point now = Clock::now();
    if (!request.on_progress || (!force && now - last_progress < std::chrono::milliseconds(200))) return;
    last_progress = now;
    progress.lines = lines;
    progress.ops = windows ? windows->ops() : builder.client_invocations();
    progress.pending = builder.open_ops();
    progress.settled = windows ? windows->settled() : 0;
    progress.held = windows ? windows->held() : builder.client_invocations();
    request.on_progress(progress);
  };

  // The refuted partition's whole history so far, read back from the spill, checked as
  // `check` checks a file: the refutation certified, with its core and failing op.
  auto certified_refutation = [&](const Value& partition) {
    const std::function<bool(const Operation&)> keep = [&](const Operation& op) {
      return !model.is_partitioned() || model.partition_key(op) == partition;
    };
    History history;
    {
      // The reader appends no piece meanwhile: the file read back is whole lines.
      std::lock_guard lock(spill.lock());
      spill.flush();
      history = read_history(spill.path(), model, pieces.format().value_or(request.format), limits, keep);
    }
    history.source = source;
    CheckResult result = check(history, model, options);
    if (result.verdict == Verdict::linearizable) {
      throw InternalError("check --follow: a stretch of " + source +
                          " was refuted, but the whole history of its partition was found linearizable; both answers "
                          "were certified, so the reasoning that joins them is wrong: please report this history");
    }
    // Checked on its partition alone: the others passed through the windows, settled
    // and were dropped. So the answer lists no key verdicts (its one key, refuted,
    // would read as the whole history's), and counts the partitions the windows saw.
    if (model.is_partitioned() && windows) {
      result.keys.clear();
      result.partitions = std::max<std::size_t>(windows->partitions(), 1);
    }
    return std::pair{std::move(history), std::move(result)};
  };

  // The first violation found, certified: the answer if the follow is cut short
  // (--fail-fast, a limit) before the whole history can be checked.
  std::optional<std::pair<History, CheckResult>> violation;
  auto answer_with_violation = [&] {
    answer.history = std::move(violation->first);
    answer.result = std::move(violation->second);
    answer.stopped_early = true;
    return std::move(answer);
  };
  auto note_violation = [&](std::uint32_t lines) {
    const Value partition = *windows->refuted_partition();
    auto refutation = certified_refutation(partition);
    if (refutation.second.verdict != Verdict::not_linearizable) return false;  // unknown: a limit
    progress.verdict = PrefixVerdict::not_linearizable;
    if (request.on_violation) request.on_violation(refutation.second, refutation.first, lines);
    violation = std::move(refutation);
    report(true, lines);
    return request.fail_fast;
  };

  // With two jobs or more, the lines are read and parsed on a thread of their own.
  ReadAhead reader(file, pieces, spill, limits.jobs() > 1);
  std::uint32_t lines = 0;
  while (!reader.done()) {
    // Shortly, when windows wait for their next check.
    std::optional<ReadAhead::Batch> batch = reader.next(std::chrono::milliseconds(unchecked ? 10 : 100));
    bool caught_up = true;  // no batch: the reader waits on the writer
    if (batch) {
      unchecked = true;
      caught_up = batch->caught_up;
      lines = batch->lines;
      for (ReadWarning& warning : batch->warnings) ordered.warn(std::move(warning));
      for (Event& event : batch->events) ordered.add(std::move(event));
    }
    if (ordered.timestamped().value_or(false)) progress.verdict = PrefixVerdict::at_the_end;
    if (windows && unchecked && progress.verdict != PrefixVerdict::not_linearizable &&
        progress.verdict != PrefixVerdict::at_the_end && limits.reached() == Limit::none) {
      if (windows->check_windows(caught_up) && note_violation(lines)) {
        reader.stop();
        answer.end = FollowEnd::stopped;
        answer.end_sentence =
            "stopped at the first violation (--fail-fast) after " + std::to_string(lines) + " lines of " + source;
        return answer_with_violation();
      }
      if (progress.verdict == PrefixVerdict::none) progress.verdict = PrefixVerdict::linearizable;
      unchecked = windows->has_news();
    } else if (progress.verdict == PrefixVerdict::at_the_end) {
      unchecked = false;  // nothing to check before the end
    }
    report(false, lines);
  }
  reader.stop();
  answer.end = file.end();
  answer.end_sentence = file.describe_end();

  // A last line without its line break.
  if (!file.incomplete_tail().empty()) {
    const std::string tail(file.incomplete_tail());
    bool read = false;
    if (tail_may_be_whole(file.end())) {
      try {
        pieces.read(tail, ordered);
        const std::lock_guard lock(spill.lock());
        spill.write(tail);
        read = true;
      } catch (const InputError&) {
        // Cut short: left out below, with a word.
      }
    }
    if (!read) {
      builder.warn({{pieces.lines_read() + 1, 1},
                    "the last line has no line break (" + std::to_string(tail.size()) +
                        " bytes): the writer stopped in the middle of it, so it is left out and what was complete "
                        "before it is checked"});
    }
  }
  pieces.finish(ordered);
  ordered.finish();

  const Limit limit = limits.reached();
  if (limit != Limit::none && violation) return answer_with_violation();
  if (limit != Limit::none) {
    // Stopped by --timeout or Ctrl-C while following: what was read has no answer.
    answer.history = std::move(builder).finish();
    answer.result.verdict = Verdict::unknown;
    answer.result.limit = limit;
    answer.result.limit_phase = Phase::reading;
    answer.result.reason = limits.describe(limit) + " while following " + source + " (" +
                           std::to_string(pieces.lines_read()) + " lines read)";
    return answer;
  }
  builder.require_events({pieces.lines_read() + 1, 1}, "following stopped: " + answer.end_sentence);
  if (!windows) {
    answer.history = std::move(builder).finish();
    answer.result = check(answer.history, model, options);
    return answer;
  }
  // What the windows hold is checked to its end; a refutation is certified on its
  // partition's whole history, read back.
  const std::uint64_t ops = windows->ops();
  const std::uint64_t crashed = windows->crashed() + builder.open_ops();
  CheckResult result = windows->finish();
  History passed = std::move(builder).finish();  // warnings and ignored events; the ops passed
  if (result.verdict == Verdict::not_linearizable) {
    auto refutation = certified_refutation(*windows->refuted_partition());
    refutation.first.warnings = passed.warnings;
    refutation.first.ignored = passed.ignored;
    answer.history = std::move(refutation.first);
    answer.result = std::move(refutation.second);
    answer.result.operations = ops;
    answer.passed_ops = OpCounts{ops, crashed};
    return answer;
  }
  answer.history = std::move(passed);
  answer.result = std::move(result);
  answer.passed_ops = OpCounts{ops, crashed};
  // The windows' ops and the witness's points were many small blocks, freed now; the
  // heap keeps them unless asked, and the report's text is about to need as much again.
  windows.reset();
  malloc_trim(0);
  return answer;
}

}  // namespace ariadne::follow
