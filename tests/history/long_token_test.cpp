// One line or token of many megabytes under the memory limit (issue 41): the scans
// that can run over it ask for room a chunk at a time (history/scan_room.hpp), so a
// reading stops at the limit before it touches or copies more than the limit allows,
// in every format and in every kind of token, from a mapped file and from a pipe.
// Without a limit the same histories read as they always did.
// scripts/limits_sweep.py --tokens measures the resident size from outside.
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include "history/event_sink.hpp"
#include "history/scan_room.hpp"

#include <doctest/doctest.h>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace ariadne;

namespace {

namespace fs = std::filesystem;

// Twelve MiB: three times the limit the tests set, twelve of the scans' chunks.
const std::size_t kLong = std::size_t{12} << 20;
const std::uint64_t kLimit = std::uint64_t{4} << 20;

struct LongTokenHistory {
  const char* name;
  Format format;
  const char* model;
  std::string text;
};

std::vector<LongTokenHistory> long_token_histories() {
  const std::string big(kLong, 'A');
  const std::string digits(kLong, '1');
  return {
      {"an EDN string", Format::edn, "register",
       "{:type :invoke, :f :write, :value \"x\", :process 0}\n{:type :ok, :f :write, :value \"" + big +
           "\", :process 0}\n"},
      {"an EDN string with an escape", Format::edn, "register",
       "{:type :invoke, :f :write, :value \"x\", :process 0}\n{:type :ok, :f :write, :value \"\\n" + big +
           "\", :process 0}\n"},
      {"an EDN string in a vector history", Format::edn, "register",
       "[{:type :invoke, :f :write, :value \"x\", :process 0}\n {:type :ok, :f :write, :value \"" + big +
           "\", :process 0}]\n"},
      {"an EDN keyword", Format::edn, "register",
       "{:type :invoke, :f :write, :value :x, :process 0}\n{:type :ok, :f :write, :value :" + big + ", :process 0}\n"},
      {"an EDN comment", Format::edn, "register",
       "{:type :invoke, :f :write, :value 1, :process 0}\n;" + big +
           "\n{:type :ok, :f :write, :value 1, :process 0}\n"},
      {"a JSON string", Format::json, "register",
       "[{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": \"x\"},\n {\"process\": 0, \"type\": "
       "\"ok\", \"f\": \"write\", \"value\": \"" +
           big + "\"}]\n"},
      {"a JSON string on a line of its own", Format::json, "register",
       "[{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": \"x\"},\n {\"process\": 0,\n "
       "\"type\": \"ok\",\n \"f\": \"write\",\n \"value\": \"" +
           big + "\"\n}]\n"},
      {"a JSON number", Format::json, "register",
       "[{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": 1},\n {\"process\": 0,\n \"type\": "
       "\"ok\",\n \"f\": \"write\",\n \"value\": " +
           digits + "\n}]\n"},
      {"a Jepsen log value", Format::jepsen_log, "register",
       "INFO  jepsen.util - 0\t:invoke\t:write\t\"x\"\nINFO  jepsen.util - 0\t:ok\t:write\t\"" + big + "\"\n"},
      {"a Porcupine kv value", Format::porcupine_kv, "kv",
       "{:process 0, :type :invoke, :f :put, :key \"k\", :value \"x\"}\n{:process 0, :type :ok, :f :put, :key "
       "\"k\", :value \"" +
           big + "\"}\n"},
  };
}

class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content)
      : path_(fs::temp_directory_path() / ("ariadne-long-token-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("a line found by chunks is the line memchr finds") {
    std::string text(3 * kScanChunk + 5, 'x');
    text[2 * kScanChunk + 7] = '\n';
    CHECK(find_line_end(text, 0, nullptr) == 2 * kScanChunk + 7);
    CHECK(find_line_end(text, 2 * kScanChunk + 8, nullptr) == text.size());
    CHECK(find_line_end(text, text.size(), nullptr) == text.size());
    const Limits generous(0, std::uint64_t{1} << 30);
    CHECK(find_line_end(text, 0, &generous) == 2 * kScanChunk + 7);
  }

  TEST_CASE("one token of megabytes stops the reading at the memory limit, in every format") {
    const std::vector<LongTokenHistory> histories = long_token_histories();
    for (std::size_t i = 0; i < histories.size(); ++i) {
      const LongTokenHistory& history = histories[i];
      CAPTURE(history.name);
      const auto model = make_model_from_spec(history.model);
      // Read whole without a limit: the token is an ordinary value.
      {
        const History read = parse_history(history.text, "h", *model, history.format);
        CHECK(read.ops.size() == 1);
      }
      // Read under a limit of a third of the token, from a mapped file. No
      // LimitsWatch: the scans' own questions are what stops the reading, before the
      // watch could have seen the memory.
      const TempFile file(std::to_string(i), history.text);
      const Limits limits(0, kLimit);
      limits.enter(Phase::reading);
      Limit stopped = Limit::none;
      try {
        (void)read_history(file.str(), *model, history.format, limits);
      } catch (const LimitReached& reached) {
        stopped = reached.limit();
        CHECK(std::string(reached.what()).find("memory limit of 4 MiB reached during reading") != std::string::npos);
      }
      CHECK(stopped == Limit::memory);
      CHECK(limits.first_reached() == Limit::memory);
    }
  }

  TEST_CASE("a pipe of one token of megabytes stops at the memory limit as it is copied") {
    const LongTokenHistory history = long_token_histories().front();
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    std::thread writer([&] {
      // The reader closes its end once stopped: the write then fails with EPIPE,
      // and the SIGPIPE it raises, blocked on this thread, goes with it.
      sigset_t pipe_signal;
      sigemptyset(&pipe_signal);
      sigaddset(&pipe_signal, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
      std::size_t done = 0;
      while (done < history.text.size()) {
        const ::ssize_t n = ::write(ends[1], history.text.data() + done, history.text.size() - done);
        if (n <= 0) break;  // the reader has stopped and closed its end
        done += static_cast<std::size_t>(n);
      }
      ::close(ends[1]);
    });
    const auto model = make_model_from_spec("register");
    const Limits limits(0, kLimit);
    Limit stopped = Limit::none;
    try {
      (void)read_history("/proc/self/fd/" + std::to_string(ends[0]), *model, Format::edn, limits);
    } catch (const LimitReached& reached) {
      stopped = reached.limit();
    }
    ::close(ends[0]);
    writer.join();
    CHECK(stopped == Limit::memory);
  }
}
