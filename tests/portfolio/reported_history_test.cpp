// The real Jepsen Redis register history of the limits issue
// (../shared/corpus/reported/redis-register-8846-ops.edn, linearizable per Knossos):
// `check --engine smt --timeout 5` ran 9 min 36 s and reached 2.38 GB, because Z3
// ignored its interrupt, and `cross-check` stalled on it for 551 s. Every engine alone,
// the race, and cross-check must now answer within the limit (a right verdict, or
// unknown naming the limit), the parent's resident size within the memory limit.
//
// Skipped when ../shared is absent (a clone without the shared corpora).
#include "cli/cli_runner.hpp"
#include "cli/limits_measured_run.hpp"
#include "cli/mini_json.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

using namespace ariadne::cli_test;

namespace {

const std::string kReported = std::string(ARIADNE_SOURCE_DIR) + "/../shared/corpus/reported";
const std::string kRedis = kReported + "/redis-register-8846-ops.edn";
constexpr double kTimeout = 5;
// The promise is 100 ms past the limit; a loaded 2-core machine gets more room here,
// and every measured time is printed.
constexpr double kMargin = 1.0;
constexpr std::uint64_t kMemoryLimit = 512ULL << 20;

}  // namespace

TEST_SUITE("limits") {
  TEST_CASE("the reported Redis history: every engine and the race answer within --timeout and --memory-limit") {
    if (!std::filesystem::exists(kRedis)) {
      MESSAGE("skipped: ", kRedis, " is absent");
      return;
    }
    for (const char* engine : {"wgl", "jit", "sat", "smt", "brute", "auto"}) {
      CAPTURE(engine);
      const MeasuredRun r = run_cli_measured({"check", kRedis, "--model", "register", "--engine", engine, "--json",
                                              "--timeout", "5", "--memory-limit", "512MiB"},
                                             60);
      REQUIRE_FALSE(r.killed);
      const Json answer = parse_json(r.out);
      MESSAGE(std::string(engine), ": ", answer["verdict"].string, " ",
              answer.has("reason") ? answer["reason"].string : "", " after ", r.seconds, " s, peak RSS ",
              r.peak_rss_bytes >> 20, " MiB");
      // Knossos says linearizable: an engine may run out of time, never contradict it.
      CHECK(answer["verdict"].string != "not-linearizable");
      if (answer["verdict"].string == "unknown" && std::string(engine) != "brute") {
        CHECK(answer["limit"].string == "timeout");
        CHECK(answer["limit_phase"].string == "verdict");
      }
      CHECK(r.seconds < kTimeout + kMargin);
      CHECK(r.peak_rss_bytes < kMemoryLimit + kMemoryLimit / 10);
    }
  }

  TEST_CASE("the reported Redis history: cross-check runs every engine within its --timeout") {
    if (!std::filesystem::exists(kRedis)) {
      MESSAGE("skipped: ", kRedis, " is absent");
      return;
    }
    TempDir dir;
    const std::string tsv = dir.write("expected.tsv", "redis-register-8846-ops.edn\tlinearizable\tregister\n");
    std::filesystem::copy_file(kRedis, dir.path() / "redis-register-8846-ops.edn");
    const MeasuredRun r = run_cli_measured({"cross-check", tsv, "--timeout", "5", "--json", "--jobs", "1"}, 120);
    REQUIRE_FALSE(r.killed);
    const Json report = parse_json(r.out);
    MESSAGE("cross-check: exit ", r.status, " after ", r.seconds, " s");
    CHECK(r.status == 0);
    const Json& row = report["rows"].array.at(0);
    for (const Json& run : row["runs"].array) {
      MESSAGE(run["engine"].string, ": ", run.has("verdict") ? run["verdict"].string : "not applicable", " in ",
              run["ms"].number, " ms");
      CHECK(run["ms"].number < (kTimeout + kMargin) * 1000);
    }
    // Six engines, each at most the limit, and nothing else of note.
    CHECK(r.seconds < 6 * (kTimeout + kMargin));
  }

}  // TEST_SUITE("limits")
