// The reproduce scripts under papers/ (one folder per published result) run against the
// built binary and still reproduce their claims: each exits 0 and prints its
// "REPRODUCED:" line. The scripts need python3 (standard library only); the ones that
// read the shared third-party corpora print "skipped" and exit 0 when ../shared is
// absent, and so do these tests. The scripts measure times, but nothing here asserts
// one.
#include "cli/cli_runner.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace ariadne::cli_test {

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;

// `text` quoted for sh: inside single quotes, each ' becomes '\''.
std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Runs `python3 papers/<folder>/reproduce.py --ariadne ARIADNE_CLI_PATH <args...>` through
// the shell, its output captured in files (a full pipe cannot block it). Status 127: the
// shell found no python3.
RunResult run_reproduce(const std::string& folder, const std::vector<std::string>& args = {}) {
  TempDir capture;
  const fs::path out_path = capture.path() / "stdout";
  const fs::path err_path = capture.path() / "stderr";
  std::string command = "python3 " + shell_quoted(kSourceDir + "/papers/" + folder + "/reproduce.py") + " --ariadne " +
                        shell_quoted(ARIADNE_CLI_PATH);
  for (const std::string& arg : args) command += " " + shell_quoted(arg);
  command += " >" + shell_quoted(out_path.string()) + " 2>" + shell_quoted(err_path.string());
  const int wait_status = std::system(command.c_str());
  RunResult result;
  result.status = wait_status != -1 && WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  result.out = read_text(out_path);
  result.err = read_text(err_path);
  return result;
}

bool shared_corpus_present() {
  return std::filesystem::exists(kSourceDir + "/../shared/corpus/porcupine/expected.tsv");
}

// The script reproduced its claim: exit 0 and `line` in its output.
void check_reproduced(const std::string& folder, const std::string& line, const std::vector<std::string>& args = {}) {
  const RunResult run = run_reproduce(folder, args);
  if (run.status == 127) {
    MESSAGE("skipped: python3 is not on PATH");
    return;
  }
  INFO("papers/", folder, " exited ", run.status, "\nstdout:\n", run.out, "\nstderr:\n", run.err);
  CHECK(run.status == 0);
  CHECK(run.out.find(line) != std::string::npos);
}

}  // namespace

TEST_SUITE("papers") {
  TEST_CASE("papers: Herlihy and Wing's queue and register histories H1-H6 get the paper's verdicts") {
    check_reproduced("herlihy-wing-1990", "REPRODUCED: all 6 verdicts match the paper");
    check_reproduced("herlihy-wing-1990", "REPRODUCED (section 3.3): H7 sequentially consistent, not linearizable");
  }

  TEST_CASE("papers: the 6.5840 lecture's examples 1-6 get the lecture's verdicts") {
    check_reproduced("mit-6.5840-lecture", "REPRODUCED: all 6 verdicts match the lecture");
  }

  TEST_CASE("papers: the A-D worked example is refuted by a minimal core of all four ops") {
    check_reproduced("worked-example-abcd", "REPRODUCED: not linearizable; the minimal core is all four ops");
  }

  TEST_CASE("papers: all 102 Jepsen etcd histories of Horn and Kroening get their expected verdicts") {
    if (!shared_corpus_present()) {
      MESSAGE("skipped: ../shared/corpus/porcupine is absent (a plain clone has no ../shared)");
      return;
    }
    check_reproduced("horn-kroening-2015", "REPRODUCED: 102 of 102 etcd verdicts match", {"--runs", "1"});
  }

  // About 8 s: the 1,055 small collection histories once each, and the cores of the 183
  // refuted ones, a process each.
  TEST_CASE("papers: the Violin, LiMo and fastlin histories get their published verdicts and minimal cores") {
    if (!std::filesystem::exists(kSourceDir + "/../shared/corpus/collections/expected.tsv")) {
      MESSAGE("skipped: ../shared/corpus/collections is absent (a plain clone has no ../shared)");
      return;
    }
    check_reproduced("collections-2015-2025", "REPRODUCED: 1055 of 1055 published verdicts",
                     {"--quick", "--runs", "1"});
  }

  // About 1 s: 5 seeds of Knossos' budget for both designs, the exhaustive search of
  // redis-wait to depth 15 (a counterexample) and of the fenced design to depth 15 (none).
  TEST_CASE("papers: Knossos' Redis WAIT model fails in Knossos' budget and the term-fenced design does not") {
    check_reproduced("knossos-redis-wait", "REPRODUCED: Knossos' model of Redis WAIT is not linearizable", {"--quick"});
  }

  // About 2 s: the article's scenario replayed (the acknowledged write lost, the history
  // linearizable) and its variant with one more read (refuted), the 8-step counterexample,
  // and 5 partition lengths, measure-only and checked.
  TEST_CASE("papers: Jepsen's Redis redux scenario loses an acknowledged write, more the longer the partition") {
    check_reproduced("jepsen-redis-redux", "REPRODUCED: a healed partition loses acknowledged writes", {"--quick"});
  }
}

TEST_SUITE("slow") {
  // About 20 s: the race on every key, then SAT and WGL alone with a 2 s limit, under
  // which WGL gives up on keys 0, 5, 7 and 9 (it must never contradict the race).
  TEST_CASE("papers: every key of Porcupine's c50-bad is refuted, key 0 included, and no engine alone disagrees") {
    if (!shared_corpus_present()) {
      MESSAGE("skipped: ../shared/corpus/porcupine is absent (a plain clone has no ../shared)");
      return;
    }
    check_reproduced("porcupine-c50-bad", "REPRODUCED: every key is refuted (10 of 10)",
                     {"--runs", "1", "--engines", "wgl,sat", "--timeout", "2"});
  }

  // A small version of the scaling sweep (sizes 100 and 200, one seed), written to a
  // temporary folder so the committed runs.tsv, medians.tsv and scaling.svg stay as
  // they are: every generated history gets the verdict its construction gives it.
  TEST_CASE("papers: Gibbons and Korach's sweep, small, decides every unique-value register history") {
    TempDir out;
    check_reproduced("gibbons-korach-1997", "REPRODUCED: every unique-value history decided by the race",
                     {"--sizes", "100,200", "--seeds", "1", "--timeout", "5", "--out", out.path().string()});
  }
}

}  // namespace ariadne::cli_test
