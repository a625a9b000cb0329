// `ariadne convert`'s promise: every corpus file, written in every format and read
// back, gives the same history (op ids, intervals, values, statuses) and the same
// verdict. jepsen-log, which has no :key, must refuse keyed histories instead, and
// json, which has no keywords, histories whose models read keywords.
#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "batch/corpus_rows.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

using namespace ariadne;

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;
constexpr Format kFormats[] = {Format::edn, Format::jepsen_log, Format::porcupine_kv, Format::json};

bool same_history(const History& a, const History& b) {
  if (a.ops.size() != b.ops.size()) return false;
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    const Operation& x = a.ops[i];
    const Operation& y = b.ops[i];
    if (x.id != y.id || x.process != y.process || x.f != y.f || x.status != y.status || x.call != y.call ||
        x.ret != y.ret || x.key != y.key || x.value.to_json() != y.value.to_json() ||
        x.invoke_value.to_json() != y.invoke_value.to_json()) {
      return false;
    }
  }
  return true;
}

// Returns the number of conversions checked.
int round_trip(const std::string& corpus) {
  int conversions = 0;
  for (const batch::CorpusRow& row : batch::read_corpus_rows(corpus)) {
    INFO(row.name);
    REQUIRE(row.error.empty());
    const auto model = make_model_from_spec(row.model);
    const EventLog log = read_events(row.path.string());
    const History original = build_history(log, *model);
    const bool keyed =
        std::any_of(log.events.begin(), log.events.end(), [](const Event& e) { return !e.key.is_nil(); });
    // Keywords inside values a model reads (multi-register's [[:w :x 1]]) have no
    // JSON form.
    const bool keywords = std::any_of(log.events.begin(), log.events.end(), [](const Event& e) {
      const bool collection = e.value.is_sequential() || e.value.is_set() || e.value.is_map();
      return e.process.is_integer() && (e.type == EventType::invoke || e.type == EventType::ok) && collection &&
             e.value.to_edn().find(':') != std::string::npos;
    });
    // jepsen-log names processes by integers and keywords only (a string such as a
    // node name, "n1", is an error).
    const bool odd_process = std::any_of(log.events.begin(), log.events.end(), [](const Event& e) {
      return !e.process.is_integer() && !e.process.is_keyword();
    });
    for (const Format format : kFormats) {
      INFO("to ", format_name(format));
      if ((format == Format::jepsen_log && (keyed || odd_process)) || (format == Format::json && keywords)) {
        CHECK_THROWS_AS(format_events(log, format), InputError);
        continue;
      }
      const EventLog back = parse_events(format_events(log, format), "converted", format);
      REQUIRE(back.events.size() == log.events.size());
      // JSON writes keywords as strings, so the model's initial state must say them so.
      const auto converted_model = make_model_from_spec(batch::model_spec_for_format(row.model, format));
      const History converted = build_history(back, *converted_model);
      CHECK(same_history(original, converted));
      const CheckResult result =
          check(converted, *converted_model, CheckOptions{.timeout_seconds = 60, .jobs = 1, .minimal_core = false});
      CHECK(verdict_name(result.verdict) == verdict_name(*row.expected));
      ++conversions;
    }
  }
  return conversions;
}

}  // namespace

TEST_CASE("convert: every family of our corpus round-trips through every format with its verdict") {
  // All but one pair: H8's [queue item] tuples hold keywords, which JSON cannot keep
  // apart from strings inside a value the model reads (refused, as checked above).
  CHECK(round_trip(kSourceDir + "/corpus/classic") == 15 * 4 - 1);
  // Every family at once: edge cases, generated histories of every model, regressions.
  CHECK(round_trip(kSourceDir + "/corpus") > 157 * 2);
}

TEST_CASE("convert: auto-detection is not the target of a conversion") {
  CHECK_THROWS_AS(format_events(EventLog{}, Format::auto_detect), UsageError);
}

TEST_SUITE("slow") {
  TEST_CASE("convert: both shared corpora round-trip through every format with their verdicts") {
    for (const char* name : {"knossos", "porcupine"}) {
      const std::string tsv = kSourceDir + "/../shared/corpus/" + name + "/expected.tsv";
      if (!std::filesystem::exists(tsv)) {
        MESSAGE("skipped: ", tsv, " is absent (a plain clone has no ../shared)");
        continue;
      }
      CHECK(round_trip(tsv) > 0);
    }
  }
}
