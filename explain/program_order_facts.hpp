// What binds a core under sequential consistency: each process's own order, and the
// words that say why no order of the core works.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>
#include <ariadne/result.hpp>

#include <span>
#include <string>
#include <vector>

namespace ariadne::explain {

// Pairs (a, b) of `ops` invoked by the same process, a first, a not crashed: the
// program order a sequentially consistent order must keep, transitively reduced among
// `ops` (a crashed op precedes nothing, so a fact that runs past one is kept). In
// order of a's invocation.
std::vector<RealTimeFact> program_order_facts(std::span<const Operation* const> ops);

// The explanation of a core that is not sequentially consistent: its ops by process,
// the program-order facts among them, and why nothing else binds them.
std::string explain_program_order_core(const Model& model, std::span<const Operation* const> core,
                                       std::span<const RealTimeFact> facts, bool minimal, std::string_view condition);

}  // namespace ariadne::explain
