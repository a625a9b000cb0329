// The register family's own "why": a read that has nothing left to read from.
//
// For a read of v in a core, every op of the core that could write v (once relaxed,
// any op whose invocation writes v) is ruled out by a fact the reader can check in the
// history: it began after the read completed, it failed (a :fail cas wrote nothing),
// or the order the condition keeps (real time, or program order under sequential
// consistency) puts a write of another value between it and the read. When every
// candidate, and the initial value if it is v, is ruled out this way, that is the
// whole argument, in the terms of the reads-from encoding the solver used. A read of a
// value that some op outside the core could write gets no such argument: that op is
// relaxed, and why it cannot help is the solver's reasoning, not a single fact.
//
// Strings that appends grow (kv): a get's value is the last put's value, or the
// initial one, followed by what appends added since, so the candidates are the puts
// (and the initial value) whose value begins the string the get returned, and an op
// overwrites them when it puts a value that does not.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "refute/relevant_relaxed.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ariadne::explain {

using refute::RelaxedRelevance;

// Whether the condition checked puts `a` before `b` (real time, or program order).
using Precedes = std::function<bool(const Operation& a, const Operation& b)>;

// How an op rules out an earlier source of the value read: it left another value,
// or it saw another value, or (strings) it appended text the value read lacks, after
// the source and before the read began; or (saw_later) it saw, before the read began,
// a value that only ops beginning after the source completed could write.
enum class Overwrite : std::uint8_t { wrote, saw, appended, saw_later };

struct Overwritten {
  const Operation* by = nullptr;
  Overwrite how = Overwrite::wrote;
  std::vector<const Operation*> sources;  // empty when only the initial value
  bool initial = false;                   // the initial value too
  // saw_later: the value `by` saw, and the ops of the core that could write it.
  std::uint32_t seen = 0;
  std::vector<const Operation*> seen_writers = {};
};

struct StarvedRead {
  const Operation* reader = nullptr;
  std::uint32_t key = 0;
  std::uint32_t value = 0;  // value id, in the partition's semantics
  bool strings = false;     // kv: the sources are the puts its value begins with
  // Why each op that could have supplied the value is out.
  std::vector<const Operation*> late;    // began after the read completed
  std::vector<const Operation*> failed;  // failed, so wrote nothing
  // The sources ruled out by a later op, grouped by it (the initial value included).
  std::vector<Overwritten> overwritten;
  bool initial_source = false;  // the initial value was a source (ruled out in `overwritten`)
  // Ops outside the core that could write the value once given another value first
  // (a cas): the argument holds only with the solver's word that none gets it.
  std::vector<std::pair<const Operation*, std::uint32_t>> conditional_outside;

  std::size_t source_count() const;
};

// The core's reads that are starved by single facts, in core order. Empty for models
// that are not registers. `partition`: every op of the core's partition, the core's
// included; `relevance`: the partition relaxed and described.
std::vector<StarvedRead> starved_reads(std::span<const Operation* const> core,
                                       std::span<const Operation* const> partition, const RelaxedRelevance& relevance,
                                       const Precedes& precedes);

// Lines starting with "  - " for --explain, or empty when no read is starved.
std::string explain_starved_reads(const Model& model, std::span<const Operation* const> core,
                                  std::span<const Operation* const> partition, const RelaxedRelevance& relevance);

}  // namespace ariadne::explain
