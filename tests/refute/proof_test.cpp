// Proofs written by write_proof() check with verify_proof(), and tampering with any of
// their parts (the history, a clause, a lemma, the DRAT steps) makes them fail.
#include <ariadne/certificate.hpp>
#include "refute/proof_writer.hpp"
#include "support/core_oracle.hpp"
#include "support/core_rows.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace ariadne;
namespace fs = std::filesystem;

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;

struct ScratchDir {
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "ariadne-proof-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  fs::path path;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void spit(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

refute::ProofWritten prove(const testing::RefutedRow& row, const fs::path& dir) {
  const auto partition = testing::partition_of(row.history, *row.model, row.result.core.front());
  std::vector<std::uint32_t> core;
  for (std::uint32_t i = 0; i < partition.size(); ++i) {
    if (std::binary_search(row.result.core.begin(), row.result.core.end(), partition[i]->id)) core.push_back(i);
  }
  return refute::write_proof(dir.string(), partition, core, *row.model);
}

}  // namespace

TEST_CASE("the proof of every refuted classic example checks") {
  const auto rows = testing::refuted_rows(kSourceDir + "/corpus/classic");
  REQUIRE(rows.size() == 10);
  for (const auto& row : rows) {
    INFO(row.name);
    ScratchDir dir;
    const refute::ProofWritten written = prove(row, dir.path);
    CHECK_FALSE(written.whole_partition);
    CHECK(written.core_ops == row.result.core.size());
    const ProofCheck check = verify_proof(dir.path.string());
    CHECK_MESSAGE(check.valid, check.failure);
    CHECK(check.passed.size() == 3);
    for (const char* file : {"core.edn", "formula.cnf", "proof.drat", "proof.json", "README.txt"}) {
      CHECK(fs::exists(dir.path / file));
    }
  }
}

TEST_CASE("a tampered proof does not check") {
  const auto rows = testing::refuted_rows(kSourceDir + "/corpus/classic");
  const auto found = std::find_if(rows.begin(), rows.end(),
                                  [](const auto& r) { return r.name.find("lecture-example-3") != std::string::npos; });
  REQUIRE(found != rows.end());
  const auto& row = *found;
  ScratchDir dir;
  prove(row, dir.path);
  const std::string cnf = slurp(dir.path / "formula.cnf");
  const std::string history = slurp(dir.path / "core.edn");
  const std::string proof = slurp(dir.path / "proof.drat");
  REQUIRE(verify_proof(dir.path.string()).valid);

  SUBCASE("a clause changed") {
    // Negate the first literal of the first clause after the header's unit.
    std::string changed = std::regex_replace(cnf, std::regex("\n1 0\n(-?)(\\d+) "), "\n1 0\n$1$2 $1$2 ",
                                             std::regex_constants::format_first_only);
    REQUIRE(changed != cnf);
    spit(dir.path / "formula.cnf", changed);
    const auto check = verify_proof(dir.path.string());
    CHECK_FALSE(check.valid);
    CHECK(check.failure.find("not the encoding") != std::string::npos);
  }
  SUBCASE("the history changed") {
    // The last read now returns 99: a different history, a different encoding.
    const auto at = history.rfind(":type :ok, :f :read, :value ");
    REQUIRE(at != std::string::npos);
    std::string changed = history;
    const auto value_at = at + std::string(":type :ok, :f :read, :value ").size();
    changed.replace(value_at, changed.find('}', value_at) - value_at, "99");
    spit(dir.path / "core.edn", changed);
    CHECK_FALSE(verify_proof(dir.path.string()).valid);
  }
  SUBCASE("a lemma that forbids no cycle") {
    // "-1 0" would deny the constant true: it names no order atom.
    std::smatch header;
    REQUIRE(std::regex_search(cnf, header, std::regex("p cnf (\\d+) (\\d+)")));
    std::string changed = std::regex_replace(cnf, std::regex("p cnf (\\d+) (\\d+)"),
                                             "p cnf $1 " + std::to_string(std::stoi(header[2]) + 1));
    changed += "-1 0\n";
    spit(dir.path / "formula.cnf", changed);
    const auto check = verify_proof(dir.path.string());
    CHECK_FALSE(check.valid);
    CHECK(check.failure.find("lemma") != std::string::npos);
  }
  SUBCASE("a missing file") {
    fs::remove(dir.path / "proof.drat");
    CHECK_FALSE(verify_proof(dir.path.string()).valid);
  }
  SUBCASE("a manifest pointing outside the directory") {
    std::string manifest = slurp(dir.path / "proof.json");
    manifest = std::regex_replace(manifest, std::regex("\"core.edn\""), "\"../core.edn\"");
    spit(dir.path / "proof.json", manifest);
    CHECK_FALSE(verify_proof(dir.path.string()).valid);
  }
  (void)proof;
}

TEST_CASE("a core the solver cannot refute in time is proved through its whole partition") {
  const auto rows = testing::refuted_rows(kSourceDir + "/corpus/classic");
  const auto& row = rows.front();
  const auto partition = testing::partition_of(row.history, *row.model, row.result.core.front());
  std::vector<std::uint32_t> core;
  for (std::uint32_t i = 0; i < partition.size(); ++i) {
    if (std::binary_search(row.result.core.begin(), row.result.core.end(), partition[i]->id)) core.push_back(i);
  }
  ScratchDir dir;
  const auto written = refute::write_proof(dir.path.string(), partition, core, *row.model, std::chrono::seconds(0));
  CHECK(written.whole_partition);
  CHECK(written.core_ops == partition.size());
  CHECK(verify_proof(dir.path.string()).valid);
}

TEST_CASE("a proof check that is told to stop stops at its first phase, whatever the proof's size") {
  // On a whole 2,000-op partition, re-encoding the history and reading the CNF alone
  // take over a quarter of a second: both phases poll.
  const auto rows = testing::refuted_rows(kSourceDir + "/corpus/classic");
  REQUIRE_FALSE(rows.empty());
  ScratchDir dir;
  prove(rows.front(), dir.path);
  const ProofCheck check = verify_proof(dir.path.string(), [] { return true; });
  CHECK(check.stopped);
  CHECK_FALSE(check.valid);
  CHECK_MESSAGE(check.failure.starts_with("formula: the check was stopped"), check.failure);
}
