// What the fuzz targets share: how an input's first byte chooses a model, the whole
// check run on one input with the oracles that tell a bug from a fine outcome, and
// the comparison of events that the readers' round trips rely on.
//
// Only the public API (include/ariadne) is used, so the targets keep working while
// the readers behind parse_events() are rewritten.
//
// A bug is reported by abort() after a message on stderr: libFuzzer and the replay
// tool both treat an abort as a crash and keep the input.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ariadne::fuzz {

// The model spec an input's first byte selects: the byte modulo the number of
// built-in models picks the model (in model_catalogue() order), and the next bit of
// the quotient whether it starts from its default state or from 0 ("register",
// "register(0)"). A spec some model rejects ("mutex(0)") is a fine outcome, a
// UsageError, that the fuzzer learns to avoid.
std::string model_spec_for_selector(std::uint8_t selector);
// The selector byte whose spec names the same model as `spec` and, when `spec`
// starts from 0, the same initial state: how seeds from corpus files with a
// `; model:` header get a first byte. Throws UsageError for an unknown model name.
std::uint8_t selector_for_model_spec(std::string_view spec);

// The limits of one check: short enough that a fuzzer runs thousands of inputs, small
// enough that a runaway search shows up as a bug rather than as swapping.
struct CheckLimits {
  double timeout_seconds = 0.5;
  std::uint64_t memory_limit = 64ULL << 20;
};

// The whole check of one input: a history in any format (auto-detected) under the
// model `spec`, with one job. Returns the verdict, or nothing when the input or the
// spec was rejected (InputError, UsageError: fine outcomes). Aborts on a bug: any
// other exception, an exception from check() itself (build_history has vetted the
// history, and engines report trouble as unknown), or a result that breaks its
// contract (see harness.cpp).
std::optional<Verdict> check_input(std::string_view text, const std::string& spec, const CheckLimits& limits);

// A fuzz input as text: the targets' bytes as the readers take them.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Events equal in everything a history is made of (process, type, f, value, key,
// index); the source position may differ, as it does after re-serialising.
bool same_event(const Event& a, const Event& b);

// Prints `what` and the message on stderr, then aborts: the one way a harness
// reports a bug.
[[noreturn]] void report_bug(std::string_view what, std::string_view detail);

}  // namespace ariadne::fuzz
