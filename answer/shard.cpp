// Shard specs as `--shard I/N` gives them and as messages name them.
#include "answer/shard.hpp"

#include <ariadne/errors.hpp>

#include <charconv>
#include <optional>

namespace ariadne::answer {

namespace {

// A whole number in plain decimal digits; nullopt for anything else ("-1", "+2", "1.0",
// "", a number too large), so a shell's empty or unset variable is caught.
std::optional<std::size_t> parse_count(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::string shard_name(ShardSpec spec) { return std::to_string(spec.index) + "/" + std::to_string(spec.count); }

ShardSpec parse_shard_spec(std::string_view text) {
  const std::string problem =
      "--shard: expected I/N, the 0-based shard index I and the shard count N with "
      "0 <= I < N (as SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX count), got '" +
      std::string(text) + "'";
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) throw UsageError(problem);
  const auto index = parse_count(text.substr(0, slash));
  const auto count = parse_count(text.substr(slash + 1));
  if (!index || !count) throw UsageError(problem);
  if (*count == 0) throw UsageError("--shard: the shard count N must be at least 1, got '" + std::string(text) + "'");
  if (*index >= *count) {
    throw UsageError("--shard: the shard index I must be below N (shards are numbered 0 to " +
                     std::to_string(*count - 1) + "), got '" + std::string(text) + "'");
  }
  return {*index, *count};
}

}  // namespace ariadne::answer
