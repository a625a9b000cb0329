// Every refuted row of the shared corpora gets a minimal core and a proof:
//  - the core's relaxed history is re-decided (not linearizable), and so is each
//    relaxation with one more op relaxed (linearizable, its witness replayed by the
//    certificate checker), by the race of engines rather than the solver alone;
//  - on cores of at most 10 ops, brute force agrees that the core's ops alone, as
//    recorded, cannot be linearized (a necessary condition of the contract);
//  - the proof written for the core passes verify_proof().
// Shards spread the rows over ctest's workers.
#include <ariadne/check.hpp>

#include <ariadne/certificate.hpp>
#include "refute/proof_writer.hpp"
#include "support/core_oracle.hpp"
#include "support/core_rows.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

using namespace ariadne;
namespace fs = std::filesystem;

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;
constexpr std::size_t kBruteForceCore = 10;

void check_cores(const std::string& corpus, int shard, int shards) {
  if (!fs::exists(corpus)) {
    MESSAGE("skipped: ", corpus, " is absent (a plain clone has no ../shared)");
    return;
  }
  for (const auto& row : testing::refuted_rows(corpus, shard, shards)) {
    // The SAT engine re-decides register histories fastest; the mutex's relaxed
    // histories make it count acquires against releases, which the race leaves to WGL.
    const bool counting = row.model->name() == "mutex";
    const CheckOptions recheck{.engine = counting ? Engine::automatic : Engine::sat, .timeout_seconds = 60, .jobs = 1};
    INFO(row.name, " (core of ", row.result.core.size(), " ops in ", row.result.core_ms, " ms)");
    REQUIRE(row.result.verdict == Verdict::not_linearizable);
    REQUIRE_FALSE(row.result.core.empty());
    CHECK(row.result.core_minimal);
    const auto partition = testing::partition_of(row.history, *row.model, row.result.core.front());

    const testing::MinimalityCheck minimal = testing::check_minimality(partition, row.result.core, *row.model, recheck);
    CHECK(minimal.refuted);
    CHECK(minimal.undecided == 0);
    CHECK(minimal.necessary == static_cast<int>(row.result.core.size()));

    if (row.result.core.size() <= kBruteForceCore) {
      History alone;
      for (const Operation* op : partition) {
        if (std::binary_search(row.result.core.begin(), row.result.core.end(), op->id)) alone.ops.push_back(*op);
      }
      const CheckResult brute = check(alone, *row.model, CheckOptions{.engine = Engine::brute, .jobs = 1});
      CHECK(brute.verdict == Verdict::not_linearizable);
    }

    std::string pattern = (fs::temp_directory_path() / "ariadne-core-proof-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    std::vector<std::uint32_t> core;
    for (std::uint32_t i = 0; i < partition.size(); ++i) {
      if (std::binary_search(row.result.core.begin(), row.result.core.end(), partition[i]->id)) core.push_back(i);
    }
    const refute::ProofWritten written =
        refute::write_proof(pattern, partition, core, *row.model, std::chrono::seconds(5));
    const ProofCheck proof = verify_proof(pattern);
    CHECK_MESSAGE(proof.valid, proof.failure);
    if (written.whole_partition) MESSAGE(row.name, ": proved through the whole partition");
    fs::remove_all(pattern);
  }
}

}  // namespace

TEST_SUITE("slow") {
  TEST_CASE("every refuted Knossos row has a minimal core and a proof") {
    check_cores(kSourceDir + "/../shared/corpus/knossos/expected.tsv", 0, 1);
  }
  TEST_CASE("every refuted Porcupine row has a minimal core and a proof, part 1 of 4") {
    check_cores(kSourceDir + "/../shared/corpus/porcupine/expected.tsv", 0, 4);
  }
  TEST_CASE("every refuted Porcupine row has a minimal core and a proof, part 2 of 4") {
    check_cores(kSourceDir + "/../shared/corpus/porcupine/expected.tsv", 1, 4);
  }
  TEST_CASE("every refuted Porcupine row has a minimal core and a proof, part 3 of 4") {
    check_cores(kSourceDir + "/../shared/corpus/porcupine/expected.tsv", 2, 4);
  }
  TEST_CASE("every refuted Porcupine row has a minimal core and a proof, part 4 of 4") {
    check_cores(kSourceDir + "/../shared/corpus/porcupine/expected.tsv", 3, 4);
  }
}
