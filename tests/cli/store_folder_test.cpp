// A Jepsen store folder in place of a history file: `check` reads its history.edn,
// else its history.txt (the tab-separated lines Jepsen writes there), through the
// store/<test>/latest link too, and answers exactly as it does on the file; a folder
// with neither is bad input (exit 65) naming the folder.
#include "cli_runner.hpp"
#include "mini_json.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace ariadne::cli_test;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// The verdict, core and linearization of `check PATH --json`: what must not depend
// on whether the path is the file or its folder.
std::string answer_of(const std::string& path, const std::string& model) {
  const RunResult run = run_cli({"check", path, "--model", model, "--json"});
  REQUIRE_MESSAGE(run.status <= 1, run.err);
  const Json json = parse_json(run.out);
  std::string answer = json["verdict"].string;
  for (const char* key : {"core", "linearization"}) {
    answer += std::string(" ") + key;
    if (!json.has(key)) continue;
    for (const long long id : json[key].integers()) answer += " " + std::to_string(id);
  }
  return answer;
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("check: a Jepsen store folder reads its history.edn, else its history.txt, also through latest") {
    TempDir dir;
    const std::string src = ARIADNE_SOURCE_DIR;
    // history.edn: a copy of a committed history.
    const fs::path edn_run = dir.path() / "store/etcd/20261201T120000.000Z";
    const fs::path source = fs::path(src) / "corpus/classic/lecture-example-6.edn";
    fs::create_directories(edn_run);
    fs::copy_file(source, edn_run / "history.edn");
    fs::create_directory_symlink("20261201T120000.000Z", dir.path() / "store/etcd/latest");
    const std::string expected = answer_of(source.string(), "register");
    CHECK(answer_of(edn_run.string(), "register") == expected);
    CHECK(answer_of((dir.path() / "store/etcd/latest").string(), "register") == expected);

    // history.txt alone: process, type, f and value separated by tabs, a nemesis line
    // among them, as Jepsen writes the file. A stale read: not linearizable.
    const fs::path txt_run = dir.path() / "store/register/20261201T130000.000Z";
    const std::string lines =
        "0\t:invoke\t:write\t1\n"
        "0\t:ok\t:write\t1\n"
        ":nemesis\t:info\t:start\tnil\n"
        "0\t:invoke\t:write\t2\n"
        "0\t:ok\t:write\t2\n"
        "1\t:invoke\t:read\tnil\n"
        "1\t:ok\t:read\t1\n";
    write(txt_run / "history.txt", lines);
    write(dir.path() / "history.txt", lines);
    const std::string from_folder = answer_of(txt_run.string(), "register(0)");
    CHECK(from_folder.starts_with("not-linearizable"));
    CHECK(from_folder == answer_of((dir.path() / "history.txt").string(), "register(0)"));

    // With both, history.edn wins.
    fs::copy_file(source, txt_run / "history.edn");
    CHECK(answer_of(txt_run.string(), "register") == expected);
  }

  TEST_CASE("check: a folder without a history file is bad input naming the folder") {
    TempDir dir;
    const fs::path empty = dir.path() / "store/etcd/empty";
    fs::create_directories(empty);
    const RunResult run = run_cli({"check", empty.string(), "--model", "register"});
    CHECK(run.status == 65);
    CHECK_MESSAGE(
        run.err.find(empty.string() + ": is a directory without history.edn or history.txt") != std::string::npos,
        run.err);
  }

}  // TEST_SUITE
