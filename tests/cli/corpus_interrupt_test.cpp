// Ctrl-C during `ariadne corpus`: the CLI runs as a child process on a corpus whose
// first rows are instant and whose last rows are histories that WGL alone would
// search for minutes; a signal sent a second in must cancel the running search, skip
// the rows not started, print the rows done with a line saying how many were not
// checked, and exit with 128 + the signal's number, all within a few seconds.
#include "background_cli.hpp"
#include "cli_runner.hpp"
#include "support/slow_history.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <thread>

namespace ariadne::cli_test {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kInstant =
    "; expected: linearizable\n; model: register(0)\n"
    "[{:process 0, :type :invoke, :f :write, :value 1}\n"
    " {:process 0, :type :ok, :f :write, :value 1}\n"
    " {:process 1, :type :invoke, :f :read, :value nil}\n"
    " {:process 1, :type :ok, :f :read, :value 1}]\n";

// Three instant rows (a-*.edn sort first) and three slow ones (support/slow_history.hpp):
// with --engine wgl and no timeout, each takes far longer than this test may wait,
// while its memory stays small (about 120 MB after 2 s).
void write_slow_corpus(const TempDir& dir) {
  for (const char* name : {"a-instant-1.edn", "a-instant-2.edn", "a-instant-3.edn"}) dir.write(name, kInstant);
  for (const char* name : {"b-slow-1.edn", "b-slow-2.edn", "b-slow-3.edn"}) {
    dir.write(name, testing::wgl_slow_history_edn());
  }
}

// Sends `signal_number` a second (or `delay`) after starting the run and waits for
// the child; returns the seconds it took to end after the signal.
double interrupt_after_a_second(BackgroundCli& cli, int signal_number,
                                std::chrono::milliseconds delay = std::chrono::seconds(1)) {
  std::this_thread::sleep_for(delay);
  REQUIRE_FALSE_MESSAGE(cli.wait(std::chrono::milliseconds(0)), "the run ended before the signal: ", cli.out());
  const auto signalled = Clock::now();
  cli.signal(signal_number);
  // A couple of seconds is the promise; the bound leaves room for a loaded machine.
  const bool ended = cli.wait(std::chrono::seconds(8));
  const double seconds = std::chrono::duration<double>(Clock::now() - signalled).count();
  REQUIRE_MESSAGE(ended, "still running 8 s after the signal");
  MESSAGE("ended " << seconds << " s after the signal");
  return seconds;
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("corpus: Ctrl-C cancels the running check and prints the rows done, exit 130") {
    TempDir dir;
    write_slow_corpus(dir);
    BackgroundCli cli({"corpus", dir.path().string(), "--jobs", "1", "--engine", "wgl"});
    interrupt_after_a_second(cli, SIGINT);

    REQUIRE_MESSAGE(cli.exited(), "ended by a signal instead of exiting");
    CHECK(cli.exit_status() == 130);
    const std::string out = cli.out();
    for (const char* name : {"a-instant-1.edn", "a-instant-2.edn", "a-instant-3.edn"}) {
      CHECK_MESSAGE(out.find(name) != std::string::npos, out);
    }
    CHECK(out.find("b-slow") == std::string::npos);  // cancelled or never started: not in the table
    CHECK_MESSAGE(out.find("rows 3  matches 3") != std::string::npos, out);
    CHECK_MESSAGE(out.find("interrupted by SIGINT: 3 of 6 rows not checked") != std::string::npos, out);
  }

  TEST_CASE("corpus: SIGTERM gives the partial --json report, marked interrupted, exit 143") {
    TempDir dir;
    write_slow_corpus(dir);
    BackgroundCli cli({"corpus", dir.path().string(), "--jobs", "2", "--engine", "wgl", "--json"});
    interrupt_after_a_second(cli, SIGTERM);

    REQUIRE(cli.exited());
    CHECK(cli.exit_status() == 143);
    const Json report = parse_json(cli.out());
    CHECK(report["interrupted"]["signal"].string == "SIGTERM");
    CHECK(report["interrupted"]["rows"].number == 6);
    CHECK(report["interrupted"]["unchecked"].number == 6 - report["rows"].array.size());
    CHECK(report["rows"].array.size() == 3);
    CHECK(report["totals"]["rows"].number == report["rows"].array.size());
    for (const Json& row : report["rows"].array) CHECK(row["file"].string.starts_with("a-instant-"));
  }

  TEST_CASE("corpus --certify: a row the signal stops after its verdict is interrupted, never a mismatch") {
    // The queue violation's verdict and core take well under a second, but its proof
    // tries the core's formula for 20 s before it proves the whole partition: a
    // signal three seconds in (time for the verdict on a loaded machine) finds it
    // writing the proof. Its verdict matched; the signal
    // says nothing against it (issue 41: it was counted a mismatch).
    TempDir dir;
    for (const char* name : {"a-instant-1.edn", "a-instant-2.edn"}) dir.write(name, kInstant);
    const auto generated =
        run_cli({"generate", "atomic", "--model", "fifo-queue", "--ops", "2000", "--processes", "10", "--crash-rate",
                 "0.02", "--seed", "2", "--violation", "-o", (dir.path() / "b-queue.edn").string()});
    REQUIRE_MESSAGE(generated.status == 0, generated.err);
    TempDir certificates;
    for (const bool json : {false, true}) {
      CAPTURE(json);
      std::vector<std::string> args = {"corpus", dir.path().string(), "--jobs",
                                       "1",      "--certify",         certificates.path().string()};
      if (json) args.push_back("--json");
      BackgroundCli cli(args);
      interrupt_after_a_second(cli, SIGTERM, std::chrono::seconds(3));
      REQUIRE(cli.exited());
      CHECK(cli.exit_status() == 143);
      if (!json) {
        CHECK_MESSAGE(cli.out().find("interrupted 1") != std::string::npos, cli.out());
        CHECK_MESSAGE(cli.out().find("mismatches 0") != std::string::npos, cli.out());
        CHECK(cli.out().find("mismatch ") == std::string::npos);
        continue;
      }
      const Json report = parse_json(cli.out());
      REQUIRE(report["rows"].array.size() == 3);
      const Json& queue = report["rows"].array[2];
      CHECK(queue["file"].string == "b-queue.edn");
      CHECK(queue["verdict"].string == "not-linearizable");
      CHECK(queue["interrupted"].boolean);
      CHECK(report["totals"]["mismatches"].number == 0);
      CHECK(report["totals"]["interrupted"].number == 1);
      CHECK(report["totals"]["matches"].number == 2);
    }
  }

}  // TEST_SUITE

}  // namespace ariadne::cli_test
