// The two answers of `ariadne check`: a short human report and the --json object.
#pragma once

#include "answer/shard.hpp"
#include "answer/side_output.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>

#include <string>
#include <utility>

namespace ariadne::answer {

class Style;

struct CheckReport {
  std::string file;
  std::string model_spec;
  const History* history = nullptr;
  // check --follow in bounded memory: the ops were checked as they passed and the
  // history holds none of them (or only the refuted partition's): their count, and how
  // many crashed.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> passed_ops;
  const CheckResult* result = nullptr;
  // The command's limits, when it had them: a limit reached after the verdict (in the
  // core, the proof) is named in the report.
  const Limits* limits = nullptr;
  double total_ms = 0;          // every phase: reading, checking, the proof and the HTML report
  double read_ms = 0;           // reading the file and pairing its events into operations
  bool explain = false;         // the human report prints the whole explanation
  bool prefix = false;          // ... and the longest linearizable prefix
  bool core_shrunk = true;      // false with --no-core
  bool model_is_keyed = false;  // the model has keys (kv, independent): said under --consistency sequential
  // check --shard I/N: which keys this run checked (batch/key_shards.hpp).
  std::optional<KeyShard> key_shard = {};
  // check --merge: the reports joined, and the slowest shard's checking time.
  std::vector<std::string> merged_reports = {};
  double merged_longest_ms = 0;
  std::optional<SideOutput> proof;  // --proof DIR, when given
  std::optional<SideOutput> html;   // --html FILE, when given
};

// The limit that stopped some phase, and the phase: the command's own limits, which
// saw every phase, else what check() recorded; Limit::none if none did.
std::pair<Limit, Phase> reported_limit(const CheckReport& report);

// "file:line:column: message", as errors name their place.
std::string warning_text(const std::string& source, const ReadWarning& warning);

// The op of `history` with this id; nullptr if there is none.
const Operation* find_op(const History& history, std::uint32_t id);

// Tables longer than this show their first rows only, unless `full` is set.
inline constexpr std::size_t kTableRowLimit = 40;

// The verdict first, then model, engine, time and op count; then the witness (when
// linearizable), the offending ops and the explanation (when not), or the reason
// (when unknown). Bytes of the history that are not UTF-8 are shown as U+FFFD.
std::string format_check_text(const CheckReport& report, const Style& style, bool full);

// One JSON object with the fields the command-line contract names (verdict, model,
// engine, operations, elapsed_ms, and linearization, core and explanation, or reason)
// plus file, partitions, steps, failing_partition and peak_search_bytes; with --proof
// "proof": {"dir", "written", "summary", "reason"?}, with --html "html": {"path",
// "written", "summary", "reason"?} ("reason" when not written, see SideOutput).
std::string format_check_json(const CheckReport& report);

}  // namespace ariadne::answer
