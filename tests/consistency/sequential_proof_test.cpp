// DRAT proofs under sequential consistency: `check --consistency sequential --proof`
// writes a proof whose formula keeps program order and whose manifest says so;
// verify-proof accepts it, and rejects the same files read as a proof of
// linearizability (their formula is not that encoding). Also through the command
// line, on a generated lagging-follower history with a violation.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include <ariadne/certificate.hpp>
#include "cli/cli_runner.hpp"
#include "generators/lagging_follower.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace ariadne;

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("sequential proofs: written with program order, checked with it, refused as linearizability's") {
  using cli_test::run_cli;
  const cli_test::TempDir dir;
  const std::string history = dir.write(
      "broken.edn",
      generators::format_generated_file(
          generators::generate_lagging_follower({.operations = 300, .max_lag = 6, .violation = true}), "test"));
  const std::string proof = (dir.path() / "proof").string();
  const auto run =
      run_cli({"check", history, "--model", "register(0)", "--consistency", "sequential", "--proof", proof});
  REQUIRE(run.status == 1);
  CHECK(run.out.find("proof written to") != std::string::npos);

  const ProofCheck check = verify_proof(proof);
  INFO(check.failure);
  REQUIRE(check.valid);
  CHECK(check.consistency == Consistency::sequential);
  const auto verify = run_cli({"verify-proof", proof});
  CHECK(verify.status == 0);
  CHECK(verify.out.find("not sequentially consistent") != std::string::npos);
  CHECK(verify.out.find("program-order facts") != std::string::npos);

  // The same files claimed as a proof of linearizability: the base clauses are not
  // the real-time encoding of core.edn, so the proof does not check.
  const std::filesystem::path manifest = std::filesystem::path(proof) / "proof.json";
  std::string text = slurp(manifest);
  const auto at = text.find("\"consistency\": \"sequential\",\n");
  REQUIRE(at != std::string::npos);
  text.erase(at, std::string("\"consistency\": \"sequential\",\n").size());
  std::ofstream(manifest, std::ios::binary) << text;
  CHECK_FALSE(verify_proof(proof).valid);
}
