// `ariadne corpus --consistency`: corpus/classic under sequential consistency (every
// file carries '; expected-sequential:'), rows whose verdict is not known left out
// and counted, shards that say their condition and merge under it, a merge of shards
// checked under different conditions refused, and --consistency refused with --merge.
#include "cli/cli_runner.hpp"

#include <doctest/doctest.h>

using namespace ariadne;
using cli_test::run_cli;
using cli_test::TempDir;

namespace {
const std::string kClassic = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic";
const std::string kRegressions = std::string(ARIADNE_SOURCE_DIR) + "/corpus/regressions";
}  // namespace

TEST_CASE("corpus --consistency: the classic corpus under sequential consistency, whole and in shards") {
  const auto whole = run_cli({"corpus", kClassic, "--consistency", "sequential", "--json", "--jobs", "1"});
  REQUIRE_MESSAGE(whole.status == 0, whole.err);
  CHECK(whole.out.find("\"consistency\": \"sequential\"") != std::string::npos);
  CHECK(whole.out.find("\"matches\": 15") != std::string::npos);
  CHECK(whole.out.find("\"verdict\": \"not-sequentially-consistent\"") != std::string::npos);
  CHECK(whole.out.find("\"verdict\": \"linearizable\"") == std::string::npos);

  const auto per_key = run_cli({"corpus", kClassic, "--consistency", "sequential-per-key"});
  CHECK_MESSAGE(per_key.status == 0, per_key.out);

  TempDir dir;
  std::vector<std::string> reports;
  for (int i = 0; i < 2; ++i) {
    const auto shard = run_cli({"corpus", kClassic, "--consistency", "sequential", "--shard", std::to_string(i) + "/2",
                                "--json", "--jobs", "1"});
    REQUIRE_MESSAGE(shard.status == 0, shard.err);
    reports.push_back(dir.write("s" + std::to_string(i) + ".json", shard.out));
  }
  const auto merged = run_cli({"corpus", "--merge", reports[0], reports[1], "--json"});
  REQUIRE_MESSAGE(merged.status == 0, merged.err);
  CHECK(merged.out.find("\"consistency\": \"sequential\"") != std::string::npos);
  CHECK(merged.out.find("\"matches\": 15") != std::string::npos);

  // Shard 1 checked under linearizability instead: not the same run.
  const auto other = run_cli({"corpus", kClassic, "--shard", "1/2", "--json", "--jobs", "1"});
  const std::string other_report = dir.write("other.json", other.out);
  const auto refused = run_cli({"corpus", "--merge", reports[0], other_report});
  CHECK(refused.status == 65);
  CHECK_MESSAGE(refused.err.find("consistency") != std::string::npos, refused.err);

  const auto with_merge = run_cli({"corpus", "--merge", reports[0], reports[1], "--consistency", "sequential"});
  CHECK(with_merge.status == 64);
}

TEST_CASE("corpus --consistency: rows whose verdict under the condition is not known are left out, and said so") {
  // The regressions corpus has not-linearizable rows without an '; expected-sequential:' header.
  const auto run = run_cli({"corpus", kRegressions, "--consistency", "sequential"});
  CHECK_MESSAGE(run.status == 0, run.err);
  CHECK(run.err.find("left out") != std::string::npos);
  CHECK(run.out.find("sequential-core-crashed-cas-passes-a-value-on.edn") != std::string::npos);
  const auto typo = run_cli({"corpus", kClassic, "--consistency", "serializable"});
  CHECK(typo.status == 64);
}
