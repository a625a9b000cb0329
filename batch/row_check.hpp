// The limits of one row of a batch: each history of a corpus or a cross-check is
// checked under its own --timeout, inside the command's limits.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/limits.hpp>

namespace ariadne::batch {

// One row's check (of `corpus`, `cross-check`, `corpus --certify`) under the
// command's limits: the row's own --timeout from now, and above it the command's
// (base.limits, when set: its memory watch and Ctrl-C). `options` points at `limits`.
struct RowCheck {
  explicit RowCheck(const CheckOptions& base)
      : limits(base.timeout_seconds, base.memory_limit, base.cancel, base.limits), options(base) {
    options.limits = &limits;
  }
  RowCheck(const RowCheck&) = delete;
  RowCheck& operator=(const RowCheck&) = delete;

  const Limits limits;
  CheckOptions options;
};

}  // namespace ariadne::batch
