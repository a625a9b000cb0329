// libFuzzer target for the EDN value parser (parse_edn_value, which reads --init
// arguments and model specs, on the same reader every EDN-shaped history format uses).
//
// Any text may be rejected with an InputError; anything else is a bug. An accepted
// value must print (to_edn) as text that reads back as an equal value with the same
// hash and prints the same again, since histories, specs and certificates are written
// with to_edn and read back; to_json must not fail either.
#include "harness.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/value.hpp>

#include <exception>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ariadne;
  Value value;
  try {
    value = parse_edn_value(fuzz::as_text(data, size), "fuzz-input");
  } catch (const InputError&) {
    return 0;
  } catch (const std::exception& e) {
    fuzz::report_bug("parse_edn_value() threw something other than InputError", e.what());
  }

  const std::string printed = value.to_edn();
  Value back;
  try {
    back = parse_edn_value(printed, "printed");
  } catch (const std::exception& e) {
    fuzz::report_bug("reading back to_edn()", std::string(e.what()) + "\n--- printed ---\n" + printed);
  }
  if (back != value) fuzz::report_bug("to_edn() round trip", "read back a different value from\n" + printed);
  if (back.hash() != value.hash()) fuzz::report_bug("hash", "equal values hash differently: " + printed);
  if (back.to_edn() != printed) {
    fuzz::report_bug("to_edn()", "printing again changed\n" + printed + "\ninto\n" + back.to_edn());
  }
  static_cast<void>(value.to_json());
  return 0;
}
