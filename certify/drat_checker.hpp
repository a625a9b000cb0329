// An independent DRAT proof checker. A "not linearizable" answer found by a SAT
// solver is only as trustworthy as the solver; this checker re-derives the answer
// from the solver's clausal proof [WetzlerHeuleHunt14] with code that shares nothing
// with any solver, so trusting the answer means trusting drat_checker.cpp alone.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace ariadne::certify {

struct DratVerdict {
  bool valid = false;                 // the proof derives the empty clause and every step up to it checks
  std::string message;                // when invalid: what failed and where; when valid: a one-line summary
  std::size_t lemmas = 0;             // lemmas added (checked and accepted)
  std::size_t deletions = 0;          // deletion steps read
  std::size_t ignored_deletions = 0;  // deletions skipped: unit or reason clauses, or absent ones
  std::size_t rat_lemmas = 0;         // lemmas that were not RUP and needed the RAT check
  bool stopped = false;               // should_stop said so before the check ended: neither valid nor refuted
};

// Checks `proof` against the DIMACS formula `cnf`, forward, step by step.
//
// `cnf`: a "p cnf V C" header, comment lines starting with 'c', and exactly C clauses
// of literals within 1..V, each ending in 0.
// `proof`: DRAT as CaDiCaL writes it: in text, one step per clause ending in 0, a
// deletion prefixed by "d", comment lines starting with 'c'; or in binary ('a' or 'd'
// followed by variable-length literals, each step ending in a zero byte). Proof
// literals may use variables beyond V (extended resolution).
//
// Each lemma must be RUP, or else RAT on its first literal. A deletion removes one
// copy of the clause with the same literals in any order; deletions of unit clauses,
// of clauses that are the reason of a top-level assignment, and of absent clauses
// are ignored, as drat-trim does. The proof is valid once the clause set is refuted
// by unit propagation (an explicit empty lemma, or a conflict after adding a clause);
// steps after that point are not read. Malformed input gives an invalid verdict whose
// message names the file and line (or byte offset of a binary proof); it never throws
// for bad input.
// `should_stop`, when given, is polled every few hundred steps (a limit of the
// command's); once it says so the check ends, invalid and `stopped`.
DratVerdict check_drat(std::string_view cnf, std::string_view proof, const std::function<bool()>& should_stop = {});

}  // namespace ariadne::certify
