// Hostile inputs through the library (parse_events, build_history, check), issue 7:
// every hazard, in every format it applies to, must end in an InputError that points
// into the file, or in the verdict the history really has; never in a crash, a stack
// overflow, a hang, or a verdict on a silently different history.
//
// The hazards: nesting a million levels deep, integers beyond 64 bits (as values,
// processes, indices and timestamps), strings of megabytes, bytes that are not UTF-8
// (in strings, in keywords, inside a token), a file cut at every byte, a duplicate
// :index, a completion before its invocation, and timestamps out of order.
//
#include "history/hostile_event_text.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

using namespace ariadne;
using namespace ariadne::hostile;

namespace {

// What the library makes of a text: a verdict, or the InputError that reading, pairing
// or the model's vetting of an op threw.
struct Answer {
  std::optional<Verdict> verdict;
  std::optional<InputError> error;
  std::string explanation;
};

Answer answer(const std::string& text, Format format, const std::string& model_spec,
              Engine engine = Engine::automatic) {
  const auto model = make_model_from_spec(model_spec);
  try {
    const History history = build_history(parse_events(text, "hostile", format), *model);
    const CheckResult r = check(history, *model, CheckOptions{.engine = engine, .timeout_seconds = 30, .jobs = 1});
    return {r.verdict, std::nullopt, r.explanation};
  } catch (const InputError& e) {
    return {std::nullopt, e, {}};
  }
}

// A position inside `text`: a line the text has, and a column at most one past that
// line's last byte (an error at the end of the text names the place just past it).
bool inside(SourcePos pos, std::string_view text) {
  if (pos.line < 1 || pos.column < 1) return false;
  std::size_t line_start = 0;
  for (std::uint32_t line = 1; line < pos.line; ++line) {
    const std::size_t newline = text.find('\n', line_start);
    if (newline == std::string_view::npos) return false;
    line_start = newline + 1;
  }
  const std::size_t end = std::min(text.find('\n', line_start), text.size());
  return pos.column <= end - line_start + 1;
}

std::string describe(const Answer& a) {
  if (a.error) return std::string("error: ") + a.error->what();
  return std::string(verdict_name(*a.verdict));
}

// The two answers a hostile input may have: a located error, or this verdict.
void expect_located_error_or(const Answer& a, const std::string& text, Verdict verdict) {
  INFO(describe(a));
  if (a.error) {
    CHECK(inside(a.error->pos(), text));
  } else {
    CHECK(verdict_name(*a.verdict) == verdict_name(verdict));
  }
}

void expect_located_error(const Answer& a, const std::string& text) {
  INFO(describe(a));
  REQUIRE(a.error.has_value());
  CHECK(inside(a.error->pos(), text));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string repeat(std::string_view piece, std::size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += piece;
  return out;
}

constexpr std::size_t kMillion = 1'000'000;

// The same value nested `depth` levels deep in vectors, in the syntax EDN and JSON share.
std::string nested_vector(std::size_t depth, const std::string& innermost) {
  return repeat("[", depth) + innermost + repeat("]", depth);
}

}  // namespace

TEST_SUITE("hostile") {
  // ---------------------------------------------------------------------------------
  // Nesting: the readers keep their own stack (EDN) or stop at a depth bound (JSON), so
  // a million levels is an error at the level that crosses the bound, not a stack
  // overflow. The same bound keeps Value's recursive compare, hash, print and destroy
  // safe, which the next test checks from the other side.

  TEST_CASE("nesting a million levels deep is a located error in every format") {
    struct Case {
      std::string name;
      Format format;
      std::string text;
      // Whether the error is the depth bound's, read in the given format and as
      // detected. A few fail for another reason first: a closer opens nothing, and a
      // JSON history's array holds event objects (but detected as EDN, it nests).
      bool depth_bound = true;
      bool depth_bound_when_detected = true;
    };
    std::vector<Case> cases;
    for (const Format format : kEventFormats) {
      // As the value of an otherwise ordinary write, closed and unclosed.
      for (const bool closed : {true, false}) {
        const std::string deep = closed ? nested_vector(kMillion, "1") : repeat("[", kMillion);
        cases.push_back({std::string(format_name(format)) + (closed ? " value, closed" : " value, unclosed"), format,
                         write_events(write_then_read(deep, "1"), format)});
      }
    }
    // The whole document, in each kind of collection the formats have.
    cases.push_back({"edn vectors", Format::edn, nested_vector(kMillion, "")});
    cases.push_back({"edn lists", Format::edn, repeat("(", kMillion) + repeat(")", kMillion)});
    cases.push_back({"edn maps", Format::edn, repeat("{:a ", kMillion) + "1" + repeat("}", kMillion)});
    cases.push_back({"edn sets", Format::edn, repeat("#{", kMillion) + repeat("}", kMillion)});
    cases.push_back({"edn tags", Format::edn, repeat("#a ", kMillion) + "1"});
    cases.push_back({"edn discards", Format::edn, repeat("#_ ", kMillion) + "1"});
    cases.push_back({"edn closers", Format::edn, repeat("]", kMillion), false, false});
    cases.push_back({"json arrays", Format::json, nested_vector(kMillion, ""), false, true});
    cases.push_back({"json objects", Format::json, repeat("{\"a\": ", kMillion) + "1" + repeat("}", kMillion)});
    cases.push_back(
        {"json metadata member", Format::json, "{\"meta\": " + nested_vector(kMillion, "") + ", \"events\": []}"});
    cases.push_back({"jepsen-log line", Format::jepsen_log, "0 :invoke :write " + repeat("{:a ", kMillion) + "\n"});
    cases.push_back(
        {"porcupine-kv line", Format::porcupine_kv, "{:process 0, :value " + repeat("#{", kMillion) + "\n"});

    for (const Case& c : cases) {
      for (const Format format : {c.format, Format::auto_detect}) {
        CAPTURE(c.name);
        CAPTURE(format_name(format));
        const auto start = std::chrono::steady_clock::now();
        const Answer a = answer(c.text, format, "register(0)");
        const double seconds = seconds_since(start);
        expect_located_error(a, c.text);
        if (format == Format::auto_detect ? c.depth_bound_when_detected : c.depth_bound) {
          CHECK(a.error->message().find("nesting deeper than") != std::string::npos);
        }
        // No hang: a few milliseconds in fact; generous for a loaded machine.
        CHECK(seconds < 10);
      }
    }
  }

  TEST_CASE("the deepest value the readers accept is checked, explained and compared safely") {
    for (const Format format : kEventFormats) {
      CAPTURE(format_name(format));
      // The deepest write value this format's reader takes (the bound counts the
      // enclosing event and document differently per format).
      std::size_t depth = 1001;
      for (; depth > 0; --depth) {
        try {
          (void)parse_events(write_events(write_then_read(nested_vector(depth, "1"), "1"), format), "deep", format);
          break;
        } catch (const InputError&) {
        }
      }
      MESSAGE(format_name(format), ": the deepest value accepted nests ", depth, " levels");
      CHECK(depth >= 990);
      CHECK(depth <= 1000);
      const std::string value = nested_vector(depth, "1");
      const std::string other = nested_vector(depth, "2");
      for (const Engine engine :
           {Engine::automatic, Engine::wgl, Engine::jit, Engine::sat, Engine::smt, Engine::brute}) {
        CAPTURE(engine_name(engine));
        const Answer same = answer(write_events(write_then_read(value, value), format), format, "register(0)", engine);
        CHECK(describe(same) == "linearizable");
        const Answer differs =
            answer(write_events(write_then_read(value, other), format), format, "register(0)", engine);
        CHECK(describe(differs) == "not-linearizable");
      }
      // The explanation prints the values: printing recurses as deep as the value.
      const Answer explained = answer(write_events(write_then_read(value, other), format), format, "register(0)");
      CHECK(explained.explanation.find("[[[[") != std::string::npos);
    }
  }

  // ---------------------------------------------------------------------------------
  // Integers beyond 64 bits are big integers, kept as canonical decimal text: equal
  // when their digits are, never equal to a 64-bit integer.

  TEST_CASE("integers beyond 64 bits are values compared exactly in every format") {
    const std::string digits200 = repeat("9876543210", 20);
    struct Case {
      std::string written;
      std::string read;
      Verdict verdict;
    };
    const std::vector<Case> cases = {
        {"18446744073709551616", "18446744073709551616", Verdict::linearizable},  // 2^64
        {"18446744073709551616", "18446744073709551617", Verdict::not_linearizable},
        {"9223372036854775807", "9223372036854775807", Verdict::linearizable},      // INT64_MAX
        {"9223372036854775807", "9223372036854775808", Verdict::not_linearizable},  // one past it
        {"-9223372036854775808", "-9223372036854775808", Verdict::linearizable},    // INT64_MIN
        {"-9223372036854775808", "-9223372036854775809", Verdict::not_linearizable},
        {"-9223372036854775809", "-9223372036854775809", Verdict::linearizable},
        {"18446744073709551616", "-18446744073709551616", Verdict::not_linearizable},
        {digits200, digits200, Verdict::linearizable},
        {digits200, digits200.substr(0, 199) + "1", Verdict::not_linearizable},
        {"[18446744073709551616, 1]", "[18446744073709551616, 1]", Verdict::linearizable},
    };
    for (const Format format : kEventFormats) {
      for (const Case& c : cases) {
        CAPTURE(format_name(format));
        CAPTURE(c.written);
        CAPTURE(c.read);
        const std::string text = write_events(write_then_read(c.written, c.read), format);
        for (const Engine engine : {Engine::automatic, Engine::brute}) {
          const Answer a = answer(text, format, "register(0)", engine);
          CHECK(describe(a) == verdict_name(c.verdict));
        }
      }
    }
    // EDN's N suffix marks a big integer, and 2^64N is 2^64.
    for (const Format format : {Format::edn, Format::jepsen_log, Format::porcupine_kv}) {
      const std::string text = write_events(write_then_read("18446744073709551616N", "18446744073709551616"), format);
      CHECK(describe(answer(text, format, "register(0)")) == "linearizable");
    }
  }

  TEST_CASE("integers beyond 64 bits as cas operands keep their identity") {
    for (const Format format : kEventFormats) {
      CAPTURE(format_name(format));
      const std::string big = "340282366920938463463374607431768211456";  // 2^128
      std::vector<RawEvent> events = {{"0", "invoke", "write", big, "", ""},
                                      {"0", "ok", "write", big, "", ""},
                                      {"1", "invoke", "cas", "[" + big + ", 5]", "", ""},
                                      {"1", "ok", "cas", "[" + big + ", 5]", "", ""},
                                      {"2", "invoke", "read", "", "", ""},
                                      {"2", "ok", "read", "5", "", ""}};
      CHECK(describe(answer(write_events(events, format), format, "cas-register(0)")) == "linearizable");
      // The cas expects 2^128 + 1, which the register never held.
      events[2].value = events[3].value = "[340282366920938463463374607431768211457, 5]";
      CHECK(describe(answer(write_events(events, format), format, "cas-register(0)")) == "not-linearizable");
    }
  }

  TEST_CASE("the largest and smallest 64-bit processes are clients") {
    for (const Format format : kEventFormats) {
      for (const std::string process : {"9223372036854775807", "-9223372036854775808"}) {
        CAPTURE(format_name(format));
        CAPTURE(process);
        std::vector<RawEvent> events = write_then_read("1", "2");
        events[2].process = events[3].process = process;
        // A client's read of 2 where only 1 was written: not linearizable.
        CHECK(describe(answer(write_events(events, format), format, "register(0)")) == "not-linearizable");
      }
    }
  }

  TEST_CASE("an :index beyond 64 bits is a located error or ignored, never a different history") {
    for (const Format format : {Format::edn, Format::porcupine_kv, Format::json}) {
      for (const std::string& index :
           std::vector<std::string>{"18446744073709551616", "-9223372036854775809", repeat("7", 400)}) {
        CAPTURE(format_name(format));
        CAPTURE(index);
        std::vector<RawEvent> events = write_then_read("1", "2");
        events[3].index = index;
        const std::string text = write_events(events, format);
        const Answer a = answer(text, format, "register(0)");
        expect_located_error_or(a, text, Verdict::not_linearizable);
        if (a.error) CHECK(a.error->pos().line == event_line(3, format));
      }
    }
  }

  TEST_CASE("timestamps beyond 64 bits are carried but file order stays real time") {
    // :time and "time" are not part of the formats: ignored like any other member. In
    // order, with equal neighbours and beyond 64 bits, they change nothing.
    for (const Format format : {Format::edn, Format::porcupine_kv, Format::json}) {
      CAPTURE(format_name(format));
      for (const bool stale : {false, true}) {
        std::vector<RawEvent> events = write_then_read("1", stale ? "2" : "1");
        const char* const times[] = {"18446744073709551616", "18446744073709551616", "18446744073709551617",
                                     "99999999999999999999999999999999"};
        for (std::size_t i = 0; i < events.size(); ++i) events[i].time = times[i];
        const Answer a = answer(write_events(events, format), format, "register(0)");
        CHECK(describe(a) == (stale ? "not-linearizable" : "linearizable"));
      }
    }
  }

  // ---------------------------------------------------------------------------------
  // Bytes that are not UTF-8. JSON requires UTF-8 (RFC 8259) and its reader rejects the
  // first bad byte by position. EDN, and the formats built on its reader, take strings
  // and names as bytes (Clojure's reader would have replaced them by U+FFFD): accepted,
  // two strings are then equal exactly when their bytes are, which is what the checker
  // needs; an error naming the place would do as well.

  const std::vector<std::string> kBadUtf8 = {
      "\xff",              // never valid
      "\x80",              // a continuation byte alone
      "\xc3(",             // a lead byte cut short
      "\xc0\xaf",          // an overlong '/'
      "\xed\xa0\x80",      // a UTF-16 surrogate
      "\xf4\x90\x80\x80",  // beyond U+10FFFF
  };

  TEST_CASE("bytes that are not UTF-8 inside strings: JSON rejects them where they are, EDN compares bytes") {
    for (const Format format : kEventFormats) {
      for (std::size_t k = 0; k < kBadUtf8.size(); ++k) {
        const std::string& bad = kBadUtf8[k];
        const std::string& other_bad = kBadUtf8[(k + 1) % kBadUtf8.size()];
        CAPTURE(format_name(format));
        CAPTURE(k);
        const std::string written = "\"a" + bad + "b\"";
        const std::string same = write_events(write_then_read(written, written), format);
        const std::string differs = write_events(write_then_read(written, "\"a" + other_bad + "b\""), format);
        const Answer a = answer(same, format, "register(0)");
        const Answer b = answer(differs, format, "register(0)");
        if (format == Format::json) {
          // The first bad byte is in the write's invocation, right after "a.
          expect_located_error(a, same);
          CHECK(a.error->pos().line == event_line(0, Format::json));
          const std::string line = "{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": \"a";
          CHECK(a.error->pos().column == line.size() + 1);
          CHECK(a.error->message().find("UTF-8") != std::string::npos);
          expect_located_error(b, differs);
        } else {
          expect_located_error_or(a, same, Verdict::linearizable);
          expect_located_error_or(b, differs, Verdict::not_linearizable);
        }
      }
    }
  }

  TEST_CASE("bytes that are not UTF-8 inside keywords and operation names are located errors or distinct names") {
    for (const Format format : kEventFormats) {
      for (const std::string& bad : kBadUtf8) {
        CAPTURE(format_name(format));
        CAPTURE(bad);
        // In the operation's name: no model has an operation of that name.
        std::vector<RawEvent> events = write_then_read("1", "1");
        events[0].f = events[1].f = "wr" + bad + "ite";
        const std::string in_f = write_events(events, format);
        const Answer f = answer(in_f, format, "register(0)");
        expect_located_error(f, in_f);
        // The invocation's line when the name is not even read (JSON; "\xc3(" opens a
        // list in EDN), the completion's when the model refuses it.
        CHECK((f.error->pos().line == event_line(0, format) || f.error->pos().line == event_line(1, format)));
        // In the type: not one of the four.
        events = write_then_read("1", "1");
        events[2].type = "inv" + bad + "oke";
        const std::string in_type = write_events(events, format);
        const Answer t = answer(in_type, format, "register(0)");
        expect_located_error(t, in_type);
        CHECK(t.error->pos().line == event_line(2, format));
        // A keyword as the value (EDN family; JSON has no keywords).
        if (format != Format::json) {
          const std::string keyword = ":k" + bad;
          const std::string same = write_events(write_then_read(keyword, keyword), format);
          expect_located_error_or(answer(same, format, "register(0)"), same, Verdict::linearizable);
          const std::string differs = write_events(write_then_read(keyword, ":k"), format);
          expect_located_error_or(answer(differs, format, "register(0)"), differs, Verdict::not_linearizable);
        }
      }
    }
  }

  TEST_CASE("bytes that are not UTF-8 in the middle of a token are located errors") {
    for (const Format format : kEventFormats) {
      for (const std::string& bad : kBadUtf8) {
        CAPTURE(format_name(format));
        CAPTURE(bad);
        // Inside a number.
        const std::string in_number = write_events(write_then_read("12" + bad + "3", "123"), format);
        const Answer n = answer(in_number, format, "register(0)");
        expect_located_error(n, in_number);
        CHECK(n.error->pos().line == event_line(0, format));
        // Inside the process.
        std::vector<RawEvent> events = write_then_read("1", "1");
        events[2].process = "1" + bad;
        const std::string in_process = write_events(events, format);
        const Answer p = answer(in_process, format, "register(0)");
        expect_located_error(p, in_process);
        CHECK(p.error->pos().line == event_line(2, format));
        // A file that ends inside a string, in the middle of a multi-byte sequence.
        const std::string whole = write_events(write_then_read("1", "\"a\xe2\x82\xac\""), format);
        const std::string cut = whole.substr(0, whole.find("\xe2\x82") + 2);
        const Answer c = answer(cut, format, "register(0)");
        expect_located_error(c, cut);
        CHECK((c.error->message().find("unterminated") != std::string::npos ||
               c.error->message().find("UTF-8") != std::string::npos));
      }
    }
  }

  // ---------------------------------------------------------------------------------
  // Strings of megabytes: read once, compared by content, never quoted whole in a message.

  TEST_CASE("a string of 2 MB is a value like any other in every format") {
    constexpr std::size_t kSize = 2 << 20;
    std::string big = "\"" + std::string(kSize, 'x') + "\"";
    std::string other = big;
    other[kSize] = 'y';  // the last character differs
    for (const Format format : kEventFormats) {
      CAPTURE(format_name(format));
      const auto start = std::chrono::steady_clock::now();
      CHECK(describe(answer(write_events(write_then_read(big, big), format), format, "register(0)")) == "linearizable");
      CHECK(describe(answer(write_events(write_then_read(big, other), format), format, "register(0)")) ==
            "not-linearizable");
      const double seconds = seconds_since(start);
      MESSAGE(format_name(format), ": two histories of a 2 MB string read and checked in ", seconds, " s");
      CHECK(seconds < 20);
    }
  }

  TEST_CASE("a token of 2 MB in the wrong place is a located error") {
    const std::string huge(2 << 20, 'z');
    for (const Format format : kEventFormats) {
      CAPTURE(format_name(format));
      std::vector<RawEvent> events = write_then_read("1", "1");
      events[2].type = huge;  // :zzz... or "zzz...": not a type
      const std::string bad_type = write_events(events, format);
      expect_located_error(answer(bad_type, format, "register(0)"), bad_type);

      const std::string unterminated = write_events(write_then_read("1", "1"), format) + "\"" + huge;
      if (format == Format::jepsen_log) {
        // Its events are jepsen.util lines, so this is a console log, whose other lines
        // are skipped (docs/formats.md): the string is named in the warning instead.
        const EventLog log = parse_events(unterminated, "hostile", format);
        REQUIRE(log.warnings.size() == 1);
        CHECK(inside(log.warnings[0].pos, unterminated));
        CHECK(log.warnings[0].message.size() < 400);
        continue;
      }
      const Answer u = answer(unterminated, format, "register(0)");
      expect_located_error(u, unterminated);
      // The message quotes a little of the string, not 2 MB of it.
      CHECK(std::string(u.error->what()).size() < 400);
    }
  }

  // ---------------------------------------------------------------------------------
  // A file cut at every byte: what remains is a prefix of the history, perhaps with its
  // last event cut short. It must read as a located error, or as a history that the
  // engines decide as brute force does; a prefix that ends between events is a prefix of
  // a linearizable history, so linearizable itself (an op whose completion was cut off is
  // a crashed op, which may take effect where it did).

  bool same_event(const Event& a, const Event& b) {
    return a.process == b.process && a.type == b.type && a.f == b.f && a.value == b.value && a.key == b.key;
  }

  struct TruncationTally {
    int errors = 0;
    int whole_event_prefixes = 0;  // decided, and every event as in the full file
    int altered_prefixes = 0;      // decided, but the last event was cut into another
    int refuted = 0;
  };

  void check_truncation(const SmallHistory& h, Format format, std::size_t length, const EventLog& full,
                        TruncationTally& tally) {
    const std::string prefix = h.text.substr(0, length);
    const auto model = make_model_from_spec(h.model);
    EventLog log;
    History history;
    try {
      log = parse_events(prefix, "cut", format);
      history = build_history(log, *model);
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(inside(e.pos(), prefix));
      ++tally.errors;
      return;
    }
    const CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 30, .jobs = 1, .minimal_core = false};
    const CheckResult oracle = check(history, *model, brute);
    REQUIRE(oracle.verdict != Verdict::unknown);
    for (const Engine engine : {Engine::automatic, Engine::wgl, Engine::jit, Engine::sat}) {
      CAPTURE(engine_name(engine));
      const CheckResult r = check(
          history, *model, CheckOptions{.engine = engine, .timeout_seconds = 30, .jobs = 1, .minimal_core = false});
      CHECK(verdict_name(r.verdict) == verdict_name(oracle.verdict));
    }
    bool whole = log.events.size() <= full.events.size();
    for (std::size_t i = 0; whole && i < log.events.size(); ++i) whole = same_event(log.events[i], full.events[i]);
    if (whole) {
      CHECK(verdict_name(oracle.verdict) == "linearizable");
      ++tally.whole_event_prefixes;
    } else {
      ++tally.altered_prefixes;
    }
    if (oracle.verdict == Verdict::not_linearizable) ++tally.refuted;
  }

  TEST_CASE("a small history cut at every byte is a located error or the verdict of what remains") {
    for (const SmallHistory& h : small_histories()) {
      const EventLog full = parse_events(h.text, "full", h.format);
      {
        const auto model = make_model_from_spec(h.model);
        REQUIRE(check(build_history(full, *model), *model, CheckOptions{.jobs = 1}).verdict == Verdict::linearizable);
      }
      for (const Format format : {h.format, Format::auto_detect}) {
        TruncationTally tally;
        for (std::size_t length = 0; length <= h.text.size(); ++length) {
          CAPTURE(format_name(h.format));
          CAPTURE(format_name(format));
          CAPTURE(length);
          check_truncation(h, format, length, full, tally);
        }
        MESSAGE(format_name(h.format), " read as ", format_name(format), ": ", h.text.size() + 1, " prefixes, ",
                tally.errors, " located errors, ", tally.whole_event_prefixes, " whole-event prefixes (linearizable), ",
                tally.altered_prefixes, " with the last event cut into another (", tally.refuted, " refuted)");
        CHECK(tally.errors > 0);
        // At least the whole file, with and without its last newline.
        CHECK(tally.whole_event_prefixes >= 2);
      }
    }
  }

  // ---------------------------------------------------------------------------------
  // Pairing: a duplicate :index changes nothing (it labels reports; docs/formats.md and
  // corpus/edge-cases/README.md), a completion with nothing open is an error at the
  // completion, an :info with nothing open is a note.

  TEST_CASE("duplicate, decreasing and negative :index values change nothing") {
    for (const Format format : {Format::edn, Format::porcupine_kv, Format::json}) {
      for (const bool stale : {false, true}) {
        CAPTURE(format_name(format));
        CAPTURE(stale);
        const std::vector<RawEvent> plain = write_then_read("1", stale ? "2" : "1");
        const Verdict expected = stale ? Verdict::not_linearizable : Verdict::linearizable;
        for (const std::vector<std::string>& indices :
             {std::vector<std::string>{"5", "5", "5", "5"}, {"3", "2", "1", "0"}, {"0", "0", "-1", "-1"}}) {
          std::vector<RawEvent> events = plain;
          for (std::size_t i = 0; i < events.size(); ++i) events[i].index = indices[i];
          const std::string text = write_events(events, format);
          const auto model = make_model_from_spec("register(0)");
          const History history = build_history(parse_events(text, "index", format), *model);
          // Op ids stay the events' positions, whatever :index says.
          REQUIRE(history.ops.size() == 2);
          CHECK(history.ops[0].id == 0);
          CHECK(history.ops[1].id == 2);
          const CheckResult r = check(history, *model, CheckOptions{.jobs = 1});
          CHECK(verdict_name(r.verdict) == verdict_name(expected));
          if (!stale) CHECK(r.linearization == std::vector<std::uint32_t>{0, 2});
        }
      }
    }
  }

  TEST_CASE("a completion before its invocation is an error at the completion, in every format") {
    for (const Format format : kEventFormats) {
      for (const std::string type : {"ok", "fail"}) {
        CAPTURE(format_name(format));
        CAPTURE(type);
        // Process 1's completion comes first, its invocation after it.
        const std::vector<RawEvent> events = {{"0", "invoke", "write", "1", "", ""},
                                              {"1", type, "read", "1", "", ""},
                                              {"0", "ok", "write", "1", "", ""},
                                              {"1", "invoke", "read", "", "", ""}};
        const std::string text = write_events(events, format);
        const Answer a = answer(text, format, "register(0)");
        expect_located_error(a, text);
        CHECK(a.error->pos().line == event_line(1, format));
        CHECK(a.error->message().find("no open invocation") != std::string::npos);
      }
    }
  }

  TEST_CASE("an :info before any invocation is a note, and the rest is checked") {
    for (const Format format : kEventFormats) {
      for (const bool stale : {false, true}) {
        CAPTURE(format_name(format));
        std::vector<RawEvent> events = {{"1", "info", "read", "7", "", ""}};
        for (const RawEvent& e : write_then_read("1", stale ? "7" : "1")) events.push_back(e);
        const Answer a = answer(write_events(events, format), format, "register(0)");
        CHECK(describe(a) == (stale ? "not-linearizable" : "linearizable"));
      }
    }
  }

}  // TEST_SUITE("hostile")

// ---------------------------------------------------------------------------------
// Cases the readers once got wrong; each comment says what went wrong before the fix.
TEST_SUITE("hostile") {
  // A process beyond 64 bits is an integer, so a client (docs/formats.md: "Integers are
  // clients"; Clojure's integer? is true of a bigint). build_history() used to keep only
  // 64-bit processes as clients and drop the big one's events as a :nemesis's, so the
  // stale read vanished and the history was called linearizable. It is now an error.
  TEST_CASE("a process beyond 64 bits is a client or an error, never ignored") {
    for (const Format format : kEventFormats) {
      for (const std::string process : {"18446744073709551616", "-9223372036854775809"}) {
        CAPTURE(format_name(format));
        CAPTURE(process);
        std::vector<RawEvent> events = write_then_read("1", "2");
        events[2].process = events[3].process = process;
        const std::string text = write_events(events, format);
        expect_located_error_or(answer(text, format, "register(0)"), text, Verdict::not_linearizable);
      }
    }
  }

  // An :index beyond 64 bits was rejected with ":index must be an integer, found an
  // integer 18446744073709551616", a message that contradicts itself; it now says that
  // the index does not fit in 64 bits.
  TEST_CASE("an :index beyond 64 bits is not called a non-integer") {
    for (const Format format : {Format::edn, Format::porcupine_kv, Format::json}) {
      CAPTURE(format_name(format));
      std::vector<RawEvent> events = write_then_read("1", "1");
      events[0].index = "18446744073709551616";
      const Answer a = answer(write_events(events, format), format, "register(0)");
      if (a.error) {
        INFO(a.error->what());
        const std::string& message = a.error->message();
        CHECK((message.find("64 bits") != std::string::npos || message.find("range") != std::string::npos ||
               message.find("too large") != std::string::npos));
      }
    }
  }

  // Real time is file order (docs/formats.md), in JSON as in EDN. A numeric "time"
  // going backwards was once ignored silently, then an error; Knossos' own etcd.edn has
  // such times (one clock per node), and the same events as EDN were checked. Now the
  // file's order decides, as for EDN's :time, and the reader warns once, at the first
  // event that goes back, counting the others (integers, big integers and decimals
  // compared as numbers). Sorting instead would renumber the op ids, which are
  // positions in the file.
  TEST_CASE("JSON timestamps out of order are read in file order, with one warning at the first that goes back") {
    for (const std::vector<std::string>& times :
         {std::vector<std::string>{"10", "20", "15", "30"},
          {"1", "2", "3", "-4"},
          {"18446744073709551617", "18446744073709551618", "18446744073709551616", "18446744073709551619"},
          {"1.5", "2.5", "2.25", "3.5"},
          {"40", "30", "20", "10"}}) {
      CAPTURE(times[2]);
      std::vector<RawEvent> events = write_then_read("1", "1");
      for (std::size_t i = 0; i < events.size(); ++i) events[i].time = times[i];
      const std::string text = write_events(events, Format::json);
      const Answer a = answer(text, Format::json, "register(0)");
      INFO(describe(a));
      REQUIRE_FALSE(a.error.has_value());
      CHECK(a.verdict == answer(write_events(events, Format::edn), Format::edn, "register(0)").verdict);
      const auto model = make_model_from_spec("register(0)");
      const History history = build_history(parse_events(text, "hostile", Format::json), *model);
      REQUIRE(history.warnings.size() == 1);
      const std::size_t backwards = times[0] == "40" ? 1 : times[3].starts_with("-") ? 3 : 2;
      CHECK(history.warnings[0].pos.line == event_line(backwards, Format::json));
      CHECK(history.warnings[0].message.find("goes back from") != std::string::npos);
      const bool more = times[0] == "40";
      CHECK((history.warnings[0].message.find("and at 2 later events") != std::string::npos) == more);
      // The streaming reader says the same.
      CHECK(parse_history(text, "hostile", *model, Format::json).warnings.size() == 1);
    }
  }

  // JSON strings are UTF-8, and Value::to_json writes a byte that is not as U+FFFD, so
  // two different EDN strings ("a\xffb" and "a\xfeb") became one JSON string and the
  // converted history turned linearizable. The converter promises an error for what a
  // format cannot hold, and now gives one at the event.
  TEST_CASE("converting bytes that are not UTF-8 to JSON is an error, not another history") {
    const std::string text = write_events(write_then_read("\"a\xff"
                                                          "b\"",
                                                          "\"a\xfe"
                                                          "b\""),
                                          Format::edn);
    const auto model = make_model_from_spec("register(0)");
    const EventLog log = parse_events(text, "edn", Format::edn);
    REQUIRE(check(build_history(log, *model), *model, CheckOptions{.jobs = 1}).verdict == Verdict::not_linearizable);
    std::string json;
    try {
      json = format_events(log, Format::json);
    } catch (const InputError& e) {
      CHECK(e.pos().line == event_line(0, Format::edn));
      return;
    }
    const Answer converted = answer(json, Format::json, "register(0)");
    CHECK(describe(converted) == "not-linearizable");
  }

  // A huge name where a type or an operation is expected was quoted whole: "unknown
  // :type :zzz...", "register: unknown operation :zzz...", "completion :zzz... does
  // not match ...", a 2 MB message for a 2 MB name. Every message now quotes names and
  // values through shorten (<ariadne/value.hpp>).
  TEST_CASE("a huge :type or :f is quoted briefly in the error message") {
    const std::string huge(2 << 20, 'z');
    for (const Format format : kEventFormats) {
      CAPTURE(format_name(format));
      std::vector<RawEvent> events = write_then_read("1", "1");
      events[2].type = huge;
      const Answer t = answer(write_events(events, format), format, "register(0)");
      REQUIRE(t.error.has_value());
      CHECK(std::string(t.error->what()).size() < 400);
      events = write_then_read("1", "1");
      events[0].f = events[1].f = huge;
      const Answer f = answer(write_events(events, format), format, "register(0)");
      REQUIRE(f.error.has_value());
      CHECK(std::string(f.error->what()).size() < 400);
      events = write_then_read("1", "1");
      events[1].f = huge;
      const Answer mismatch = answer(write_events(events, format), format, "register(0)");
      REQUIRE(mismatch.error.has_value());
      CHECK(std::string(mismatch.error->what()).size() < 400);
    }
  }

  // ---------------------------------------------------------------------------------
  // The collection formats (Violin and LiMo logs, fastlin histories): integers beyond
  // 64 bits, tokens of megabytes and every cut of a small file end in a located error
  // or a verdict, never in another history.

  TEST_CASE("the collection formats: huge numbers and tokens, and every cut, are located errors or verdicts") {
    const std::string violin = "# @object queue\n[1] call add(1)\n  [2] call remove\n[1] return\n  [2] return 1\n";
    const std::string fastlin = "# stack\npush 1 1 2\npush 2 3 4\npop 2 5 6\npop 1 7 8\n";
    const std::string beyond = "123456789012345678901234567890";
    for (const std::string& text :
         {"# @object queue\n[" + beyond + "] call add(1)\n", "# @object queue\n[1] call add(" + beyond + ")\n",
          "# @object queue\n[1] call " + repeat("x", 2 * kMillion) + "\n",
          "# @object queue\n[1] call add(1)\n[1] return " + repeat("7", 2 * kMillion) + "\n",
          "# stack\npush 1 1 " + beyond + "\n", "# stack\npush " + beyond + " 1 2\n",
          "# stack\n" + repeat("p", 2 * kMillion) + " 1 1 2\n"}) {
      CAPTURE(text.substr(0, 60));
      expect_located_error(answer(text, Format::auto_detect, "stack"), text);
    }
    // A symbol of 2 MB is a value like any other.
    const std::string long_symbol = "# @object queue\n[1] call add(" + repeat("a", 2 * kMillion) + ")\n[1] return\n";
    CHECK(describe(answer(long_symbol, Format::violin_log, "fifo-queue")) == "linearizable");
    for (const auto& [text, format, model] :
         {std::tuple{violin, Format::violin_log, "fifo-queue"}, std::tuple{fastlin, Format::fastlin, "stack"}}) {
      for (std::size_t length = 0; length <= text.size(); ++length) {
        CAPTURE(length);
        const std::string cut = text.substr(0, length);
        const Answer a = answer(cut, format, model);
        // What remains of these linearizable histories is linearizable (a cut value
        // is another value of a crashed or unmatched operation, or an error).
        if (a.error) {
          CHECK(inside(a.error->pos(), cut.empty() ? std::string_view(" ") : std::string_view(cut)));
        } else {
          CHECK(a.verdict.has_value());
        }
      }
    }
  }

}  // TEST_SUITE("hostile")
