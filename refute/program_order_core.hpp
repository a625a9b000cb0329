// Minimal cores under sequential consistency (consistency.hpp).
//
// A core S of a history that is not sequentially consistent is read as for
// linearizability (CheckResult::core): keep every op of S as recorded and turn every
// other op into a crashed op that no program order binds (it may take effect anywhere,
// or never); that relaxed history is still not sequentially consistent. When minimal,
// relaxing any one more op of S makes it sequentially consistent.
//
// Relaxing more ops only allows more orders (a relaxed op may still take effect where
// it did, or not at all), so the property is monotone and deletion-based
// minimisation applies [Marques-Silva, ISMVL 2010]: try relaxing each op once; one
// whose relaxation makes the history hold is necessary for every subset too. Ops are
// tried in chunks that halve when a chunk is needed (as ddmin does), so large
// histories whose core is small lose most ops in a few decisions. A first pass asks
// the cheaper question with ops removed instead of relaxed (no free ops to place);
// its result, once confirmed under the relaxation, is where the relaxed pass starts.
// Each history is decided by the program-order search
// (search/program_order_search.cpp).
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "refute/minimal_core.hpp"
#include "search/search_engine.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ariadne::refute {

// `ops`: a history (or one key's) known not to be sequentially consistent, in
// ascending call order. A decision the stop signal cuts short keeps the ops it asked
// about, so the core returned is always a core, with `minimal` false then.
CoreSearch find_program_order_core(std::span<const Operation* const> ops, const Model& model,
                                   const search::StopSignal& stop, std::uint64_t memory_limit);

// The relaxed history of `ops` that keeps exactly the ops with keep[i] true: the
// others become crashed ops, each with a process of its own (so program order binds
// none of them). Returned by value; `pointers` receives their addresses in order.
std::vector<Operation> relax_outside(std::span<const Operation* const> ops, const std::vector<bool>& keep,
                                     std::vector<const Operation*>& pointers);

}  // namespace ariadne::refute
