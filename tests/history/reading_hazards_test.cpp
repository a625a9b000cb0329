// Hazards of reading a history, found by the hostile-input review of issue 41: files
// that are no regular file (a pipe, a FIFO without a writer, /dev/zero) under the
// command's limits, a file cut short while mapped, a limit reached during reading,
// JSON members given twice, a log whose last line is cut off, and a file without a
// single event. tests/cli/reading_limits_cli_test.cpp checks what a user sees.
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include "base/limits_ledger.hpp"
#include "history/event_sink.hpp"
#include "history/mapped_file.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

using namespace ariadne;

namespace {

namespace fs = std::filesystem;

// A fresh path under the temp folder, removed at the end.
class TempPath {
 public:
  explicit TempPath(const std::string& name)
      : path_(fs::temp_directory_path() / ("ariadne-reading-" + std::to_string(::getpid()) + "-" + name)) {
    fs::remove(path_);
  }
  ~TempPath() {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  std::string str() const { return path_.string(); }
  void write(const std::string& content) const { std::ofstream(path_, std::ios::binary) << content; }

 private:
  fs::path path_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What read_history throws, as the limit it names; none when it returns.
Limit limit_of_reading(const std::string& path, const Limits& limits) {
  const auto model = make_model_from_spec("register");
  try {
    (void)read_history(path, *model, Format::auto_detect, limits);
  } catch (const LimitReached& stopped) {
    return stopped.limit();
  }
  return Limit::none;
}

const std::string kTwoOps =
    "{:process 0, :type :invoke, :f :write, :value 1}\n{:process 0, :type :ok, :f :write, :value 1}\n";

EventLog read_log(const std::string& text, Format format, bool fast) {
  EventLog log;
  log.source = "h";
  EventCollector collector(log);
  ReadPlan plan;
  plan.fast = fast;
  stream_events(text, "h", format, collector, plan);
  return log;
}

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("a FIFO nobody writes to is waited for only until the timeout") {
    TempPath fifo("fifo");
    REQUIRE(::mkfifo(fifo.str().c_str(), 0600) == 0);
    const Limits limits(0.3, 0);
    limits.enter(Phase::reading);
    const auto start = std::chrono::steady_clock::now();
    CHECK(limit_of_reading(fifo.str(), limits) == Limit::timeout);
    CHECK(seconds_since(start) < 5);
    CHECK(limits.describe() == "timeout after 0.3 s during reading");
  }

  TEST_CASE("a pipe whose writer never finishes is read until the cancel flag is raised") {
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    // The writer holds its end open: without the flag, reading would never end.
    REQUIRE(::write(ends[1], kTwoOps.data(), kTwoOps.size()) == static_cast<::ssize_t>(kTwoOps.size()));
    std::atomic<bool> cancel{false};
    const Limits limits(0, 0, &cancel);
    std::thread raise([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      cancel.store(true);
    });
    const auto start = std::chrono::steady_clock::now();
    CHECK(limit_of_reading("/proc/self/fd/" + std::to_string(ends[0]), limits) == Limit::cancelled);
    CHECK(seconds_since(start) < 5);
    raise.join();
    ::close(ends[0]);
    ::close(ends[1]);
  }

  TEST_CASE("a pipe is read to its end once its writer closes it") {
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    REQUIRE(::write(ends[1], kTwoOps.data(), kTwoOps.size()) == static_cast<::ssize_t>(kTwoOps.size()));
    ::close(ends[1]);
    const auto model = make_model_from_spec("register");
    const Limits limits(10, 0);
    const History history =
        read_history("/proc/self/fd/" + std::to_string(ends[0]), *model, Format::auto_detect, limits);
    CHECK(history.ops.size() == 1);
    ::close(ends[0]);
  }

  TEST_CASE("a character device without end stops at the memory limit, counted as it is copied") {
    if (!fs::exists("/dev/zero")) return;
    // No LimitsWatch: the copy itself is counted against the limit.
    const Limits limits(0, std::uint64_t{8} << 20);
    CHECK(limit_of_reading("/dev/zero", limits) == Limit::memory);
  }

  TEST_CASE("a limit reached during reading stops it, even when the memory watch has withdrawn its verdict") {
    TempPath file("two-ops.edn");
    file.write(kTwoOps);
    const Limits limits(0, std::uint64_t{1} << 20);
    limits.enter(Phase::reading);
    // The watch saw the process over the limit, then back under it.
    base::note_resident_over(limits, true);
    base::note_resident_over(limits, false);
    REQUIRE(limits.reached() == Limit::none);
    CHECK(limit_of_reading(file.str(), limits) == Limit::memory);
    CHECK(limits.phase_when_reached() == Phase::reading);
  }

  TEST_CASE("one large value is stopped by the memory limit, however few the events") {
    TempPath file("large-value.edn");
    file.write("{:process 0, :type :invoke, :f :write, :value \"" + std::string(std::size_t{40} << 20, 'x') +
               "\"}\n{:process 0, :type :ok, :f :write, :value 1}\n");
    const Limits limits(0, std::uint64_t{8} << 20);
    std::optional<LimitsWatch> watch;
    watch.emplace(limits);
    limits.enter(Phase::reading);
    CHECK(limit_of_reading(file.str(), limits) == Limit::memory);
  }

  TEST_CASE("a small file is read whole, and answers as a mapped one does") {
    TempPath file("small.txt");
    std::string content;
    for (int i = 0; i < 1'000; ++i) content += "line " + std::to_string(i) + "\n";
    file.write(content);
    MappedFile copied(file.str());
    CHECK(copied.text() == content);
    std::string buffer;
    CHECK(copied.read_at(5, 6, buffer) == content.substr(5, 6));
    CHECK(copied.read_at(content.size() - 3, 10, buffer) == content.substr(content.size() - 3));
    copied.release_before(content.size());  // nothing mapped: harmless
    fs::resize_file(file.str(), 10);
    copied.check_unchanged();  // a copy is what was read, whatever the file becomes
    CHECK(copied.text() == content);
  }

  TEST_CASE("a mapped file cut short while it is read is reported, not a SIGBUS") {
    TempPath file("truncated.edn");
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    // 1,024 pages: files up to 256 KiB are read into memory, not mapped (mapped_file.cpp).
    std::string content;
    while (content.size() < 1024 * page) content += kTwoOps;
    file.write(content);
    MappedFile mapped(file.str());
    REQUIRE(mapped.text().size() == content.size());
    mapped.check_unchanged();  // nothing happened yet
    fs::resize_file(file.str(), 100);
    // Every byte, those past the new end included: without the handler, a SIGBUS.
    std::size_t zeros = 0;
    for (const char c : mapped.text()) zeros += c == '\0';
    CHECK(zeros > 0);
    CHECK_THROWS_AS(mapped.check_unchanged(), InputError);
    try {
      mapped.check_unchanged();
    } catch (const InputError& e) {
      CHECK(e.source() == file.str());
      CHECK(e.message().find("cut short while it was being read") != std::string::npos);
    }
  }

  TEST_CASE("a JSON event naming a member twice is refused at the second, on the fast path and the general one") {
    const std::string text =
        "[{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": 1},\n"
        " {\"process\": 0, \"type\": \"ok\", \"type\": \"info\", \"f\": \"write\", \"value\": 1}]\n";
    for (const bool fast : {true, false}) {
      INFO("fast path ", fast);
      CHECK_THROWS_WITH_AS(read_log(text, Format::json, fast),
                           "h:2:31: duplicate member \"type\" (first at 2:17): an object may name a member once",
                           InputError);
    }
    // In a value, and in the document around the events, alike.
    CHECK_THROWS_WITH_AS(parse_json_value(R"({"a": {"x": 1, "y": 2, "x": 3}})", "v"),
                         "v:1:24: duplicate member \"x\" (first at 1:8): an object may name a member once", InputError);
    CHECK_THROWS_AS(read_log(R"({"events": [], "meta": 1, "meta": 2})", Format::json, true), InputError);
    // Many members are compared by hash: the 40th repeating the 1st is still found.
    std::string many = "{";
    for (int i = 0; i < 40; ++i) many += "\"m" + std::to_string(i) + "\": 0, ";
    many += "\"m0\": 1}";
    CHECK_THROWS_AS(parse_json_value(many, "v"), InputError);
  }

  TEST_CASE("a JSON history on one line reads as the same history on many") {
    const auto model = make_model_from_spec("register");
    const EventLog log = parse_events(kTwoOps + kTwoOps, "h.edn");
    std::string lines = format_events(log, Format::json);
    std::string one_line;
    for (const char c : lines) {
      if (c != '\n') one_line += c;
    }
    const History a = parse_history(lines, "a", *model, Format::json);
    const History b = parse_history(one_line, "b", *model, Format::json);
    REQUIRE(a.ops.size() == b.ops.size());
    CHECK(b.ops.back().call_pos.line == 1);
  }

  TEST_CASE("a Jepsen console log whose last line is cut inside its log prefix is an error at that line") {
    const std::string log =
        "INFO  jepsen.util - 0\t:invoke\t:write\t1\n"
        "INFO  jepsen.util - 0\t:ok\t:write\t1\n";
    for (const std::string cut : {"INFO  jepsen.", "I", "INFO  jepsen.util -", "INFO  jepsen.util"}) {
      INFO(cut);
      CHECK_THROWS_WITH_AS(parse_events(log + cut, "j.log"),
                           ("j.log:3:1: the file ends inside this line, which starts like a history line: '" + cut +
                            "' (was the log cut short?)")
                               .c_str(),
                           InputError);
      // The same line with its line break was written whole: skipped, as before.
      CHECK(parse_events(log + cut + "\n", "j.log").events.size() == 2);
    }
    // Another logger's prefix followed by a cut event.
    CHECK_THROWS_AS(parse_events("0 :invoke :read nil\nINFO  x - 0 :o", "j.log"), InputError);
    // A last line that starts like no event is skipped, line break or not.
    CHECK(parse_events(log + "Ran 1 tests containing 1 assertions.", "j.log").events.size() == 2);
  }

  TEST_CASE("Porcupine's etcd_000.log cut at any byte is read whole or refused, never read with a line skipped") {
    const fs::path path = fs::path(ARIADNE_SOURCE_DIR) / "../shared/corpus/porcupine/jepsen/etcd_000.log";
    if (!fs::exists(path)) return;
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Every line of this file is a jepsen.util line: none is ever skipped whole.
    REQUIRE(parse_events(text, "etcd_000.log").warnings.empty());
    std::size_t refused = 0;
    for (std::size_t cut = 1; cut < text.size(); ++cut) {
      try {
        const EventLog log = parse_events(text.substr(0, cut), "cut.log");
        INFO("cut at ", cut);
        CHECK(log.warnings.empty());
      } catch (const InputError&) {
        ++refused;
      }
    }
    CHECK(refused > 0);
    CHECK_THROWS_WITH_AS(parse_events(text.substr(0, 3000), "cut.log"),
                         "cut.log:79:1: the file ends inside this line, which starts like a history line: "
                         "'INFO  jepsen.' (was the log cut short?)",
                         InputError);
  }

  TEST_CASE("a history file without a single event is refused; events of no client are read with a warning") {
    const auto model = make_model_from_spec("register");
    for (const std::string empty : {"", " \n", "[]", "; only a comment\n", "{\"events\": []}", "lein test x\n"}) {
      INFO("'", empty, "'");
      try {
        (void)parse_history(empty, "e.edn", *model);
        FAIL("an empty history was read");
      } catch (const InputError& e) {
        CHECK(e.message().starts_with("no client operation in e.edn"));
      }
    }
    const History nemesis = parse_history("{:process :nemesis, :type :info, :f :start, :value nil}\n", "n.edn", *model);
    CHECK(nemesis.ops.empty());
    REQUIRE(nemesis.warnings.size() == 1);
    CHECK(nemesis.warnings[0].message.starts_with("no client operation"));
  }

  TEST_CASE("a key shard with none of the file's operations is no empty history") {
    TempPath file("keyed.edn");
    file.write(
        "{:process 0, :type :invoke, :f :write, :key 1, :value 1}\n{:process 0, :type :ok, :f :write, :key 1, "
        ":value 1}\n");
    const auto model = make_model_from_spec("kv");
    const Limits limits;
    const History none =
        read_history(file.str(), *model, Format::auto_detect, limits, [](const Operation&) { return false; });
    CHECK(none.ops.empty());
    CHECK(none.warnings.empty());
  }

}  // TEST_SUITE
