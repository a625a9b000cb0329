// libFuzzer target for the whole check: an input's first byte chooses a built-in
// model (fuzz::model_spec_for_selector), the rest is a history in any format, read
// with auto-detection, paired into operations and checked with one job, a 0.5 s
// timeout and a 64 MiB memory limit (fuzz::check_input holds the oracles).
//
// Built twice (CMakeLists.txt): fuzz_check mutates bytes, fuzz_check_events adds
// event_mutator.cpp, which edits histories event by event. Both read the same input
// format, so their corpora can be merged.
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  ariadne::fuzz::check_input(ariadne::fuzz::as_text(data + 1, size - 1),
                             ariadne::fuzz::model_spec_for_selector(data[0]), ariadne::fuzz::CheckLimits{});
  return 0;
}
