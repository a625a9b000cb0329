// Herlihy & Wing 1990, section 3.3, through the library and the command line: H7 is
// sequentially consistent and not linearizable; H8's two queues are each
// sequentially consistent, the whole history is not, and its minimal core spans both
// queues (sequential consistency is not local).
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "certify/witness_checker.hpp"
#include "cli/cli_runner.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace ariadne;

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;
const std::string kH7 = kSourceDir + "/corpus/classic/herlihy-wing-h7.edn";
const std::string kH8 = kSourceDir + "/corpus/classic/herlihy-wing-h8.edn";

CheckResult check_file(const std::string& path, const Model& model, Consistency consistency, History& history) {
  history = build_history(read_events(path), model);
  return check(history, model, CheckOptions{.consistency = consistency, .timeout_seconds = 30});
}

}  // namespace

TEST_CASE("H7 is sequentially consistent and not linearizable") {
  auto model = make_model_from_spec("fifo-queue()");
  History h;
  CHECK(check_file(kH7, *model, Consistency::linearizable, h).verdict == Verdict::not_linearizable);
  for (const Consistency c : {Consistency::sequential, Consistency::sequential_per_key}) {
    const CheckResult r = check_file(kH7, *model, c, h);
    REQUIRE(r.verdict == Verdict::linearizable);
    CHECK(r.consistency == c);
    CHECK(verdict_name(r.verdict, r.consistency) == "sequentially-consistent");
    // The witness puts B's enqueue of y before A's enqueue of x, which real time forbids.
    CHECK(certify::check_linearization(h, *model, r.linearization, Consistency::linearizable).has_value());
    CHECK_FALSE(certify::check_linearization(h, *model, r.linearization, c).has_value());
  }
}

TEST_CASE("H8: each queue is sequentially consistent, the two together are not, and the core spans both") {
  auto model = make_model_from_spec("independent(fifo-queue())");
  History h;
  const CheckResult per_key = check_file(kH8, *model, Consistency::sequential_per_key, h);
  REQUIRE(per_key.verdict == Verdict::linearizable);
  REQUIRE(per_key.keys.size() == 2);
  for (const KeyResult& k : per_key.keys) CHECK(k.verdict == Verdict::linearizable);

  const CheckResult whole = check_file(kH8, *model, Consistency::sequential, h);
  REQUIRE(whole.verdict == Verdict::not_linearizable);
  CHECK(verdict_name(whole.verdict, whole.consistency) == "not-sequentially-consistent");
  CHECK(whole.keys.empty());  // decided whole, not key by key
  CHECK(whole.core_minimal);
  CHECK(whole.core == std::vector<std::uint32_t>{0, 2, 4, 6, 8, 10});
  std::set<std::string> queues;
  for (const std::uint32_t id : whole.core) {
    const auto op = std::ranges::find(h.ops, id, &Operation::id);
    queues.insert(op->invoke_value.elements()[0].to_edn());
  }
  CHECK(queues == std::set<std::string>{":p", ":q"});
  // Program order among the core: A's three ops and B's three, two facts each.
  CHECK(whole.core_real_time.size() == 4);
  CHECK(whole.explanation.find("keeps each process's own order") != std::string::npos);
}

TEST_CASE("the command line: --consistency, its verdict names, JSON and exit statuses") {
  using cli_test::run_cli;
  auto h7 = run_cli({"check", kH7, "--model", "fifo-queue", "--consistency", "sequential", "--json"});
  CHECK(h7.status == 0);
  CHECK(h7.out.find("\"verdict\": \"sequentially-consistent\"") != std::string::npos);
  CHECK(h7.out.find("\"consistency\": \"sequential\"") != std::string::npos);
  auto h7_edn = run_cli({"check", kH7, "--model", "fifo-queue", "--consistency", "sequential", "--edn"});
  CHECK(h7_edn.status == 0);
  CHECK(h7_edn.out.find(":consistency :sequential") != std::string::npos);
  CHECK(h7_edn.out.find(":valid? true") != std::string::npos);
  auto lin = run_cli({"check", kH7, "--model", "fifo-queue", "--json"});
  CHECK(lin.status == 1);
  CHECK(lin.out.find("\"consistency\": \"linearizable\"") != std::string::npos);

  auto h8 = run_cli({"check", kH8, "--independent", "--model", "fifo-queue", "--consistency", "sequential"});
  CHECK(h8.status == 1);
  CHECK(h8.out.find("NOT SEQUENTIALLY CONSISTENT") != std::string::npos);
  CHECK(h8.out.find("sequential consistency is not local") != std::string::npos);
  CHECK(h8.out.find("that keeps each process's own order explains their results") != std::string::npos);
  auto h8_json =
      run_cli({"check", kH8, "--independent", "--model", "fifo-queue", "--consistency", "sequential", "--json"});
  CHECK(h8_json.out.find("\"core_program_order\": [[0, 4], [2, 6], [4, 8], [6, 10]]") != std::string::npos);
  CHECK(h8_json.out.find("core_real_time") == std::string::npos);
  auto h8_keys =
      run_cli({"check", kH8, "--independent", "--model", "fifo-queue", "--consistency", "sequential-per-key"});
  CHECK(h8_keys.status == 0);
  CHECK(h8_keys.out.find("SEQUENTIALLY CONSISTENT") != std::string::npos);

  // Engines that know only real time are refused for the sequential conditions, and
  // a condition that does not exist is a usage error.
  auto wgl = run_cli({"check", kH7, "--model", "fifo-queue", "--consistency", "sequential", "--engine", "wgl"});
  CHECK(wgl.status == 64);
  CHECK(wgl.err.find("does not decide") != std::string::npos);
  auto typo = run_cli({"check", kH7, "--model", "fifo-queue", "--consistency", "serial"});
  CHECK(typo.status == 64);
  CHECK(typo.err.find("linearizable, sequential or sequential-per-key") != std::string::npos);
  for (const char* engine : {"sat", "smt", "brute", "program-order"}) {
    INFO(engine);
    auto run = run_cli({"check", kH7, "--model", "fifo-queue", "--consistency", "sequential", "--engine", engine});
    CHECK(run.status == 0);
  }
}
