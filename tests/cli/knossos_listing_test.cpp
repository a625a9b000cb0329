// The real Knossos listings (docs/knossos-harness/results/, written by the harness
// from Knossos' own runs on the three corpora) read back by `ariadne cross-check
// --import knossos`: every disagreement is reported, each with its reason. Knossos is
// not needed to run this; the shared corpora are (skipped without them), except for
// our own corpus.
#include "cli_runner.hpp"
#include "support/text_count.hpp"

#include <doctest/doctest.h>

#include <string>

namespace ariadne::cli_test {

namespace {

using testing::count_occurrences;

const std::string kSource = ARIADNE_SOURCE_DIR;
const std::string kResults = kSource + "/docs/knossos-harness/results/";

// The lines of one file's entry, from its header at `at` up to the next header (a
// line indented by two spaces; its problem lines are indented by four).
std::string file_block(const std::string& out, std::size_t at) {
  auto end = at;
  do {
    end = out.find("\n", end + 1);
  } while (end != std::string::npos && out.compare(end + 1, 4, "    ") == 0);
  return out.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// Every problem line of a Knossos result carries a reason: the exception Knossos
// threw, or, for a contradicting verdict, what ariadne's answer rests on and the
// reading that explains the difference. On the real listings, one always does.
void check_every_disagreement_has_a_reason(const std::string& out) {
  std::size_t lines = 0;
  for (auto at = out.find("    - knossos "); at != std::string::npos; at = out.find("    - knossos ", at + 1)) {
    const std::string line = out.substr(at, out.find('\n', at) - at);
    INFO(line);
    ++lines;
    if (line.find(" threw ") != std::string::npos) continue;
    CHECK(line.find("ariadne's engines (certified) say") != std::string::npos);
    const bool explained = line.find("read as Knossos reads a crashed op") != std::string::npos ||
                           line.find("ariadne left out") != std::string::npos ||
                           line.find("as a vector; ariadne reads a vector as the set") != std::string::npos;
    CHECK(explained);
  }
  CHECK(lines > 0);
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("cross-check --import knossos on Knossos' real listing of our corpus names each disagreement's reason") {
    const auto run = run_cli({"cross-check", kSource + "/corpus", "--engines", "auto", "--no-proofs", "--import",
                              "knossos", kResults + "ours.edn"});
    CHECK(run.status == 1);
    check_every_disagreement_has_a_reason(run.out);
    // Crashed dequeues: Knossos steps them with their invocation's nil, so they never
    // take an element; read that way, ariadne refutes these histories too.
    for (const char* file :
         {"edge-cases/fifo-queue-crashed-dequeue-takes-front.edn", "generated/fifo-queue/atomic-fifo-queue-30-1.edn",
          "generated/fifo-queue/atomic-fifo-queue-60-3.edn", "generated/fifo-queue/atomic-fifo-queue-120-5.edn"}) {
      const auto at = run.out.find(std::string("  ") + file + " (");
      REQUIRE_MESSAGE(at != std::string::npos, file);
      const std::string block = file_block(run.out, at);
      CHECK_MESSAGE(count_occurrences(block, "read as Knossos reads a crashed op") == 2, block);
    }
    // A set read written as a vector, which Knossos' set model never finds equal to a set.
    const auto at = run.out.find("  edge-cases/set-read-concurrent-add.edn (");
    REQUIRE(at != std::string::npos);
    CHECK_MESSAGE(
        count_occurrences(file_block(run.out, at), "the completed read 4 (read [1]) gives its set as a vector") == 2,
        run.out);
    // The :nemesis write Knossos' wgl takes as an op, and its linear analyzer's assertion.
    CHECK(run.out.find("knossos wgl says linearizable, ariadne's engines (certified) say not-linearizable; it ran "
                       "the model (register 0); ariadne left out 2 client-like events of :nemesis") !=
          std::string::npos);
    // Knossos' two bugs kept in corpus/knossos-bugs/.
    CHECK(run.out.find("knossos wgl threw java.lang.ArrayIndexOutOfBoundsException: Index -1") != std::string::npos);
    CHECK(run.out.find("knossos linear threw java.lang.ArithmeticException: integer overflow") != std::string::npos);
  }

  TEST_CASE("cross-check --import knossos on Knossos' real listings of the shared corpora") {
    const std::string shared = kSource + "/../shared/corpus/";
    if (!fs::is_directory(shared + "knossos") || !fs::is_directory(shared + "porcupine")) {
      MESSAGE("skipped: no shared corpora at ", shared);
      return;
    }
    // Knossos' own corpus: both analyzers agree wherever they answer.
    const auto knossos = run_cli({"cross-check", shared + "knossos/expected.tsv", "--engines", "auto", "--no-proofs",
                                  "--import", "knossos", kResults + "knossos.edn"});
    CHECK_MESSAGE(knossos.status == 0, knossos.out);
    CHECK(knossos.out.find("134 agree, 0 disagree, 0 unknown, 0 missing") != std::string::npos);

    // Porcupine's: no verdict contradicts ariadne's, and WGL throws on the 64 refuted
    // etcd logs whose :info lines say :timed-out.
    const auto porcupine = run_cli({"cross-check", shared + "porcupine/expected.tsv", "--engines", "auto",
                                    "--no-proofs", "--import", "knossos", kResults + "porcupine.edn"});
    CHECK(porcupine.status == 1);
    check_every_disagreement_has_a_reason(porcupine.out);
    CHECK(porcupine.out.find("wgl: 42 agree, 0 disagree, 66 unknown (2 timed out, 64 threw, 0 not run)") !=
          std::string::npos);
    CHECK(count_occurrences(porcupine.out, "knossos wgl threw java.lang.ArrayIndexOutOfBoundsException: Index -1") ==
          64);
    CHECK(porcupine.out.find("linear: 104 agree, 0 disagree") != std::string::npos);
  }
}

}  // namespace ariadne::cli_test
