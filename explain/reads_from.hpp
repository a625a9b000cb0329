// The register family's own "why": a read that has nothing left to read from.
//
// For a read of v in a core, every op of the core that could write v (once relaxed,
// any op whose invocation writes v) is ruled out by a fact the reader can check in the
// history: it began after the read completed, it failed (a :fail cas wrote nothing),
// or real time puts a write of another value between it and the read. When every
// candidate, and the initial value if it is v, is ruled out this way, that is the
// whole argument, in the terms of the reads-from encoding the solver used. A read of a
// value that some op outside the core could write gets no such paragraph: that op
// is relaxed, and why it cannot help is the solver's reasoning, not a single fact.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "refute/relevant_relaxed.hpp"

#include <span>
#include <string>

namespace ariadne::explain {

using refute::RelaxedRelevance;

// Lines starting with "  - ", or empty when the model is not a register model or no
// read of the core is ruled out completely by such facts.
// `partition`: every op of the core's partition, the core's included; `relevance`:
// the partition relaxed and described (RelaxedRelevance over `partition`).
std::string explain_starved_reads(const Model& model, std::span<const Operation* const> core,
                                  std::span<const Operation* const> partition, const RelaxedRelevance& relevance);

}  // namespace ariadne::explain
