// The executable's heap (cli/process_heap.hpp): a check faults in fewer pages than
// the same check with the settings left out, which a user's own GLIBC_TUNABLES malloc
// setting does. Counted with the kernel's own tally of the child's minor faults
// (wait4), which does not depend on the machine's load. The settings advise the heap
// for transparent huge pages, so the test runs where the kernel takes that advice
// (/sys/kernel/mm/transparent_hugepage/enabled "madvise"); where it is "always" every
// large heap gets huge pages anyway, and where it is "never" none do.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ariadne::cli_test;

namespace {

bool kernel_takes_huge_page_advice() {
  return read_text("/sys/kernel/mm/transparent_hugepage/enabled").find("[madvise]") != std::string::npos;
}

struct FaultedRun {
  int status = -1;
  long minor_faults = 0;
};

// Runs the command line with GLIBC_TUNABLES set to `tunables`, or unset if empty.
FaultedRun run_counting_faults(const std::vector<std::string>& args, const std::string& tunables) {
  rusage usage{};
  const RunResult run = run_cli(
      args,
      [&tunables] {
        if (tunables.empty()) {
          ::unsetenv("GLIBC_TUNABLES");
        } else {
          ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
        }
      },
      &usage);
  return {run.status, usage.ru_minflt};
}

// Any malloc tunable of the user's turns the settings off; this one changes nothing.
const std::string kUsersOwnTunable = "glibc.malloc.perturb=0";

}  // namespace

TEST_CASE("the heap settings spare a large check most page faults and a small one some") {
  if (!kernel_takes_huge_page_advice()) {
    MESSAGE("skipped: the kernel's transparent huge pages are not in madvise mode");
    return;
  }
  TempDir dir;
  const std::string large = (dir.path() / "large.edn").string();
  REQUIRE(run_cli({"generate", "atomic", "--model", "register(0)", "--values", "3", "--ops", "20000", "--seed", "2",
                   "-o", large})
              .status == 0);
  const std::vector<std::string> check_large{"check", large, "--model", "register(0)"};
  const FaultedRun tuned = run_counting_faults(check_large, "");
  const FaultedRun plain = run_counting_faults(check_large, kUsersOwnTunable);
  CHECK(tuned.status == 0);
  CHECK(plain.status == 0);
  // Measured: 270-600 against 1,440-1,480.
  CHECK(2 * tuned.minor_faults < plain.minor_faults);

  // The command line's parser and a 14-op check: 255-300 against 290-330, every page
  // of their heap on the first huge page.
  const std::string source = ARIADNE_SOURCE_DIR;
  const std::vector<std::string> check_small{"check", source + "/corpus/classic/herlihy-wing-h1.edn", "--model",
                                             "fifo-queue"};
  const FaultedRun small_tuned = run_counting_faults(check_small, "");
  const FaultedRun small_plain = run_counting_faults(check_small, kUsersOwnTunable);
  CHECK(small_tuned.status == small_plain.status);
  CHECK(small_tuned.minor_faults + 10 < small_plain.minor_faults);
}
