#include "solvers/drat_proof.hpp"

#include <cadical.hpp>

namespace ariadne::solvers {

namespace {

class CallbackTerminator final : public CaDiCaL::Terminator {
 public:
  explicit CallbackTerminator(const std::function<bool()>& should_stop) : should_stop_(should_stop) {}
  bool terminate() override { return should_stop_ && should_stop_(); }

 private:
  const std::function<bool()>& should_stop_;
};

}  // namespace

ProofOutcome write_drat_proof(std::span<const encoder::Literal> clauses, std::int32_t variable_count,
                              const std::string& path, const std::function<bool()>& should_stop) {
  CaDiCaL::Solver solver;
  CallbackTerminator terminator(should_stop);
  solver.connect_terminator(&terminator);
  solver.set("quiet", 1);
  // Text DRAT: readable, and what both our checker and drat-trim accept.
  solver.set("binary", 0);
  // CaDiCaL opens (and closes) the file itself.
  if (!solver.trace_proof(path.c_str())) return ProofOutcome::failed;
  // CaDiCaL only learns of variables through clauses; reserve them all so the
  // proof's numbering is the CNF's.
  solver.reserve(variable_count);
  // A whole partition's formula has near a million clauses, whose loading (each
  // traced to the proof file) takes over 100 ms: poll as they go.
  std::size_t added = 0;
  for (const encoder::Literal literal : clauses) {
    solver.add(literal);
    if (literal == 0 && (++added & 4095) == 0 && should_stop && should_stop()) {
      solver.close_proof_trace();
      solver.disconnect_terminator();
      return ProofOutcome::stopped;
    }
  }
  const int result = solver.solve();
  solver.flush_proof_trace();
  solver.close_proof_trace();
  solver.disconnect_terminator();
  if (result == 20) return ProofOutcome::refuted;
  if (result == 10) return ProofOutcome::satisfiable;
  return should_stop && should_stop() ? ProofOutcome::stopped : ProofOutcome::failed;
}

}  // namespace ariadne::solvers
