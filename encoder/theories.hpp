// The model families the encoder knows, one file each, plus the generic unrolling.
// Every function adds the legality constraints of its family to the builder, whose
// presence literals encode.cpp has already set from the ops' meanings.
#pragma once

#include <ariadne/model.hpp>

#include "encoder/formula_builder.hpp"
#include "models/semantics.hpp"

#include <optional>
#include <span>
#include <string>

namespace ariadne::encoder {

// Reads-from with the polygraph constraint (register, cas-register, etcd, kv with
// appends, multi-register). registers.cpp.
void encode_registers(FormulaBuilder& builder, const models::Semantics& semantics);
// Acquire/release alternation. mutex.cpp.
void encode_mutex(FormulaBuilder& builder, const models::Semantics& semantics);
// Removals matched to inserts, plus the FIFO or LIFO axiom, or none for the
// unordered queue, or the priority axiom (and peeks matched to inserts not yet taken)
// for the priority queue; and for a removal that returned :empty, the empty axiom:
// every insert before it taken before it. containers.cpp.
void encode_container(FormulaBuilder& builder, const models::Semantics& semantics);
// Membership before each read. set.cpp.
void encode_set(FormulaBuilder& builder, const models::Semantics& semantics);

// Orders interchangeable crashed ops (same f, argument, key and real-time
// predecessors) by invocation, and lets one take effect only if the earlier ones do.
// Sound for every family; spares solvers pigeonhole-like refutations. symmetry.cpp.
void break_crashed_symmetry(FormulaBuilder& builder, const std::vector<OpSelector>& selectors);

// Bounded model checking style: positions 0..n-1, one-hot states after each
// position, transitions from the compiled model's step(). Only for models whose
// reachable states are few. unrolling.cpp.
std::optional<std::string> unrolling_supported(const Model& model, std::span<const Operation* const> ops,
                                               std::string* why_not);
void encode_by_unrolling(FormulaBuilder& builder, const Model& model, std::span<const Operation* const> ops);

}  // namespace ariadne::encoder
