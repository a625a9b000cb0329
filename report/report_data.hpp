// What the HTML report draws, computed from a history and its check result, and its
// compact JSON form. The page is only a viewer: every fact it shows (lanes, the
// compressed time axis, the order, the core, the model states) is decided here, where
// it can be unit-tested.
//
// The JSON is columnar (one array per field, indexed by op) with repeated strings
// interned in one table and ascending columns stored as differences, so an op costs
// about 20 bytes whatever its values look like; a 100,000-op history stays at a few
// megabytes (Porcupine's visualiser repeats every op's text and state per element and
// produced 1.5 GB for 3,000 ops).
#pragma once

#include "report/html_report.hpp"
#include "report/op_links.hpp"

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>
#include <ariadne/result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne::report {

inline constexpr std::int32_t kNone = -1;       // no string, no state, no op
inline constexpr std::uint32_t kOpen = ~0u;     // a crashed op's end: open to the end
inline constexpr std::size_t kMaxOpText = 160;  // op descriptions are shortened past this
// The explanation is cut after this many lines or about this many bytes, whichever
// comes first, with a line saying how many more there were.
inline constexpr std::size_t kMaxExplanationLines = 200;
inline constexpr std::size_t kMaxExplanationBytes = 32 * 1024;

// A text of the page with its op ids as links (op_links.hpp): pieces that joined give
// the text, and for each the index of the op it names, or kNone.
struct LinkedText {
  std::vector<std::string> pieces;
  std::vector<std::int32_t> ops;

  std::string joined() const;
};

struct ReportData {
  // Header.
  std::string file;
  std::string model;
  std::string engine;
  std::string verdict;      // verdict_name(): "linearizable", "not-linearizable", "unknown"
  std::string explanation;  // not linearizable: why; unknown: the reason (both shortened)
  LinkedText explanation_links;
  // Not linearizable: the violation in one sentence (violation_summary.hpp), and
  // whether it is CheckResult::why or made from the failing op when why was empty.
  std::string why;
  bool why_given = false;
  LinkedText why_links;
  // Not linearizable: the part each op of the core, and the failing op, plays in the
  // sentence (op indices, ascending), and whether CheckResult::why_ops said it.
  std::vector<std::uint32_t> role_ops;
  std::vector<WhyRole> roles;
  bool roles_given = false;
  std::string failing_partition;
  double elapsed_ms = 0;
  std::size_t partition_count = 1;
  bool core_minimal = false;

  // The compressed time axis: the event positions at which some op starts or ends,
  // ascending. An op's call and ret below index into it; slot times.size() is "the end".
  std::vector<std::uint64_t> times;
  std::vector<std::int64_t> processes;  // lane -> process, ascending

  // One entry per op of the history, in invocation order (the history's order).
  std::vector<std::uint32_t> ids;
  std::vector<std::uint32_t> lanes;
  std::vector<std::uint32_t> calls;         // index into times
  std::vector<std::uint32_t> rets;          // index into times, or kOpen for crashed ops
  std::string statuses;                     // 'o' ok, 'c' crashed, 'f' failed (an observation)
  std::vector<std::uint32_t> descriptions;  // index into strings
  // Model states (index into strings): after each op of the order shown (the
  // linearization, or a violation's linearizable prefix), kNone elsewhere; the state
  // before an op is the one after its predecessor in the order within its partition,
  // or that partition's initial state.
  std::vector<std::int32_t> state_after;
  std::vector<std::int32_t> initial_state;  // per partition; kNone when unknown
  // Keyed models: each op's partition (index into partition_keys, EDN text). Empty
  // for models that are not partitioned, where every op is in partition 0.
  // Keys are in EDN order, except that the failing one comes first.
  std::vector<std::uint32_t> partition_of;
  std::vector<std::string> partition_keys;
  // Each key's verdict as far as the result says it (verdict_name(), or "" when it
  // does not): independent histories check every key; a keyed model's refutation
  // decides the failing key only; a linearizable history every key.
  std::vector<std::string> partition_verdicts;

  std::vector<std::string> strings;  // the interned texts

  // Op indices (into the columns above), never op ids.
  std::vector<std::uint32_t> linearization;  // linearizable: the order
  std::vector<std::uint32_t> prefix;         // not linearizable: the linearizable prefix, if found
  std::vector<std::uint32_t> core;           // not linearizable: the core, ascending
  std::vector<std::pair<std::uint32_t, std::uint32_t>> core_facts;  // (before, after)
  std::int32_t failing = kNone;
};

// Polls context.limits as it goes (LimitReached).
ReportData build_report_data(const History& history, const Model& model, const CheckResult& result,
                             const ReportContext& context);

// The data as one JSON object, safe to put inside <script type="application/json">:
// every '<' is written as \u003c, so no value can close the element or open a comment.
// Polls `limits` between columns (LimitReached).
std::string report_data_json(const ReportData& data, const Limits* limits = nullptr);

}  // namespace ariadne::report
