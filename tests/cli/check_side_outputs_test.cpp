// `check --html FILE` and `check --proof DIR`, the outputs written beside the answer
// (issue 41): their paths are checked before any work; a path that cannot be written
// is a usage error then, and an output that fails later anyway (a limit, a full disk)
// is a warning and "written": false with its reason in --json, the verdict's exit
// status unchanged; total_ms counts them.
#include "background_cli.hpp"
#include "cli_runner.hpp"
#include "mini_json.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>

namespace ariadne::cli_test {

namespace {

const std::string kExample1 = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic/lecture-example-1.edn";
const std::string kExample3 = std::string(ARIADNE_SOURCE_DIR) + "/corpus/classic/lecture-example-3.edn";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("check: an --html or --proof path that cannot be written is a usage error before the history is read") {
    TempDir dir;
    const std::string plain_file = dir.write("plain.txt", "not a folder");
    const std::string no_history = (dir.path() / "no-such-history.edn").string();
    const std::vector<std::vector<std::string>> refused = {
        {"--html", (dir.path() / "no-folder" / "r.html").string()},
        {"--html", dir.path().string()},            // a folder
        {"--html", plain_file + "/r.html"},         // below a file
        {"--proof", plain_file},                    // a file
        {"--proof", plain_file + "/deeper/proof"},  // below a file
    };
    for (const auto& option : refused) {
      CAPTURE(option[0]);
      CAPTURE(option[1]);
      // The history is missing too: 64 and not 65 shows the output was checked first.
      const RunResult missing = run_cli({"check", no_history, "--model", "register", option[0], option[1]});
      CHECK_MESSAGE(missing.status == 64, missing.err);
      CHECK_MESSAGE(contains(missing.err, option[0] + ": cannot write " + option[1]), missing.err);
      // With a real history: no verdict is printed, no work done.
      const RunResult real = run_cli({"check", kExample3, "--model", "register", option[0], option[1]});
      CHECK(real.status == 64);
      CHECK(real.out.empty());
    }
    // A proof folder that does not exist yet is fine: the writer creates it.
    const RunResult created =
        run_cli({"check", kExample3, "--model", "register", "--proof", (dir.path() / "a" / "b").string()});
    CHECK_MESSAGE(created.status == 1, created.err);
    CHECK(fs::exists(dir.path() / "a" / "b" / "proof.json"));
  }

  TEST_CASE("check: an --html that fails after the check is a warning and a JSON field; the exit status stays") {
    // /dev/full passes the check before the work (it is writable) and then refuses
    // every byte: the failure comes after the verdict, as a full disk's would.
    if (!fs::exists("/dev/full")) return;
    for (const std::string& file : {kExample1, kExample3}) {
      const RunResult run = run_cli({"check", file, "--model", "register", "--html", "/dev/full", "--json"});
      CHECK_MESSAGE(run.status == (file == kExample1 ? 0 : 1), run.err);
      CHECK_MESSAGE(contains(run.err, "ariadne: warning: --html: failed writing /dev/full"), run.err);
      const Json json = parse_json(run.out);
      CHECK(json["html"]["path"].string == "/dev/full");
      CHECK(json["html"]["written"].boolean == false);
      CHECK(json["html"]["reason"].string == "write-failed");
      CHECK(json["verdict"].string == (file == kExample1 ? "linearizable" : "not-linearizable"));
    }
  }

  TEST_CASE("check --html and --proof written say so in --json; a proof of a linearizable answer says why not") {
    TempDir dir;
    const std::string html = (dir.path() / "r.html").string();
    const std::string proof = (dir.path() / "proof").string();
    const RunResult refuted =
        run_cli({"check", kExample3, "--model", "register", "--html", html, "--proof", proof, "--json"});
    CHECK(refuted.status == 1);
    // stderr says where the page went (and nothing else: no warning).
    CHECK_MESSAGE(refuted.err.starts_with("ariadne: wrote the report to " + html + " ("), refuted.err);
    CHECK_MESSAGE(refuted.err.ends_with(" KB)\n"), refuted.err);
    CHECK(std::count(refuted.err.begin(), refuted.err.end(), '\n') == 1);
    const Json json = parse_json(refuted.out);
    CHECK(json["html"]["written"].boolean);
    CHECK_FALSE(json["html"].has("reason"));
    CHECK(json["proof"]["written"].boolean);
    CHECK(contains(read_text(html), "<!DOCTYPE html>"));
    // Nothing is left beside the report but the report.
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir.path())) files += entry.is_regular_file() ? 1 : 0;
    CHECK(files == 1);

    const RunResult linearizable = run_cli({"check", kExample1, "--model", "register", "--proof", proof, "--json"});
    CHECK(linearizable.status == 0);
    CHECK(linearizable.err.empty());  // not asked for in vain: no warning
    const Json answer = parse_json(linearizable.out);
    CHECK(answer["proof"]["written"].boolean == false);
    CHECK(answer["proof"]["reason"].string == "not-refuted");
  }

  TEST_CASE("check --html leaves the answer on stdout as it is without it") {
    // --html computes the linearizable prefix for the page's states; the answer prints
    // it only when --prefix asks.
    TempDir dir;
    const std::string html = (dir.path() / "r.html").string();
    const RunResult with = run_cli({"check", kExample3, "--model", "register", "--html", html, "--json"});
    const RunResult without = run_cli({"check", kExample3, "--model", "register", "--json"});
    CHECK(with.status == 1);
    const Json a = parse_json(with.out), b = parse_json(without.out);
    CHECK_FALSE(a.has("prefix_linearization"));
    CHECK(a["core"].array.size() == b["core"].array.size());
    CHECK(a["explanation"].string == b["explanation"].string);
    const RunResult asked = run_cli({"check", kExample3, "--model", "register", "--html", html, "--prefix", "--json"});
    CHECK(parse_json(asked.out).has("prefix_linearization"));
    // The text answer too, apart from its timings.
    const auto untimed = [](const std::string& text) {
      std::string out;
      std::size_t at = 0;
      while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string line = text.substr(at, end - at);
        if (line.find(" ms") == std::string::npos) out += line + "\n";
        at = end + 1;
      }
      return out;
    };
    const RunResult text_with = run_cli({"check", kExample3, "--model", "register", "--html", html});
    const RunResult text_without = run_cli({"check", kExample3, "--model", "register"});
    CHECK(untimed(text_with.out) == untimed(text_without.out));
  }

  TEST_CASE("check --html to /dev/stdout or through a symbolic link writes through it and never replaces it") {
    TempDir dir;
    // Standard output here is a file (run_cli's capture), so /dev/stdout is a link to a
    // regular file: the page goes through stdout before the answer, and the link is
    // never replaced by a renamed file (which, as root, it once was).
    if (fs::is_symlink("/dev/stdout")) {
      const RunResult piped = run_cli({"check", kExample3, "--model", "register", "--html", "/dev/stdout"});
      CHECK(piped.out.starts_with("<!DOCTYPE html>"));
      CHECK(contains(piped.out, "</html>\nNOT LINEARIZABLE"));
      CHECK_MESSAGE(piped.err.empty(), piped.err);
      CHECK(fs::is_symlink("/dev/stdout"));
    }
    // A link elsewhere is written through, and stays a link.
    const fs::path target = dir.path() / "target.html", link = dir.path() / "link.html";
    fs::create_symlink(target, link);
    const RunResult linked = run_cli({"check", kExample3, "--model", "register", "--html", link.string()});
    CHECK(linked.status == 1);
    CHECK(fs::is_symlink(link));
    CHECK(contains(read_text(target.string()), "<!DOCTYPE html>"));
  }

  TEST_CASE("check --proof cut short by a limit says written false, keeps the verdict, and total_ms counts it") {
    // The core of this queue violation comes in milliseconds, but its proof falls
    // back to the whole partition's formula of 8.8 million clauses, which takes
    // longer than a second and more than 64 MiB (corpus/regressions/README.md). The
    // same history of 2,000 ops, 930,000 clauses, came to fit in a second once the
    // heap was on huge pages (cli/process_heap.hpp).
    TempDir dir;
    const std::string history = (dir.path() / "queue.edn").string();
    const RunResult generated = run_cli({"generate", "atomic", "--model", "fifo-queue", "--ops", "4000", "--processes",
                                         "10", "--crash-rate", "0.02", "--seed", "2", "--violation", "-o", history});
    REQUIRE_MESSAGE(generated.status == 0, generated.err);
    const std::string proof = (dir.path() / "proof").string();
    struct Limit {
      const char* option;
      const char* value;
      const char* reason;
    };
    // The memory limit once ended in "no proof: the solver was stopped", exit 64 and
    // no JSON: the resident-memory limit is withdrawn once the solver is freed.
    for (const Limit limit : {Limit{"--timeout", "1", "timeout"}, Limit{"--memory-limit", "64MiB", "memory"}}) {
      CAPTURE(limit.option);
      const RunResult run =
          run_cli({"check", history, "--model", "fifo-queue", "--proof", proof, "--json", limit.option, limit.value});
      REQUIRE_MESSAGE(run.status == 1, run.out, run.err);
      const Json json = parse_json(run.out);
      REQUIRE(json["proof"]["written"].boolean == false);
      CHECK(json["proof"]["reason"].string == limit.reason);
      CHECK(json["limit"].string == limit.reason);
      CHECK(json["limit_phase"].string == "proof");
      CHECK_MESSAGE(contains(run.err, std::string("ariadne: warning: no proof: ")), run.err);
      // The proof's time is in the whole command's: encoding the partition's
      // formula up to 64 MiB alone takes tens of milliseconds (85-90 ms measured).
      CHECK(json["total_ms"].number >= json["read_ms"].number + json["elapsed_ms"].number + 20);
      // A proof cut short leaves no files that would read as a proof.
      CHECK_FALSE(fs::exists(fs::path(proof) / "proof.json"));
      CHECK_FALSE(fs::exists(fs::path(proof) / "core.edn"));
    }
  }

  TEST_CASE("check --html: a signal while the report is built stops it, and it is said not written") {
    // 200,000 kv ops: the verdict takes about a second, the report several (issue 41:
    // the report ran outside every limit, Ctrl-C included, and was written anyway).
    TempDir dir;
    const std::string history = (dir.path() / "kv.edn").string();
    const RunResult generated = run_cli({"generate", "atomic", "--model", "kv", "--keys", "1000", "--ops", "200000",
                                         "--processes", "8", "--seed", "3", "-o", history});
    REQUIRE_MESSAGE(generated.status == 0, generated.err);
    const std::string html = (dir.path() / "r.html").string();
    BackgroundCli cli({"check", history, "--model", "kv", "--json", "--html", html, "--progress"});
    REQUIRE_MESSAGE(cli.wait_for_stderr(", the report", std::chrono::seconds(60)), cli.err());
    cli.signal(SIGTERM);
    REQUIRE_MESSAGE(cli.wait(std::chrono::seconds(5)), "still running 5 s after the signal");
    CHECK(cli.exit_status() == 143);
    const Json json = parse_json(cli.out());
    CHECK(json["verdict"].string == "linearizable");
    CHECK(json["html"]["written"].boolean == false);
    CHECK(json["html"]["reason"].string == "cancelled");
    CHECK(json["limit_phase"].string == "report");
    CHECK_FALSE(fs::exists(html));
    // Nothing half-written is left beside it either.
    for (const auto& entry : fs::directory_iterator(dir.path())) CHECK(entry.path().extension() != ".partial");
  }
}  // TEST_SUITE

}  // namespace ariadne::cli_test
