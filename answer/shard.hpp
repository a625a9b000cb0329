// Which shard a report is of: its place among N (`corpus --shard I/N`, `check
// --shard I/N`), and for a key shard what it checked. The report states these facts
// (answer/check_report.cpp, batch/corpus_report.cpp) and a merge reads them back
// (batch/corpus_merge.cpp, batch/key_shards.cpp) to refuse reports that do not belong
// together.
#pragma once

#include <ariadne/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ariadne::answer {

struct ShardSpec {
  std::size_t index = 0;  // 0-based, below count
  std::size_t count = 1;
};

// "I/N" with 0 <= I < N, in plain decimal digits. Throws UsageError naming the
// problem otherwise.
ShardSpec parse_shard_spec(std::string_view text);
// "I/N", as messages name a shard.
std::string shard_name(ShardSpec spec);

// What a key shard's report says of itself ("shard" in its JSON).
struct KeyShard {
  ShardSpec spec;
  Value options;         // batch::key_shard_options()
  std::size_t keys = 0;  // the keys this shard checked
  // The whole history's events and its file's size in bytes: a merge refuses reports
  // of another file.
  std::size_t history_events = 0;
  std::uint64_t history_bytes = 0;
  // Not linearizable: the first op (by id) of the failing key, so that the merge
  // reports the key an unsharded check would (the first refuted in order of
  // appearance).
  std::optional<std::uint32_t> failing_key_first_op;
};

}  // namespace ariadne::answer
