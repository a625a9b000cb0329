// Model-aware seeds for a first core.
//
// Companions: ops that a core around the failing op needs wherever they are in the
// history, which no window of nearby ops would contain. The one family that needs
// them is the mutex. Relaxing an op makes it free to take
// effect anywhere (relaxed_history.hpp), so a lock acquired twice with no release
// between them in real time is a core only together with every release of the
// history, however far away: any release left out could, relaxed, fall between the
// two acquires. Likewise a release of a free lock needs every acquire. Registers,
// containers and sets have no such op: a relaxed op there matters only through the
// values it writes, which the rules of relevant_relaxed.hpp already follow.
//
// Patterns: for queues, stacks and priority queues, the few ops of a known
// violation pattern, found without a failing op (whose search can be as hard as the
// verdict on a 2,000-op stack).
//
// Reads-from: for registers, the failing op's read of a value, every op that could
// write that value, and the writes that overwrote each such write the read came after
// (Gibbons and Korach's "write, overwrite, read" pattern, SIAM J. Comput. 1997).
//
// Seeds are only guesses: the caller decides each one before using it.
#pragma once

#include <ariadne/history.hpp>

#include "models/semantics.hpp"
#include "search/stale_reads.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace ariadne::refute {

// `semantics` describes `ops` in its first entries (RelaxedRelevance::semantics()), or
// is nullptr for a model without semantics, which gets no seeds.

// Per op of the partition: whether it belongs with every window around `failing_op`
// (an index into `ops`). All false when the model needs no companions.
std::vector<bool> seed_companions(std::span<const Operation* const> ops, const models::Semantics* semantics,
                                  std::uint32_t failing_op);

// Queues, stacks, priority queues and registers: small sets of ops (indices into
// `ops`, ascending) that match a violation pattern of collections, smallest first,
// at most `limit` of them. The patterns are those that characterise violations of
// unique-value collections (Henzinger, Sezgin and Vafeiadis, "Aspect-Oriented
// Linearizability Proofs", CONCUR 2013; Emmi and Enea, "Sound, Complete, and
// Tractable Linearizability Monitoring for Concurrent Collections", POPL 2018): a
// value removed that no insert supplies; a value removed twice; a removal that
// completed before its value's only insert began; two values inserted and removed in
// the wrong order (a queue: both removed in the inserts' order reversed; a stack: the
// first pushed popped while the second lies above it; a priority queue: the less
// urgent polled while the more urgent was in, which was polled only after). With
// repeated values a pattern may not refute anything, and the caller decides each
// seed before using it. Registers whose written values are unique: the few ops of
// the violated zone condition of Gibbons and Korach's test
// (search/unique_register.cpp).
// `should_stop` is polled on long partitions (the register test's analysis).
std::vector<std::vector<std::uint32_t>> pattern_seeds(std::span<const Operation* const> ops,
                                                      const models::Semantics* semantics, std::size_t limit,
                                                      const std::function<bool()>& should_stop = {});

// Registers: reads_from_seeds() and stale_read_seeds(), the seeds a read of a stale
// value makes, live in search/stale_reads.hpp (the unique-value engine refutes with
// them too); they are seeds of the core as much as the others here.
using search::reads_from_seeds;
using search::stale_read_seeds;

}  // namespace ariadne::refute
