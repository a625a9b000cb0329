// The fast paths and the parallel reading are held to the general reader: on every
// file of corpus/ and of the shared corpora, on mutated copies of each, and on edge
// cases written for the seams (a map spanning lines, two maps on a line, a declined
// line at a block's edge, a byte-order mark, CRLF), the reading gives the same
// transcript (history/read_transcript.hpp): the same events at the same positions
// and the same warnings, or the same error at the same place.
#include "history/read_transcript.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace ariadne;

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The ways of reading compared with the general reader alone: the fast path on the
// calling thread, and in parallel with blocks of one line each (every line a block
// edge) and of 97 bytes (edges inside lines, moved to the next line start).
struct NamedPlan {
  const char* name;
  ReadPlan plan;
};
const NamedPlan kPlans[] = {
    {"fast, one thread", {true, 1, std::size_t{1} << 20}},
    {"fast, 3 threads, 1-byte blocks", {true, 3, 1}},
    {"fast, 2 threads, 97-byte blocks", {true, 2, 97}},
};
constexpr ReadPlan kGeneral{false, 1, std::size_t{1} << 20};

// Checks every plan against the general reader; returns the general transcript.
std::string expect_same_reading(std::string_view text, Format format, const std::string& what) {
  const std::string general = read_transcript(text, "h", format, kGeneral);
  for (const NamedPlan& plan : kPlans) {
    const std::string other = read_transcript(text, "h", format, plan.plan);
    if (other != general) {
      CAPTURE(what);
      CAPTURE(plan.name);
      CAPTURE(format_name(format));
      CHECK(other == general);
    }
  }
  return general;
}

std::vector<std::filesystem::path> history_files(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(root)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    if (ext == ".md" || ext == ".tsv") continue;
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Six edits that move the seams: lines joined and split, a byte that EDN reads
// specially inserted or removed, a line repeated, a digit made a letter.
std::vector<std::string> mutations(const std::string& text, unsigned seed) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  std::mt19937 random(seed);
  auto anywhere = [&] { return std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(random); };
  auto nth = [&](char c) -> std::size_t {
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == c) at.push_back(i);
    }
    return at.empty() ? anywhere() : at[std::uniform_int_distribution<std::size_t>(0, at.size() - 1)(random)];
  };
  const std::string specials = "{}[]()\"\\;#:, \n1-N.e";
  std::string s = text;
  s.erase(nth('\n'), 1);
  out.push_back(s);
  s = text;
  s.insert(anywhere(), "\n");
  out.push_back(s);
  s = text;
  s.insert(anywhere(), 1, specials[random() % specials.size()]);
  out.push_back(s);
  s = text;
  s.erase(anywhere(), 1);
  out.push_back(s);
  s = text;
  const std::size_t line = text.rfind('\n', anywhere());
  const std::size_t begin = line == std::string::npos ? 0 : line + 1;
  const std::size_t end = text.find('\n', begin);
  s.insert(begin, text.substr(begin, end == std::string::npos ? std::string::npos : end - begin + 1));
  out.push_back(s);
  s = text;
  for (std::size_t i = anywhere(); i < s.size(); ++i) {
    if (s[i] >= '0' && s[i] <= '9') {
      s[i] = "x9NM."[random() % 5];
      break;
    }
  }
  out.push_back(s);
  return out;
}

void expect_same_on_files(const std::filesystem::path& root) {
  unsigned seed = 1;
  std::size_t files = 0;
  for (const auto& path : history_files(root)) {
    const std::string text = slurp(path);
    expect_same_reading(text, Format::auto_detect, path.string());
    for (const std::string& mutated : mutations(text, seed++)) {
      expect_same_reading(mutated, Format::auto_detect, path.string() + " (mutated)");
    }
    ++files;
  }
  MESSAGE(files << " files under " << root.string());
}

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("fast and parallel readers read every project corpus file and its mutations as the general reader does") {
    expect_same_on_files(std::filesystem::path(ARIADNE_SOURCE_DIR) / "corpus");
  }

  TEST_CASE("fast and parallel readers read every shared corpus file and its mutations as the general reader does") {
    const auto shared = std::filesystem::path(ARIADNE_SOURCE_DIR) / ".." / "shared" / "corpus";
    if (!std::filesystem::is_directory(shared)) {
      MESSAGE("skipped: the shared corpus is not at " << shared.string());
      return;
    }
    expect_same_on_files(shared);
  }

  TEST_CASE("fast and parallel readers agree with the general reader on the seams") {
    const std::string a = "{:process 0, :type :invoke, :f :write, :value 1}\n";
    const std::string b = "{:process 0, :type :ok, :f :write, :value 1}\n";
    const std::vector<std::string> cases = {
        a + b,
        "\xEF\xBB\xBF" + a + b,                                          // byte-order mark
        a + "{:process 0, :type :ok,\n :f :write, :value 1}\n",          // a map spanning lines
        a + b + a + "{:process 0 :type :ok :f :write :value 1}",         // no final newline, no commas
        "{:process 0, :type :invoke, :f :write, :value 1} " + b,         // two maps on a line
        a + "; a comment\n\n  \t,\n" + b,                                // blank and comment lines
        a + "#_ {:process 9} " + b,                                      // a discarded form
        a + "{:process 0, :type :ok, :f :write, :value 1} ; done\n",     // a comment after the map
        "{:process 0,\r\n :type :invoke, :f :write, :value 1}\r\n" + b,  // CRLF
        "{:process 0, :type :invoke, :f :write, :value 1.5}\n",          // a float: declined
        "{:process 0, :type :invoke, :f :write, :value \"a\\\"b\"}\n",   // an escape: declined
        "{:process 0, :type :invoke, :f :write, :value \"two\nlines\"}\n",
        "{:process 99999999999999999999, :type :invoke, :f :write, :value 1}\n",  // a big integer
        "{:process 0, :type :invoke, :f :write, :value 123456789012345678}\n",    // 18 digits
        "{:process 0, :type :invoke, :f :write, :value -9223372036854775808}\n",
        "{:process 0, :type :invoke, :f :write, :value 007}\n",
        "{:process 0, :type :invoke, :f :txn, :value [[:r 1 nil] (:w 2 #{3 1}) {:a [nil true false]}]}\n",
        "{:process 0, :type :invoke, :f :write, :value #{1 1}}\n",  // a set with a duplicate
        "{:process 0, :type :invoke, :f :write, :value {:a 1 :a 2}}\n",
        "{:process 0, :type :invoke, :f :write, :value {:a}}\n",           // odd map
        "{:process 0, :type :invoke, :f :write, :process 1, :value 1}\n",  // a repeated key
        "{:process 0, :type :launch, :f :write, :value 1}\n",              // an unknown type
        "{:process 0, :type \"invoke\", :f :write, :value 1}\n",
        "{:process 0, :type :invoke, :value 1}\n",  // no :f
        "{:process :nemesis, :type :info, :f :start, :value nil}\n" + a + b,
        "{:process :nemesis, :type :info, :value [1 2]}\n",
        "{:process 0, :type :invoke, :f :write, :value 1, :index 1.5}\n",
        "{:process 0, :type :invoke, :f :write, :value 1, :index 99999999999999999999}\n",
        "{:process 0, :type :invoke, :f :write, :value 1, :time 12, :error [:timeout \"x\"]}\n",
        "{:process 0, ::type :invoke}\n",
        "{:process 0, :type :invoke, :f :a/b/, :value 1}\n",
        "{:process 0, \"type\" :invoke, :f :write, :value 1}\n",
        "{:process 0, :type :invoke, :f :write, :value 1 ; open\n}\n",
        "{:process 0, :type :invoke, :f :write, :value x}\n",
        "{:process 0, :type :invoke, :f :write, :value :a:b}\n",
        "{:process 0, :type :invoke, :f :write, :value 1}}\n",
        "{:process 0, :type :invoke, :f :write, :value [1 2)}\n",
        "{:process 0, :type :invoke, :f :write, :value 1\n",
        "[" + a + b + "]\n",
        "[" + a + "]\n" + b,
        // Op maps inside a vector, as Knossos writes them: the fast path reads each op
        // map that ends on its line, the general reader what lies between them.
        "[" + a + " " + b + "]",
        "(" + a + b + ")",
        "[{:process 0, :type :invoke, :f :write, :value 1}{:process 0, :type :ok, :f :write, :value 1}]",
        "[{:process 0, :type :invoke, :f :write, :value 1} {:process 0, :type :ok, :f :write, :value 1}]\n",
        "[{:process 0, :type :invoke, :f :write, :value 1}, ; a comment\n " + b + "]",
        "[" + a + " {:process 0, :type :ok,\n :f :write, :value 1}]\n",     // a map spanning lines
        "[" + a + " #_" + b + b + "]",                                      // a discarded op map
        "[" + a + " #foo {:process 0, :type :ok, :f :write, :value 1}]",    // a tagged one
        "[{:process 0, :type :invoke, :f :write, :value 1.5}\n" + b + "]",  // a float: declined
        "[{:process 0, :type :invoke, :f :write, :value 1}x]",
        "[{:process 0, :type :invoke, :f :write, :value 1}]x",
        "[{:process 0, :type :invoke, :f :write, :value 1}\n",  // no closing bracket
        "[{:process 0, :type :invoke, :f :write, :value 1}}]",
        "[{:process 0, :type :invoke, :f :write :value 1}]",  // an odd map
        "[{:process 0, :type :invoke, :f :write, :value \"two\nlines\"}]",
        "[\n  {:process 0, :type :invoke, :f :write, :value 1}\n  " + b + "]",  // indented
        "\n\n" + a + "(" + b,
        "INFO  jepsen.util - 0\t:invoke\t:read\tnil\nINFO  jepsen.util - 0\t:ok\t:read\t3\n",
        "INFO  jepsen.util - 0\t:invoke\t:cas\t[1 2]\nINFO  jepsen.util - 0\t:info\t:cas\t:timed-out\n",
        "0 :invoke :write 1 :conn-not-ready\n0 :ok :write 1\n:nemesis :info :start nil\n:nemesis :info\n",
        "0 :invoke :write 1 ; a comment\n0 :ok :write #_ 2 1\n",
        "0 :invoke \"write\" 1.5\n0 :ok :write \"a\\nb\"\n",
        "0 :invoke\n",
        "0 :launch :write 1\n",
        "99999999999999999999 :invoke :write 1\n",
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
      for (Format format : {Format::auto_detect, Format::edn, Format::porcupine_kv, Format::jepsen_log}) {
        expect_same_reading(cases[i], format, "case " + std::to_string(i));
      }
    }
  }

  TEST_CASE("the JSON fast path agrees with the general parser on the seams") {
    const std::string a = R"({"process": 0, "type": "invoke", "f": "write", "value": 1, "time": 5})";
    const std::string b = R"({"process": 0, "type": "ok", "f": "write", "value": 1, "time": 3})";
    const std::vector<std::string> events = {
        R"({"process":0,"type":"invoke","f":"write","value":[1, [2, null], true, false, -0, "x"]})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": 1.5})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": 1e3})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": 01})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": 99999999999999999999})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": "a\"b"})",
        "{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": \"caf\xC3\xA9\"}",
        "{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": \"bad \xFF\"}",
        "{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": \"tab\there\"}",
        R"({"process": 0, "type": "invoke", "f": "write", "value": {"a": 1}})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": [1, 2,]})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": nul})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": 1,})",
        R"({"process": 0, "process": 1, "type": "invoke", "f": "write", "value": 1})",
        R"({"process": 0, "type": "start", "f": "write", "value": 1})",
        R"({"process": 0, "type": "invoke", "value": 1})",
        R"({"process": "nemesis", "type": "info", "f": ["x"], "value": 1})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": 1, "index": 7, "key": "k"})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": 1, "index": "7"})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": 1 "key": 2})",
        R"({"process": 0, "type": "invoke", "f": "write", "value": 1, "time": "2024-01-01"})",
        "{\"process\": 0,\n \"type\": \"invoke\", \"f\": \"write\", \"value\": 1}",
        "{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": 1}\r",
        R"({})",
        R"({ })",
        R"({"process": 0, "type": "invoke", "f": "write", "value": [ ]})",
        R"({"pro\u0063ess": 0, "type": "invoke", "f": "write", "value": 1})",
    };
    std::vector<std::string> cases = {"{\"events\": [\n  " + a + ",\n  " + b + "\n]}\n", "[" + a + ", " + b + "]",
                                      "[\n" + a + ",\n" + b + "\n]\n", "\xEF\xBB\xBF[" + a + "]"};
    for (const std::string& event : events) {
      cases.push_back("{\"events\": [\n  " + a + ",\n  " + event + ",\n  " + b + "\n]}\n");
      cases.push_back("[" + event + "]");
    }
    for (std::size_t i = 0; i < cases.size(); ++i)
      expect_same_reading(cases[i], Format::json, "case " + std::to_string(i));
  }

  TEST_CASE("a declined line in every block of a large file, read in parallel, reads as the general reader reads it") {
    std::string text;
    for (int i = 0; i < 3000; ++i) {
      const std::string p = std::to_string(i % 7);
      text += "{:process " + p + ", :type :invoke, :f :write, :value " + std::to_string(i) + "}\n";
      // Every 50th completion spans two lines; every 70th holds a float.
      if (i % 50 == 0) {
        text += "{:process " + p + ", :type :ok,\n :f :write, :value " + std::to_string(i) + "}\n";
      } else if (i % 70 == 0) {
        text += "{:process " + p + ", :type :ok, :f :write, :value 1.5}\n";
      } else {
        text += "{:process " + p + ", :type :ok, :f :write, :value " + std::to_string(i) + "}\n";
      }
    }
    const std::string general = read_transcript(text, "h", Format::edn, kGeneral);
    CHECK(general.find("error") == std::string::npos);
    for (const std::size_t block : {1, 100, 4096, 65536}) {
      for (const unsigned threads : {2u, 4u}) {
        CAPTURE(block);
        CAPTURE(threads);
        CHECK(read_transcript(text, "h", Format::edn, {true, threads, block}) == general);
        CHECK(read_transcript(text, "h", Format::porcupine_kv, {true, threads, block}) ==
              read_transcript(text, "h", Format::porcupine_kv, kGeneral));
      }
    }
    // An error late in the file is the general reader's error, at its place.
    text += "{:process 0, :type :ok, :f :write, :value [1 2)}\n";
    const std::string failed = read_transcript(text, "h", Format::edn, kGeneral);
    CHECK(failed.find("error h:") != std::string::npos);
    CHECK(read_transcript(text, "h", Format::edn, {true, 2, 4096}) == failed);
  }
}
