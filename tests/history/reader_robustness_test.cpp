// Readers never crash or hang on damaged input: every truncation of small histories
// and random byte mutations of corpus files either parse or throw an InputError that
// points into the text (line >= 1).
#include <ariadne/history.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using ariadne::Format;

namespace {

constexpr Format kFormats[] = {Format::auto_detect, Format::edn,        Format::jepsen_log, Format::porcupine_kv,
                               Format::json,        Format::violin_log, Format::fastlin};

const char* const kSmallEdn =
    "; small history\n"
    "[{:process 0, :type :invoke, :f :cas, :value [1 2], :index 0}\n"
    " {:process :nemesis, :type :info, :f :start, :value #{\"n1\" \"n2\"}}\n"
    " {:process 0, :type :ok, :f :cas, :value [1 2], :error \"a \\\"quoted\\\" \\u00e9\"}\n"
    " #_{:process 9} {:process 1, :type :invoke, :f :read, :value nil, :time 12.5e3}\n"
    " {:process 1, :type :fail, :f :read, :value #inst \"2020-01-01\", :key :k/x}]\n";

const char* const kSmallLog =
    "INFO  jepsen.util - 0\t:invoke\t:cas\t[1 2]\n"
    ":nemesis  :info :start2 {\"n1\" \"986\", \"n2\" :started}\n"
    "INFO  jepsen.util - 0\t:ok\t:cas\t[1 2] :extra\n";

const char* const kSmallKv =
    "{:process 0, :type :invoke, :f :append, :key \"0\", :value \"x 0 0 y\"}\n"
    "{:process 0, :type :ok, :f :append, :key \"0\", :value \"x 0 0 y\"}\n";

const char* const kSmallJson =
    "{\"events\": [{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": [1, 2.5e1, \"\\u00e9\"]},\n"
    "            {\"process\": 0, \"type\": \"ok\", \"f\": \"write\", \"value\": {\"a\": null}}]}\n";

const char* const kSmallViolin =
    "# @object atomic-stack\n"
    "[1] call push(?<1,0>)  # LiMo's value\n"
    "    [2] call pop\n"
    "[1] return\n"
    "    [2] return empty\n"
    "[3] call push a\n";

const char* const kSmallFastlin =
    "# queue\n"
    "enq 1 1 2\n"
    "deq -1 2 4\n"
    "deq 1 3 5\n";

// Parses in every format; anything but success or a positioned InputError fails.
void parse_everything(const std::string& text) {
  for (const Format format : kFormats) {
    try {
      (void)ariadne::parse_events(text, "fuzz", format);
    } catch (const ariadne::InputError& e) {
      if (e.pos().line < 1) FAIL_CHECK("error without a line: " << e.what());
    }
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("every truncation of small histories parses or fails with a position") {
    for (const std::string text : {kSmallEdn, kSmallLog, kSmallKv, kSmallJson, kSmallViolin, kSmallFastlin}) {
      CHECK_NOTHROW(ariadne::parse_events(text, "whole"));
      for (std::size_t length = 0; length <= text.size(); ++length) {
        CAPTURE(length);
        parse_everything(text.substr(0, length));
      }
    }
  }

  TEST_CASE("random byte mutations of histories parse or fail with a position") {
    std::vector<std::string> samples = {kSmallEdn, kSmallLog, kSmallKv, kSmallJson, kSmallViolin, kSmallFastlin};
    const std::string corpus = std::string(ARIADNE_SOURCE_DIR) + "/../shared/corpus";
    for (const char* file :
         {"/knossos/data/cas-register/bad/bad-analysis.edn", "/porcupine/jepsen/etcd_000.log",
          "/porcupine/kv/c01-bad.txt", "/knossos/historical/memstress4.log", "/collections/popl16/simple/figure11.log",
          "/collections/limo/simple/stack/violation/00-12.hist",
          "/collections/fastlin/testcases/stack/nonlin_intermediate_0.log"}) {
      if (std::filesystem::exists(corpus + file)) samples.push_back(read_text(corpus + file));
    }
    const std::uint64_t seed = 20240611;
    MESSAGE("mutation seed " << seed);
    std::mt19937_64 random(seed);
    // Bytes that matter to some reader, and then any byte at all.
    const std::string interesting = "[](){}#_\\\":;,\n \t-+.eE0123456789NM\x80\xC3\xFF";
    constexpr int kMutations = 400;
    for (int round = 0; round < kMutations; ++round) {
      std::string text = samples[random() % samples.size()];
      const int edits = 1 + static_cast<int>(random() % 4);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        const std::size_t at = random() % text.size();
        switch (random() % 4) {
          case 0: text[at] = interesting[random() % interesting.size()]; break;
          case 1: text[at] = static_cast<char>(random() % 256); break;
          case 2: text.erase(at, 1 + random() % 8); break;
          default: text.insert(at, 1, interesting[random() % interesting.size()]);
        }
      }
      CAPTURE(round);
      parse_everything(text);
    }
  }

  TEST_CASE("pathological nesting and prefixes fail cleanly") {
    parse_everything(std::string(200000, '['));
    parse_everything(std::string(200000, '{'));
    parse_everything(std::string(100000, '#') + "_");
    std::string tags;
    for (int i = 0; i < 50000; ++i) tags += "#a ";
    parse_everything(tags + "1");
    std::string discards;
    for (int i = 0; i < 50000; ++i) discards += "#_ ";
    parse_everything(discards + "1");
  }

}  // TEST_SUITE
