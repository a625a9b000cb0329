// `ariadne check FILE --follow`: a history checked while its test still writes it.
//
// The file (or a pipe) is read as it grows (growing_file.hpp), its lines are read into
// events (piece_reader.hpp) and paired into operations as they come, and each
// partition's operations are checked as they arrive (windowed_check.hpp), its pending
// operations (invoked, not yet completed) taken as crashed: such an op may take effect
// at any point after its invocation or never, with any result, which covers whatever
// its completion will say. So a prefix that cannot be linearized proves the whole
// history cannot be either (the argument is written in follow_check.cpp), and the
// violation is reported as soon as it is written, certified on the partition's whole
// history so far, with its failing op, core and explanation. What is settled is
// dropped, so memory is bounded by what is undecided. When the writer is done, the
// answer is the one `check` gives the finished file.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "follow/growing_file.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace ariadne::follow {

// What the check of the prefix so far says.
enum class PrefixVerdict : std::uint8_t {
  none,              // nothing checked yet
  linearizable,      // the prefix so far has an order (its pending ops may still break it)
  not_linearizable,  // settled: no completion to come can mend it
  at_the_end,        // timestamps, or a sequential condition: decided once it is all read
};
std::string_view prefix_verdict_name(PrefixVerdict verdict);  // "linearizable so far", ...

struct FollowProgress {
  std::uint64_t lines = 0;
  std::uint64_t ops = 0;      // invoked so far
  std::uint64_t pending = 0;  // invoked, neither completed nor crashed
  std::uint64_t settled = 0;  // decided and dropped
  std::uint64_t held = 0;     // still held: undecided, or not yet checked
  PrefixVerdict verdict = PrefixVerdict::none;
};

struct FollowRequest {
  std::string path;  // "-": standard input
  Format format = Format::auto_detect;
  FollowSettings settings;  // should_stop is set from the check's limits
  // Stop at the first violation and answer with the prefix's result.
  bool fail_fast = false;
  // Called a few times a second at most, and whenever the prefix's verdict changes.
  std::function<void(const FollowProgress&)> on_progress;
  // Called once, as soon as a prefix is found not linearizable, with its result (core,
  // failing op, explanation), the history it was certified on (the refuted partition's
  // ops so far) and the lines read by then.
  std::function<void(const CheckResult&, const History&, std::uint64_t lines)> on_violation;
};

struct OpCounts {
  std::uint64_t ops = 0;
  std::uint64_t crashed = 0;
};

struct FollowAnswer {
  History history;     // what was read (the prefix, when fail_fast stopped early)
  CheckResult result;  // its check
  FollowEnd end = FollowEnd::none;
  std::string end_sentence;    // why following stopped, for the user
  bool stopped_early = false;  // fail_fast: the answer is a prefix's
  // When the operations were checked as they passed and are not held (the history above
  // then holds none, or the refuted partition's): their counts.
  std::optional<OpCounts> passed_ops;
};

// Follows `request.path` and checks it with `model` and `options` (options.limits must
// be set: its deadline, memory and cancel flag bound the whole follow). Throws
// InputError for a complete line that is malformed (as `check` would), UsageError or
// std::system_error when the file cannot be followed.
FollowAnswer follow_check(const FollowRequest& request, const Model& model, const CheckOptions& options);

}  // namespace ariadne::follow
