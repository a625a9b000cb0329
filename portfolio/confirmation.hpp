// Every refutation is confirmed before it is reported, by a check that is not the
// engine that found it: an engine's bug then costs time, never a wrong verdict.
//
// A linearizable answer carries its own certificate (the order, replayed by
// certify/); a refutation has no such short proof, so it is confirmed by deciding
// again, elsewhere:
//  - the refuting engine's violation (SearchEngine::refuting_ops, the few ops the
//    unique-value tests name), relaxed: every other op of the partition may take
//    effect anywhere or not at all (refute/relaxed_history.hpp). Relaxing only adds
//    orders, so a refuted relaxed history proves the partition wrong. It is decided
//    by the core's relaxed checker (refute/relaxed_check.hpp: the closure look, then
//    a relaxed native search racing the SAT solver), costing microseconds for a
//    violation of a few ops;
//  - else the model's own seeds (refute/core_seeds.hpp: patterns of a few ops, stale
//    reads found by real time alone), each relaxed the same way;
//  - otherwise the whole partition, by the same relaxed checker with nothing
//    relaxed: the faster of a relaxed native search and the SAT solver, so about
//    what the verdict cost once more (measured on the shared corpora's 98 refuted
//    histories: no change in the default command's total beyond noise), a small part
//    of what the core costs after it;
//  - under the sequential conditions, which the relaxed checker does not decide, by
//    an engine of the other family (a solver for a search's refutation, a search
//    for a solver's).
// An order found instead contradicts the refutation: it is replayed by the
// certificate checker, and the caller drops the engine's answer and checks again
// without it.
#pragma once

#include <ariadne/model.hpp>

#include "portfolio/refutation.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ariadne::portfolio {

struct Confirmation {
  enum class Answer : std::uint8_t { confirmed, contradicted, undecided };
  Answer answer = Answer::undecided;
  // confirmed: the partition's ops (indices into sub.ops, ascending) whose relaxed
  // history was refuted: the refuting engine's violation, or every op.
  std::vector<std::uint32_t> refuted;
  // contradicted: the order found (op ids), which the certificate checker accepted.
  std::vector<std::uint32_t> linearization;
  // What decided it, for the withdrawal a contradiction leaves in the result.
  std::string by;
};

// With `whole` false, only the refuting engine's violation is decided (when it named
// one): undecided then means "not confirmed yet". With `whole` true, the whole
// partition is decided when the violation alone is not refuted; undecided then means
// a limit stopped it, or (sequential conditions) no other engine takes the partition. Throws InternalError when an
// order found contradicts the refutation but fails the certificate check (two checks
// wrong at once).
Confirmation confirm_refutation(const Refutation& refutation, const Model& model, std::uint64_t memory_limit,
                                bool whole);

// "the unique engine refuted it, but <by> found an order that the certificate checker
// accepts; its answer is dropped (a bug in unique: please report it with this
// history)": the withdrawal a contradicted refutation leaves.
std::string contradicted_refutation(Engine engine, const std::string& partition, const Confirmation& confirmation);

// "wgl: its linearization failed the certificate check (...); its answer was dropped
// (a bug in wgl: ...)": the withdrawal an uncertified linearization leaves. Such an
// order is never printed (the certificate checker is the last word on orders), and the
// check goes on without that engine.
std::string uncertified_linearization(Engine engine, const std::string& problem);

}  // namespace ariadne::portfolio
