// A refutation that comes from elsewhere (a key shard's report, merged by `check
// --merge`) is re-checked against the history before it is printed: a forged or stale
// report must not turn a linearizable history into a refuted one.
//
// The report's core (op ids) must name ops of the history, all of one key (the
// partition a keyed model, or independent(MODEL), decides on its own), and the key's
// history with every op outside the core relaxed must be refuted: decided here by the
// confirmation's checks (confirmation.hpp), as any engine's refutation is. A core of
// the whole key (a shard run with --no-core) costs a decision of the key; a minimal
// core, microseconds.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "search/search_engine.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace ariadne::portfolio {

struct ImportedRefutationCheck {
  enum class Answer : std::uint8_t { holds, fails, undecided };
  Answer answer = Answer::undecided;
  std::string why;  // fails: what is wrong with it; undecided: what stopped the check
};

// `model` as the merge reads the history (kv, independent(MODEL), ...); `stop` the
// merge's own limits.
ImportedRefutationCheck check_imported_refutation(const History& history, const Model& model, Consistency consistency,
                                                  std::span<const std::uint32_t> core, const search::StopSignal& stop,
                                                  std::uint64_t memory_limit);

}  // namespace ariadne::portfolio
