// The EDN reader: every construct it accepts, and every error with its line:column.
#include <ariadne/history.hpp>

#include "history/edn_reader.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using ariadne::InputError;
using ariadne::Value;

namespace {

Value edn(const std::string& text) { return ariadne::parse_edn_value(text, "t.edn"); }

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("edn reads nil, booleans and symbols") {
    CHECK(edn("nil").is_nil());
    CHECK(edn("true") == Value::boolean(true));
    CHECK(edn("false") == Value::boolean(false));
    CHECK(edn("foo") == Value::symbol("foo"));
    CHECK(edn("my.ns/foo") == Value::symbol("my.ns/foo"));
    CHECK(edn("/") == Value::symbol("/"));
    CHECK(edn("+") == Value::symbol("+"));
    CHECK(edn("-") == Value::symbol("-"));
    CHECK(edn("<=") == Value::symbol("<="));
    CHECK(edn("valid?") == Value::symbol("valid?"));
    CHECK(edn("nil?") == Value::symbol("nil?"));
  }

  TEST_CASE("edn reads keywords with and without a namespace") {
    CHECK(edn(":a") == Value::keyword("a"));
    CHECK(edn(":a/b") == Value::keyword("a/b"));
    CHECK(edn(":timed-out") == Value::keyword("timed-out"));
    CHECK(edn(":n1") == Value::keyword("n1"));
  }

  TEST_CASE("edn reads 64-bit integers and keeps larger ones as canonical big integers") {
    CHECK(edn("0") == Value::integer(0));
    CHECK(edn("-0") == Value::integer(0));
    CHECK(edn("42") == Value::integer(42));
    CHECK(edn("+7") == Value::integer(7));
    CHECK(edn("-5") == Value::integer(-5));
    CHECK(edn("12N") == Value::integer(12));
    CHECK(edn("9223372036854775807") == Value::integer(INT64_MAX));
    CHECK(edn("-9223372036854775808") == Value::integer(INT64_MIN));
    CHECK(edn("9223372036854775808") == Value::big_integer("9223372036854775808"));
    CHECK(edn("+99999999999999999999N") == Value::big_integer("99999999999999999999"));
    CHECK(edn("-99999999999999999999") == Value::big_integer("-99999999999999999999"));
  }

  TEST_CASE("edn reads floats with fractions, exponents and the M suffix") {
    CHECK(edn("1.5") == Value::floating(1.5));
    CHECK(edn("-2.5e3") == Value::floating(-2500.0));
    CHECK(edn("+1E-2") == Value::floating(0.01));
    CHECK(edn("1e+2") == Value::floating(100.0));
    CHECK(edn("1.") == Value::floating(1.0));
    CHECK(edn("2.5M") == Value::floating(2.5));
    CHECK(edn("3M") == Value::floating(3.0));
    CHECK(edn("00.5") == Value::floating(0.5));
    CHECK(edn("##Inf") == Value::floating(INFINITY));
    CHECK(edn("##-Inf") == Value::floating(-INFINITY));
    CHECK(std::isnan(edn("##NaN").as_floating()));
  }

  TEST_CASE("edn reads strings with every escape") {
    CHECK(edn(R"("plain")") == Value::string("plain"));
    CHECK(edn(R"("q\"b\\s")") == Value::string("q\"b\\s"));
    CHECK(edn(R"("\n\t\r\b\f")") == Value::string("\n\t\r\b\f"));
    CHECK(edn(R"("\u0041\u00e9\u20AC")") == Value::string("A\xC3\xA9\xE2\x82\xAC"));
    CHECK(edn(R"("\uD83D\uDE00")") == Value::string("\xF0\x9F\x98\x80"));
    CHECK(edn("\"two\nlines\"") == Value::string("two\nlines"));
    CHECK(edn("\"\"") == Value::string(""));
  }

  TEST_CASE("edn reads characters as one-character strings") {
    CHECK(edn("\\a") == Value::string("a"));
    CHECK(edn("\\newline") == Value::string("\n"));
    CHECK(edn("\\space") == Value::string(" "));
    CHECK(edn("\\tab") == Value::string("\t"));
    CHECK(edn("\\return") == Value::string("\r"));
    CHECK(edn("\\u00e9") == Value::string("\xC3\xA9"));
    CHECK(edn("\\(") == Value::string("("));
    CHECK(edn("[\\a \\b]") == Value::vector({Value::string("a"), Value::string("b")}));
  }

  TEST_CASE("edn reads vectors, lists, sets and maps, nested") {
    CHECK(edn("[]") == Value::vector({}));
    CHECK(edn("[1 [2 3]]").kind() == Value::Kind::vector);
    CHECK(edn("[1 [2 3]]").elements().at(1) == Value::vector({Value::integer(2), Value::integer(3)}));
    CHECK(edn("(1 2)").kind() == Value::Kind::list);
    CHECK(edn("(1 2)").elements().size() == 2);
    const Value set = edn("#{1 2 1}");
    CHECK(set.is_set());
    CHECK(set.elements().size() == 2);
    const Value map = edn("{:a 1, :b [2], \"c\" {:d nil}}");
    REQUIRE(map.is_map());
    CHECK(map.entries().size() == 3);
    CHECK(*map.find_keyword("a") == Value::integer(1));
    CHECK(*map.find(Value::string("c")) == Value::map({{Value::keyword("d"), Value()}}));
    CHECK(edn("{}") == Value::map({}));
  }

  TEST_CASE("edn treats commas as whitespace and skips comments") {
    CHECK(edn(",,[1,2,,3],") == Value::vector({Value::integer(1), Value::integer(2), Value::integer(3)}));
    CHECK(edn("; leading comment\n[1 ; inside\n 2] ; trailing") ==
          Value::vector({Value::integer(1), Value::integer(2)}));
    CHECK(edn("\xEF\xBB\xBF[1]") == Value::vector({Value::integer(1)}));
  }

  TEST_CASE("edn allows the byte-order mark only at the start, never as a symbol that would print as one") {
    // corpus/fuzz/fuzz_edn_value/symbol-starting-with-bom: two marks read as a symbol
    // named U+FEFF, which printed reads back as a mark and nothing else.
    CHECK_THROWS_AS(edn("\xEF\xBB\xBF\xEF\xBB\xBF"), InputError);
    CHECK_THROWS_AS(edn("[\xEF\xBB\xBFx]"), InputError);
    CHECK(edn("x\xEF\xBB\xBF") == Value::symbol("x\xEF\xBB\xBF"));
  }

  TEST_CASE("edn discards the form after #_, nested discards included") {
    CHECK(edn("[1 #_ 2 3]") == Value::vector({Value::integer(1), Value::integer(3)}));
    CHECK(edn("#_ [1 2] 4") == Value::integer(4));
    CHECK(edn("#_ #_ 1 2 3") == Value::integer(3));
    CHECK(edn("[#_{:a 1}]") == Value::vector({}));
    CHECK(edn("5 #_ 6") == Value::integer(5));
  }

  TEST_CASE("edn keeps the value of a tagged literal and drops the tag") {
    CHECK(edn("#inst \"2020-01-01T00:00:00Z\"") == Value::string("2020-01-01T00:00:00Z"));
    CHECK(edn("#uuid \"f81d4fae-7dec-11d0-a765-00a0c91e6bf6\"") ==
          Value::string("f81d4fae-7dec-11d0-a765-00a0c91e6bf6"));
    CHECK(edn("#my.app/point [1 2]") == Value::vector({Value::integer(1), Value::integer(2)}));
    CHECK(edn("#jepsen.Op{:a 1}") == Value::map({{Value::keyword("a"), Value::integer(1)}}));
    CHECK(edn("#a #b 7") == Value::integer(7));
    CHECK(edn("#a #_ 1 2") == Value::integer(2));
  }

  TEST_CASE("edn reads back what Value::to_edn prints") {
    const Value v = edn(R"({:a [1 -2.5 "s\"q" nil true] :b #{:x :y} :c (1 2) :d 99999999999999999999N :e ##Inf})");
    CHECK(edn(v.to_edn()) == v);
  }

  TEST_CASE("edn accepts nesting up to the depth limit and rejects deeper nesting") {
    const std::size_t limit = ariadne::edn::kMaxNestingDepth;
    CHECK(edn(std::string(limit, '[') + std::string(limit, ']')).is_sequential());
    CHECK_THROWS_WITH_AS(
        edn(std::string(limit + 1, '[') + std::string(limit + 1, ']')),
        ("t.edn:1:" + std::to_string(limit + 1) + ": nesting deeper than " + std::to_string(limit) + " levels").c_str(),
        InputError);
    // Far beyond the limit: an error, not a stack overflow.
    CHECK_THROWS_AS(edn(std::string(1000000, '[')), InputError);
    CHECK_THROWS_AS(edn(std::string(1000000, '{')), InputError);
  }

  TEST_CASE("edn reports unterminated collections at the end, naming where they opened") {
    CHECK_THROWS_WITH_AS(
        edn("[1 2"), "t.edn:1:5: unterminated vector: expected ']' before end of input (opened at 1:1)", InputError);
    CHECK_THROWS_WITH_AS(edn("\n\n[1\n 2\n"),
                         "t.edn:5:1: unterminated vector: expected ']' before end of input (opened at 3:1)",
                         InputError);
    CHECK_THROWS_WITH_AS(edn("(1"), "t.edn:1:3: unterminated list: expected ')' before end of input (opened at 1:1)",
                         InputError);
    CHECK_THROWS_WITH_AS(edn("[{:a 1"), "t.edn:1:7: unterminated map: expected '}' before end of input (opened at 1:2)",
                         InputError);
    CHECK_THROWS_WITH_AS(edn("#{1"), "t.edn:1:4: unterminated set: expected '}' before end of input (opened at 1:1)",
                         InputError);
  }

  TEST_CASE("edn reports unterminated strings, also across lines") {
    CHECK_THROWS_WITH_AS(
        edn("\"abc"), "t.edn:1:5: unterminated string: expected '\"' before end of input (opened at 1:1)", InputError);
    CHECK_THROWS_WITH_AS(edn("[\"a\nbc"),
                         "t.edn:2:3: unterminated string: expected '\"' before end of input (opened at 1:2)",
                         InputError);
    CHECK_THROWS_WITH_AS(edn("\"ends in a backslash\\"),
                         "t.edn:1:22: unterminated string: expected '\"' before end of input (opened at 1:1)",
                         InputError);
  }

  TEST_CASE("edn reports a stray or mismatched closer") {
    CHECK_THROWS_WITH_AS(edn(")"), "t.edn:1:1: expected a value, found ')'", InputError);
    CHECK_THROWS_WITH_AS(edn("[1 2)"), "t.edn:1:5: expected ']' to close the vector opened at 1:1, found ')'",
                         InputError);
    CHECK_THROWS_WITH_AS(edn("{:a (1]}"), "t.edn:1:7: expected ')' to close the list opened at 1:5, found ']'",
                         InputError);
    CHECK_THROWS_WITH_AS(edn("[1 #_]"), "t.edn:1:6: expected a form after #_, found ']'", InputError);
    CHECK_THROWS_WITH_AS(edn("[#inst]"), "t.edn:1:7: expected a value after #inst, found ']'", InputError);
  }

  TEST_CASE("edn reports a map with an odd number of forms at its opening brace") {
    CHECK_THROWS_WITH_AS(edn("[1\n {:a 1 :b}]"), "t.edn:2:2: map literal has an odd number of forms", InputError);
  }

  TEST_CASE("edn reports invalid numbers") {
    CHECK_THROWS_WITH_AS(edn("12x"), "t.edn:1:1: invalid number '12x'", InputError);
    CHECK_THROWS_WITH_AS(edn("[1 2.5.1]"), "t.edn:1:4: invalid number '2.5.1'", InputError);
    CHECK_THROWS_WITH_AS(edn("1e"), "t.edn:1:1: invalid number '1e'", InputError);
    CHECK_THROWS_WITH_AS(edn(".5"), "t.edn:1:1: invalid number '.5'", InputError);
    CHECK_THROWS_WITH_AS(edn("1/2"), "t.edn:1:1: invalid number '1/2'", InputError);
    CHECK_THROWS_WITH_AS(edn("0x1F"), "t.edn:1:1: invalid number '0x1F'", InputError);
    CHECK_THROWS_WITH_AS(edn("012"), "t.edn:1:1: invalid number '012': an integer other than 0 cannot start with 0",
                         InputError);
    CHECK_THROWS_WITH_AS(edn("1e999"), "t.edn:1:1: invalid number '1e999': out of range for a double", InputError);
  }

  TEST_CASE("edn reports invalid escapes in strings at the backslash") {
    CHECK_THROWS_WITH_AS(edn(R"("ab\q")"),
                         R"(t.edn:1:4: invalid escape '\q' in string (EDN allows \" \\ \n \t \r \b \f and \uXXXX))",
                         InputError);
    CHECK_THROWS_WITH_AS(edn(R"("\u12G4")"), R"(t.edn:1:2: invalid \u escape: expected four hex digits in string)",
                         InputError);
    CHECK_THROWS_WITH_AS(edn(R"("x\uD800y")"), R"(t.edn:1:3: unpaired surrogate in \u escape in string)", InputError);
    CHECK_THROWS_WITH_AS(edn(R"("\uDC00")"), R"(t.edn:1:2: unpaired surrogate in \u escape in string)", InputError);
  }

  TEST_CASE("edn reports malformed keywords, symbols, characters and dispatches") {
    CHECK_THROWS_WITH_AS(edn(":"), "t.edn:1:1: expected a keyword name after ':', found end of input", InputError);
    CHECK_THROWS_WITH_AS(edn("::a"), "t.edn:1:1: invalid keyword '::a' (auto-resolved keywords are not EDN)",
                         InputError);
    CHECK_THROWS_WITH_AS(edn(":a/"), "t.edn:1:1: invalid keyword ':a/'", InputError);
    CHECK_THROWS_WITH_AS(edn("a|b"), "t.edn:1:1: invalid symbol 'a|b'", InputError);
    CHECK_THROWS_WITH_AS(edn("@x"), "t.edn:1:1: expected a value, found '@'", InputError);
    CHECK_THROWS_WITH_AS(edn("\x01"), "t.edn:1:1: expected a value, found byte 0x01", InputError);
    CHECK_THROWS_WITH_AS(edn("\\"), "t.edn:1:1: expected a character after '\\', found end of input", InputError);
    CHECK_THROWS_WITH_AS(edn("\\foo"), "t.edn:1:1: invalid character literal '\\foo'", InputError);
    CHECK_THROWS_WITH_AS(edn("#(inc %)"),
                         "t.edn:1:1: unsupported dispatch '#' followed by '(': EDN allows #{...}, #_, ##Inf, ##-Inf, "
                         "##NaN and #tag",
                         InputError);
    CHECK_THROWS_WITH_AS(edn("##Foo"), "t.edn:1:1: invalid symbolic value '##Foo', expected ##Inf, ##-Inf or ##NaN",
                         InputError);
    CHECK_THROWS_WITH_AS(edn("#_"), "t.edn:1:3: expected a form after #_, found end of input", InputError);
    CHECK_THROWS_WITH_AS(edn("#inst"), "t.edn:1:6: expected a value after #inst, found end of input", InputError);
  }

  TEST_CASE("edn value parsing wants exactly one value") {
    CHECK_THROWS_WITH_AS(edn(""), "t.edn:1:1: expected a value, found end of input", InputError);
    CHECK_THROWS_WITH_AS(edn("  ; only a comment\n"), "t.edn:2:1: expected a value, found end of input", InputError);
    CHECK_THROWS_WITH_AS(edn("1 2"), "t.edn:1:3: expected a single value, found '2' after it", InputError);
    CHECK_THROWS_WITH_AS(edn("[1] )"), "t.edn:1:5: expected a single value, found ')' after it", InputError);
  }

  TEST_CASE("edn counts columns in bytes") {
    // "é" is two bytes, so the ')' after `"é" ` is at byte column 6.
    CHECK_THROWS_WITH_AS(edn("\"\xC3\xA9\" )"), "t.edn:1:6: expected a single value, found ')' after it", InputError);
  }

  TEST_CASE("edn reader starts at a given position and names the end of its text") {
    ariadne::edn::Reader reader("[1 2", "log.txt", {7, 21}, "end of line");
    CHECK(reader.position().line == 7);
    CHECK(reader.position().column == 21);
    CHECK_THROWS_WITH_AS(reader.read(),
                         "log.txt:7:25: unterminated vector: expected ']' before end of line (opened at 7:21)",
                         InputError);
  }

}  // TEST_SUITE
