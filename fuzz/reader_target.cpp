// libFuzzer target for one history reader, chosen at compile time by
// ARIADNE_FUZZ_FORMAT ("edn", "jepsen-log", "porcupine-kv", "json", "violin-log",
// "fastlin"; CMakeLists.txt
// builds one binary per format).
//
// Any text may be rejected with an InputError; anything else a reader throws, or any
// sanitizer report, is a bug. The fast paths and the parallel reading must read the
// text as the general reader alone does (history/read_transcript.hpp): the same
// events at the same positions, or the same error at the same place; the input's
// first byte sets the size of the parallel blocks, so block edges fall everywhere.
// A text that is accepted must survive the round trip that `ariadne convert`
// promises (include/ariadne/history.hpp, format_events): written as EDN, which can
// hold every event, it reads back as the same events; written in its own format,
// when that format can hold it, likewise.
#include "harness.hpp"

#include "history/read_transcript.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>

#include <exception>
#include <string>

namespace {

using namespace ariadne;

const Format kFormat = *parse_format(ARIADNE_FUZZ_FORMAT);

void expect_round_trip(const EventLog& log, Format format, const std::string& text) {
  EventLog back;
  try {
    back = parse_events(text, "round-trip", format);
  } catch (const std::exception& e) {
    fuzz::report_bug("reading back what format_events() wrote in " + std::string(format_name(format)),
                     std::string(e.what()) + "\n--- text ---\n" + text);
  }
  if (back.events.size() != log.events.size()) {
    fuzz::report_bug("round trip through " + std::string(format_name(format)),
                     "event count changed from " + std::to_string(log.events.size()) + " to " +
                         std::to_string(back.events.size()) + "\n--- text ---\n" + text);
  }
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    if (!fuzz::same_event(log.events[i], back.events[i])) {
      fuzz::report_bug("round trip through " + std::string(format_name(format)),
                       "event " + std::to_string(i) + " changed\n--- text ---\n" + text);
    }
  }
}

void expect_fast_paths_agree(std::string_view text, std::size_t block_bytes, bool parallel) {
  const std::string general = read_transcript(text, "fuzz-input", kFormat, {false, 1, 1 << 20});
  const std::string fast = read_transcript(text, "fuzz-input", kFormat, {true, 1, 1 << 20});
  if (fast != general) {
    fuzz::report_bug("the fast path read the text otherwise than the general reader",
                     "--- general ---\n" + general + "--- fast ---\n" + fast);
  }
  if (!parallel) return;
  const std::string blocks = read_transcript(text, "fuzz-input", kFormat, {true, 2, block_bytes});
  if (blocks != general) {
    fuzz::report_bug("the parallel reading read the text otherwise than the general reader",
                     "--- general ---\n" + general + "--- parallel ---\n" + blocks);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Threads cost a sanitized build a millisecond each: one input in eight is also
  // read in parallel, its first byte setting the blocks' size.
  expect_fast_paths_agree(fuzz::as_text(data, size), size > 0 ? 1 + data[0] % 128 : 1,
                          size > 0 && (data[size - 1] & 7) == 0);
  EventLog log;
  try {
    log = parse_events(fuzz::as_text(data, size), "fuzz-input", kFormat);
  } catch (const InputError&) {
    return 0;
  } catch (const std::exception& e) {
    fuzz::report_bug("parse_events() threw something other than InputError", e.what());
  }

  std::string as_edn;
  try {
    as_edn = format_events(log, Format::edn);
  } catch (const std::exception& e) {
    fuzz::report_bug("format_events(edn) threw on events its reader accepted", e.what());
  }
  expect_round_trip(log, Format::edn, as_edn);

  std::string as_own_format;
  try {
    as_own_format = format_events(log, kFormat);
  } catch (const InputError&) {
    // The format cannot hold some event (documented for jepsen-log and json).
    return 0;
  } catch (const std::exception& e) {
    fuzz::report_bug("format_events() threw something other than InputError", e.what());
  }
  expect_round_trip(log, kFormat, as_own_format);
  return 0;
}
