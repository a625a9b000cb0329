// Choosing a shard's rows and fingerprinting the corpus they come from; see
// corpus_shard.hpp. The row order is the corpus reader's (TSV order, or sorted names
// for a directory), never the filesystem's listing order, so every machine numbers
// the rows alike.
#include "batch/corpus_shard.hpp"

#include "base/hash.hpp"

#include "answer/version.hpp"

#include <cstdio>
#include <filesystem>

namespace ariadne::batch {

using answer::ShardSpec;

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
  identity.version = answer::version_text();
  return identity;
}

}  // namespace ariadne::batch
