// A DRAT refutation from CaDiCaL for a CNF, written to a file: what `check --proof`
// hands to `verify-proof` (ours) or drat-trim (anyone's).
#pragma once

#include "encoder/formula.hpp"

#include <functional>
#include <span>
#include <string>

namespace ariadne::solvers {

enum class ProofOutcome { refuted, satisfiable, stopped, failed };

// Solves the clauses (flat, each ended by a 0, over variables 1..variable_count) with
// a fresh CaDiCaL that traces a text DRAT proof into `path`. The proof is complete
// only when the result is `refuted`.
// `should_stop`, polled during the search, abandons it (stopped).
ProofOutcome write_drat_proof(std::span<const encoder::Literal> clauses, std::int32_t variable_count,
                              const std::string& path, const std::function<bool()>& should_stop);

}  // namespace ariadne::solvers
