// Choosing a shard's rows and fingerprinting the corpus they come from; see
// corpus_shard.hpp. The row order is the corpus reader's (TSV order, or sorted names
// for a directory), never the filesystem's listing order, so every machine numbers
// the rows alike.
#include "cli/corpus/corpus_shard.hpp"

#include "base/hash.hpp"

#include "cli/common/help_text.hpp"

#include <ariadne/errors.hpp>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace ariadne::cli {

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

std::vector<std::size_t> shard_positions(std::size_t corpus_rows, ShardSpec spec) {
  std::vector<std::size_t> positions;
  for (std::size_t position = spec.index; position < corpus_rows; position += spec.count) {
    positions.push_back(position);
  }
  return positions;
}

std::size_t shard_row_count(std::size_t corpus_rows, ShardSpec spec) {
  return spec.index < corpus_rows ? (corpus_rows - spec.index - 1) / spec.count + 1 : 0;
}

std::string corpus_digest(const std::vector<CorpusRow>& rows) {
  base::Fnv1a64 hash;
  for (const CorpusRow& row : rows) {
    hash.add_field(row.name);
    hash.add_field(row.model);
    hash.add_field(row.expected ? verdict_name(*row.expected) : "-");
    std::error_code error;
    const auto size = std::filesystem::file_size(row.path, error);
    hash.add_field(error ? "-" : std::to_string(size));
  }
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016llx", static_cast<unsigned long long>(hash.value()));
  return text;
}

ShardIdentity make_shard_identity(ShardSpec spec, const std::vector<CorpusRow>& all_rows, const CheckOptions& options,
                                  bool certify) {
  ShardIdentity identity;
  identity.spec = spec;
  identity.corpus_rows = all_rows.size();
  identity.corpus_digest = corpus_digest(all_rows);
  identity.engine = std::string(engine_name(options.engine));
  identity.timeout_seconds = options.timeout_seconds;
  identity.memory_limit = options.memory_limit;
  identity.certify = certify;
  identity.consistency = options.consistency;
  identity.version = version_text();
  return identity;
}

}  // namespace ariadne::cli
