// history + model -> Formula. The encoder never includes a solver header.
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "encoder/formula.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace ariadne::encoder {

// Switchable ops, for deciding many relaxed histories on one formula (minimal cores,
// refute/switchable_check.hpp): an op's recorded version and its relaxed twin are both
// in the span, and selector k says which one is real. The recorded version (`kept`)
// takes effect as recorded exactly when selector k holds; the twin (`relaxed`) may
// take effect only when it does not. Assuming selector k keeps the op; leaving it free
// relaxes it, since a model with the recorded version can always use the twin instead.
struct OpSelector {
  enum class Side : std::uint8_t { none, kept, relaxed };
  Side side = Side::none;
  std::uint32_t selector = 0;
};

struct EncodeOptions {
  // The order the ops must keep (consistency.hpp): real time, or under the sequential
  // conditions program order. Under the latter only the register family's reads-from
  // encoding and the unrolling are used: the other theories prune with facts of
  // interval orders (nested predecessor sets) that program order lacks.
  Consistency consistency = Consistency::linearizable;
  // Use the bounded unrolling even where a direct encoding exists (for tests).
  bool force_unrolling = false;
  // Polled while encoding; returning true abandons it (EncodingStopped).
  std::function<bool()> should_stop;
  // Called with the formula's size as it grows; returning false abandons it
  // (EncodingTooLarge). This is how encoding stays inside --memory-limit.
  std::function<bool(std::size_t bytes)> memory_ok;
  // Per op of the span, or empty: no selectors (OpSelector). Only for models with
  // semantics (not the unrolling). Formula::selectors then holds each selector's
  // literal.
  std::vector<OpSelector> selectors;
};

// Thrown when should_stop fired.
class EncodingStopped : public std::runtime_error {
 public:
  EncodingStopped() : std::runtime_error("encoding stopped") {}
};

// Thrown when the formula would not fit, or the history is outside what the chosen
// encoding handles (too many states to unroll, reads matching too many ways of
// combining appends). The message says which.
class EncodingUnsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How `model` can be encoded for `ops`, before building anything: "reads-from
// (register family)", "bounded unrolling over 6 states", or nullopt with `why_not`
// set when neither a direct encoding nor the unrolling applies.
std::optional<std::string> supports(const Model& model, std::span<const Operation* const> ops,
                                    std::string* why_not = nullptr,
                                    Consistency consistency = Consistency::linearizable);

// `ops` in ascending call order, as the engines receive a partition. Throws
// EncodingStopped or EncodingUnsupported.
Formula encode(const Model& model, std::span<const Operation* const> ops, const EncodeOptions& options = {});

}  // namespace ariadne::encoder
