// --timeout and --memory-limit hold on every engine (issue 7): wgl, jit, sat, smt,
// brute and auto each get a history that would take them far longer than the limit,
// and must come back unknown, for the right reason, on time and within memory.
//
// Through the library (check() with CheckOptions) each engine is timed and its search
// memory read back; through the command line each engine is run once per limit as a
// child process, whose wall time and peak resident size (VmHWM) are measured from
// outside (cli/limits_measured_run.hpp).
//
// The histories, measured on the shared 2-core machine (none is decided in 20 s by the
// engine it is given to):
// - 2,000 ops of a register over two values with a stale read (generate atomic,
//   seed 1): JIT, SAT and SMT; SAT and SMT spend their time encoding a formula of
//   millions of clauses, JIT its configurations. (The race refutes it at once with
//   its stale-read test, and WGL, taking reads at once, in under a second.)
// - WGL and the race: 1,000 ops of one kv key over five tokens by 40 processes, 20%
//   of them crashed, linearizable (generate atomic, seed 1), a history of issue 42's
//   frontier that no engine decides in a minute: its puts and crashed puts multiply
//   the configurations (at 20 processes, WGL now decides it: it forgets the strings
//   no get reads).
// - a linearizable crash storm of 2,000 ops: Z3 itself (loading and solving; SMT
//   needs more than 60 s for it, docs/performance.md's table).
// - 13 concurrent writes and a read of a value nobody wrote: 13! orders for brute force.
//
// Margins: a limit of 1 s must end within 1.5 s after it. The engines stop within
// milliseconds, but Z3 answers its interrupt and frees a large context 0.2-0.75 s
// late (measured on the crash storm, the machine loaded by four builds), and a loaded
// 2-core machine adds its noise. A memory limit must keep the peak resident size within
// the limit plus the baseline (what reading the file and starting the engine cost,
// measured the same way) plus 8 MiB for the allocator's own slack and thread stacks;
// every engine alone stays under the limit itself (measured: 24-28 MiB of 32).
#include "cli/limits_measured_run.hpp"
#include "generators/atomic_history.hpp"
#include "generators/crash_storm.hpp"
#include "support/history_builder.hpp"

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

using namespace ariadne;
using namespace ariadne::cli_test;

namespace {

constexpr double kTimeout = 1;
constexpr double kTimeoutMargin = 1.5;
constexpr std::uint64_t kMiB = 1 << 20;
constexpr std::uint64_t kMemoryLimit = 32 * kMiB;
constexpr std::uint64_t kAllocatorSlack = 8 * kMiB;
// WGL never gives up while its memo table fits: when it would outgrow the limit it is
// emptied and the search goes on, and only the 16th emptying ends it. At 32 MiB that
// takes 15-25 s on the register history, at 4 MiB under a second.
constexpr std::uint64_t kWglMemoryLimit = 4 * kMiB;

struct HardHistory {
  std::string name;
  std::string model_spec;
  EventLog log;
};

// 5,000 ops: the SAT engine refutes the 2,000-op one in about a second since it
// chains the window clauses real time implies (encoder/registers.cpp), close enough
// to the timeout that it stopped early to free what it held (teardown_due).
HardHistory two_value_register() {
  generators::AtomicShape shape;
  shape.model_spec = "register(0)";
  shape.operations = 5000;
  shape.processes = 8;
  shape.values = 2;
  shape.violation = true;
  shape.seed = 1;
  generators::GeneratedHistory generated = generators::generate_atomic_history(shape);
  return {"register-5000-two-values", generated.model_spec, std::move(generated.log)};
}

HardHistory crashed_kv() {
  generators::GeneratedHistory generated = generators::generate_atomic_history(
      {.model_spec = "kv", .operations = 1000, .processes = 40, .keys = 1, .values = 5, .crash_rate = 0.2, .seed = 1});
  return {"kv-1000-crashed", generated.model_spec, std::move(generated.log)};
}

HardHistory linearizable_crash_storm() {
  generators::GeneratedHistory storm = generators::generate_crash_storm({.operations = 2000, .crashed_writes = 50});
  return {"crash-storm-2000", storm.model_spec, std::move(storm.log)};
}

HardHistory unexplainable_read(int writes) {
  testing::EventScript s;
  for (int p = 0; p < writes; ++p) s.invoke(p, "write", testing::I(p + 1));
  s.invoke(writes, "read");
  for (int p = 0; p < writes; ++p) s.ok(p, "write", testing::I(p + 1));
  s.ok(writes, "read", testing::I(999));
  return {"unexplainable-read-" + std::to_string(writes), "register(0)", s.log()};
}

// The history each engine is timed on.
HardHistory hard_for(Engine engine) {
  if (engine == Engine::brute) return unexplainable_read(13);
  return engine == Engine::automatic || engine == Engine::wgl ? crashed_kv() : two_value_register();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Timed {
  CheckResult result;
  double seconds = 0;
};

Timed timed_check(const HardHistory& h, const CheckOptions& options) {
  const auto model = make_model_from_spec(h.model_spec);
  const History history = build_history(h.log, *model);
  const auto start = std::chrono::steady_clock::now();
  Timed t{check(history, *model, options), 0};
  t.seconds = seconds_since(start);
  return t;
}

void expect_timeout_held(const Timed& t, const std::string& what) {
  MESSAGE(what, ": ", verdict_name(t.result.verdict), " (", t.result.reason, ") after ", t.seconds, " s");
  CHECK(t.result.verdict == Verdict::unknown);
  CHECK(t.result.reason.find("timeout after 1 s") != std::string::npos);
  // It ran to the deadline (the history is hard enough), and stopped soon after it.
  // An engine holding much memory stops a little early, so that freeing it ends by
  // the deadline (search::teardown_due: a nanosecond per byte held).
  CHECK(t.seconds >= kTimeout * 0.95);
  CHECK(t.seconds < kTimeout + kTimeoutMargin);
}

std::string memory_reason(std::uint64_t limit) {
  return "memory limit of " + std::to_string(limit / kMiB) + " MiB reached";
}

// Unknown for the memory limit's sake, with the search's own count of its memory
// within the limit.
void expect_memory_limit_held(const HardHistory& h, Engine engine, std::uint64_t limit) {
  const Timed m = timed_check(h, {.engine = engine, .timeout_seconds = 20, .memory_limit = limit});
  MESSAGE(engine_name(engine), ", ", limit / kMiB, " MiB: ", m.result.reason, " after ", m.seconds, " s, search peak ",
          m.result.peak_search_bytes, " bytes");
  CHECK(m.result.verdict == Verdict::unknown);
  // A keyed history's reason names the key after that.
  CHECK(m.result.reason.starts_with(memory_reason(limit) + " during the verdict"));
  CHECK(m.result.limit == Limit::memory);
  CHECK(m.result.peak_search_bytes <= limit);
}

// ---------------------------------------------------------------------------------
// The command line.

std::string write_history(const TempDir& dir, const HardHistory& h) {
  return dir.write(h.name + ".edn", format_events(h.log, Format::edn));
}

MeasuredRun run_check(const std::string& file, const std::string& model, Engine engine,
                      std::vector<std::string> limits) {
  std::vector<std::string> args{"check", file, "--model", model, "--engine", std::string(engine_name(engine)),
                                "--json"};
  args.insert(args.end(), limits.begin(), limits.end());
  // Far past any limit given here: a run still going then has hung.
  return run_cli_measured(args, 60);
}

// What a run costs before any search memory: reading and pairing this file (brute
// force with a 1 ms timeout does little else), plus what starting this engine costs
// beyond brute force (Z3's context takes about 22 MiB), measured on a tiny history.
std::uint64_t baseline_rss(const TempDir& dir, const std::string& file, const std::string& model, Engine engine) {
  const std::string tiny = dir.write("tiny.edn",
                                     "[{:process 0, :type :invoke, :f :write, :value 1}\n"
                                     " {:process 0, :type :ok, :f :write, :value 1}]\n");
  const std::uint64_t reading = run_check(file, model, Engine::brute, {"--timeout", "0.001"}).peak_rss_bytes;
  const std::uint64_t engine_start = run_check(tiny, model, engine, {}).peak_rss_bytes;
  const std::uint64_t bare = run_check(tiny, model, Engine::brute, {}).peak_rss_bytes;
  return reading + (engine_start > bare ? engine_start - bare : 0);
}

std::string reason_of(const MeasuredRun& r) {
  try {
    return parse_json(r.out)["reason"].string;
  } catch (const std::exception&) {
    return "(no JSON report: " + r.err.substr(0, 200) + ")";
  }
}

void cli_timeout_holds(Engine engine, const HardHistory& h) {
  TempDir dir;
  const std::string file = write_history(dir, h);
  const MeasuredRun r = run_check(file, h.model_spec, engine, {"--timeout", "1"});
  const std::string reason = reason_of(r);
  MESSAGE("ariadne check --engine ", engine_name(engine), " --timeout 1 on ", h.name, ": exit ", r.status, " (", reason,
          ") after ", r.seconds, " s, peak RSS ", mebibytes(r.peak_rss_bytes), " MiB");
  CHECK_FALSE(r.killed);
  CHECK(r.status == 2);
  CHECK(reason.find("timeout after 1 s") != std::string::npos);
  // Reading and printing are outside the limit: a few tens of milliseconds here.
  CHECK(r.seconds >= kTimeout);
  CHECK(r.seconds < kTimeout + kTimeoutMargin);
}

// Returns how far the peak resident size went past the baseline.
std::uint64_t cli_memory_limit_holds(Engine engine, const HardHistory& h, std::uint64_t limit,
                                     const std::string& expected_reason, const std::string& timeout = "20") {
  TempDir dir;
  const std::string file = write_history(dir, h);
  const std::uint64_t baseline = baseline_rss(dir, file, h.model_spec, engine);
  const MeasuredRun r = run_check(file, h.model_spec, engine,
                                  {"--memory-limit", std::to_string(limit / kMiB) + "MiB", "--timeout", timeout});
  const std::string reason = reason_of(r);
  const std::uint64_t growth = r.peak_rss_bytes > baseline ? r.peak_rss_bytes - baseline : 0;
  MESSAGE("ariadne check --engine ", engine_name(engine), " --memory-limit ", limit / kMiB, "MiB on ", h.name,
          ": exit ", r.status, " (", reason, ") after ", r.seconds, " s, peak RSS ", mebibytes(r.peak_rss_bytes),
          " MiB = baseline ", mebibytes(baseline), " MiB + ", mebibytes(growth), " MiB");
  CHECK_FALSE(r.killed);
  CHECK(r.status == 2);
  CHECK(reason.find(expected_reason) != std::string::npos);
  return growth;
}

}  // namespace

TEST_SUITE("limits") {
  // ---------------------------------------------------------------------------------
  // The library: one case per engine, its timeout and its memory limit.

  TEST_CASE("wgl: --timeout and --memory-limit hold") {
    const HardHistory h = hard_for(Engine::wgl);
    expect_timeout_held(timed_check(h, {.engine = Engine::wgl, .timeout_seconds = kTimeout}), "wgl, timeout 1 s");
    expect_memory_limit_held(h, Engine::wgl, kWglMemoryLimit);
  }

  TEST_CASE("jit: --timeout and --memory-limit hold") {
    const HardHistory h = hard_for(Engine::jit);
    expect_timeout_held(timed_check(h, {.engine = Engine::jit, .timeout_seconds = kTimeout}), "jit, timeout 1 s");
    // Before the configuration sets asked the budget ahead of growing, the search
    // counted 39 MiB here.
    expect_memory_limit_held(h, Engine::jit, kMemoryLimit);
  }

  TEST_CASE("sat: --timeout and --memory-limit hold") {
    const HardHistory h = hard_for(Engine::sat);
    expect_timeout_held(timed_check(h, {.engine = Engine::sat, .timeout_seconds = kTimeout}), "sat, timeout 1 s");
    expect_memory_limit_held(h, Engine::sat, kMemoryLimit);
  }

  TEST_CASE("smt: --timeout holds while encoding and while Z3 solves, and --memory-limit holds") {
    expect_timeout_held(timed_check(hard_for(Engine::smt), {.engine = Engine::smt, .timeout_seconds = kTimeout}),
                        "smt encoding, timeout 1 s");
    expect_timeout_held(timed_check(linearizable_crash_storm(), {.engine = Engine::smt, .timeout_seconds = kTimeout}),
                        "smt solving, timeout 1 s");
    expect_memory_limit_held(hard_for(Engine::smt), Engine::smt, kMemoryLimit);
  }

  TEST_CASE("brute: --timeout holds, and --memory-limit has nothing to hold back") {
    const HardHistory h = hard_for(Engine::brute);
    expect_timeout_held(timed_check(h, {.engine = Engine::brute, .timeout_seconds = kTimeout}), "brute, timeout 1 s");
    // Brute force keeps only the order it is trying: no search memory to account, so a
    // small limit changes nothing and the timeout ends it.
    const Timed m =
        timed_check(h, {.engine = Engine::brute, .timeout_seconds = kTimeout, .memory_limit = kMemoryLimit});
    CHECK(m.result.verdict == Verdict::unknown);
    CHECK(m.result.reason.find("timeout") != std::string::npos);
    CHECK(m.result.peak_search_bytes == 0);
  }

  TEST_CASE("auto: --timeout and --memory-limit hold for the race") {
    const HardHistory h = hard_for(Engine::automatic);
    expect_timeout_held(timed_check(h, {.engine = Engine::automatic, .timeout_seconds = kTimeout}),
                        "auto, timeout 1 s");
    expect_memory_limit_held(h, Engine::automatic, kMemoryLimit);
  }

  // ---------------------------------------------------------------------------------
  // The command line: every engine once per limit, timed and measured from outside.

  TEST_CASE("check --timeout 1 returns unknown on time with every engine") {
    for (const Engine engine : {Engine::wgl, Engine::jit, Engine::sat, Engine::smt, Engine::brute, Engine::automatic}) {
      CAPTURE(engine_name(engine));
      cli_timeout_holds(engine, hard_for(engine));
    }
    cli_timeout_holds(Engine::smt, linearizable_crash_storm());
  }

  TEST_CASE("check --memory-limit keeps every engine's resident memory within the limit") {
    // The race: unknown for the memory limit's sake, and far from twice the limit; how
    // close to the limit itself is the last case of this file.
    const std::uint64_t race = cli_memory_limit_holds(Engine::automatic, hard_for(Engine::automatic), kMemoryLimit,
                                                      memory_reason(kMemoryLimit));
    CHECK(race <= kMemoryLimit + kMemoryLimit / 2);
    for (const Engine engine : {Engine::wgl, Engine::jit, Engine::sat, Engine::smt}) {
      CAPTURE(engine_name(engine));
      const std::uint64_t limit = engine == Engine::wgl ? kWglMemoryLimit : kMemoryLimit;
      const std::uint64_t growth = cli_memory_limit_holds(engine, hard_for(engine), limit, memory_reason(limit));
      CHECK(growth <= limit + kAllocatorSlack);
    }
    // Z3's own memory: loading a crash storm's formula takes it about 200 MiB, and the
    // load stops when the budget runs out. (Its context alone counts 17 MiB, so below
    // that no SMT run gets anywhere.)
    const std::uint64_t z3 =
        cli_memory_limit_holds(Engine::smt, linearizable_crash_storm(), kMemoryLimit, memory_reason(kMemoryLimit));
    CHECK(z3 <= kMemoryLimit + kAllocatorSlack);
    // Brute force holds no search memory; the timeout ends it, and its memory stays flat.
    const std::uint64_t brute =
        cli_memory_limit_holds(Engine::brute, hard_for(Engine::brute), kMemoryLimit, "timeout after 1 s", "1");
    CHECK(brute <= kAllocatorSlack);
  }

}  // TEST_SUITE("limits")

TEST_SUITE("limits") {
  // The race (--engine auto) once let the process grow 37-41 MiB past its baseline with
  // --memory-limit 32MiB, where each engine alone stays under 28 MiB. The budget cannot
  // see memory an engine gave back that stays resident in its thread's malloc arena; the
  // referee (portfolio/race.cpp), which watches the resident size, is there for that,
  // but it allowed the whole limit on top of the resident size at the race's start,
  // which already held WGL's memo table. It now allows what the budget has left
  // (portfolio/check.cpp, Scheduler::race).
  TEST_CASE("check --engine auto --memory-limit keeps the race's resident memory within the limit") {
    const HardHistory h = hard_for(Engine::automatic);
    TempDir dir;
    const std::string file = write_history(dir, h);
    const std::uint64_t baseline = baseline_rss(dir, file, h.model_spec, Engine::automatic);
    std::uint64_t worst = 0;
    for (int run = 0; run < 3; ++run) {
      const MeasuredRun r =
          run_check(file, h.model_spec, Engine::automatic, {"--memory-limit", "32MiB", "--timeout", "20"});
      const std::uint64_t growth = r.peak_rss_bytes > baseline ? r.peak_rss_bytes - baseline : 0;
      MESSAGE("auto, 32 MiB, ", h.name, ": exit ", r.status, " (", reason_of(r), "), ", mebibytes(growth),
              " MiB past the baseline");
      CHECK_FALSE(r.killed);
      worst = std::max(worst, growth);
    }
    // The referee polls every 5 ms, late on a loaded machine (measured worst: 35.6 MiB
    // with other builds running); the same slack as each engine alone.
    CHECK(worst <= kMemoryLimit + kAllocatorSlack);
  }

}  // TEST_SUITE("limits")

TEST_SUITE("limits") {
  // A 2,000-op unordered-queue history with a planted violation: SAT refutes it in
  // 0.3 s, and the core's relaxed checks then loaded formulas of millions of variables
  // into CaDiCaL, whose tables are sized in one step nothing polls: 790 MiB under
  // --memory-limit 512MiB and 1.17 s under --timeout 1. Loading now asks the limits
  // first with CaDiCaL's own estimate (solvers/cadical_solver.cpp).
  TEST_CASE("check --memory-limit holds while the core loads large formulas into the solver") {
    TempDir dir;
    const std::string file = (dir.path() / "queue.edn").string();
    const auto generated = run_cli({"generate", "atomic", "--model", "unordered-queue", "--ops", "2000", "--processes",
                                    "10", "--crash-rate", "0.02", "--seed", "1", "--violation", "-o", file});
    REQUIRE(generated.status == 0);
    const MeasuredRun r =
        run_check(file, "unordered-queue", Engine::sat, {"--timeout", "20", "--memory-limit", "256MiB"});
    MESSAGE("unordered-queue, sat, 256 MiB: exit ", r.status, " after ", r.seconds, " s, peak RSS ",
            mebibytes(r.peak_rss_bytes), " MiB");
    CHECK_FALSE(r.killed);
    CHECK(r.status == 1);  // the verdict stands; the core may be cut short
    CHECK(r.peak_rss_bytes <= 256 * kMiB + 256 * kMiB / 10);
  }

}  // TEST_SUITE("limits")
