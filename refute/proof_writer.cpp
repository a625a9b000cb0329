// Writing a proof directory (see proof_files.hpp for what it holds and why).
#include "refute/proof_writer.hpp"

#include "base/limits_ledger.hpp"
#include "certify/proof_format.hpp"
#include "encoder/encode.hpp"
#include "history/edn_writer.hpp"
#include "refute/relaxed_history.hpp"
#include "solvers/drat_proof.hpp"
#include "solvers/solver.hpp"
#include "solvers/solver_engine.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>

namespace ariadne::refute {

namespace {

namespace fs = std::filesystem;
using encoder::Literal;
using namespace certify::proof_format;

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out + "\"";
}

void append_clause(std::string& out, const std::vector<Literal>& clause) {
  for (const Literal literal : clause) out += std::to_string(literal) + " ";
  out += "0\n";
}

std::string readme(const std::string& spec) {
  return "A proof that the history in core.edn is not linearizable under the model " + spec +
         ",\n"
         "written by `ariadne check --proof`. core.edn keeps the core's operations as recorded\n"
         "and turns every other operation of the partition into a crashed operation invoked\n"
         "before everything else, so it proves the original history wrong too.\n\n"
         "Check it with ariadne (re-encodes core.edn, checks every lemma, checks the DRAT proof\n"
         "with ariadne's own checker, which shares no code with the solver):\n\n"
         "    ariadne verify-proof .\n\n"
         "Check the propositional part with drat-trim (https://github.com/marijnheule/drat-trim):\n\n"
         "    drat-trim formula.cnf proof.drat\n\n"
         "formula.cnf is the encoder's formula followed by transitivity lemmas; the comments at\n"
         "its top name each order atom (\"c atom VAR BEFORE AFTER\": VAR is true iff the op\n"
         "invoked at event BEFORE of core.edn is linearized before the op invoked at event\n"
         "AFTER) and each presence variable (\"c presence VAR OP\": the crashed op OP took\n"
         "effect). Each lemma forbids one cycle of order atoms and real-time facts among ops\n"
         "that took effect, which no order can contain.\n";
}

// Writes the proof for the relaxed history that keeps `core`; nullopt when the solver
// does not refute its formula before `stop` says so.
std::optional<ProofWritten> try_write_proof(const std::string& dir, std::span<const Operation* const> partition,
                                            std::span<const std::uint32_t> core, const Model& model,
                                            const std::function<bool()>& stop, const Limits& limits,
                                            Consistency consistency) {
  std::vector<bool> keep(partition.size(), false);
  for (const std::uint32_t i : core) keep.at(i) = true;
  const RelaxedHistory relaxed = relax(partition, keep, nullptr, !keeps_real_time(consistency));
  fs::create_directories(dir);
  const fs::path root(dir);

  std::string history_text = "; The core's relaxed history (written by ariadne check --proof): the core's " +
                             std::to_string(core.size()) + " ops as recorded, the partition's other " +
                             std::to_string(partition.size() - core.size()) +
                             " ops as crashed ops invoked first.\n"
                             "; :index is each op's id in the original history. Model: " +
                             model.spec() + "\n";
  history_text += format_edn_events(relaxed_events(relaxed, kHistoryFile));
  const CoreHistory history = read_core_history(history_text, (root / kHistoryFile).string(), model);
  write_file(root / kHistoryFile, history_text);
  encoder::Formula formula;
  try {
    encoder::EncodeOptions options;
    options.should_stop = stop;
    options.consistency = consistency;
    formula = encoder::encode(model, history.ops, options);
  } catch (const encoder::EncodingStopped&) {
    return std::nullopt;
  } catch (const encoder::EncodingUnsupported& e) {
    throw ProofBeyondEncoder(std::string("no proof: the core's history cannot be encoded: ") + e.what());
  }
  const auto solver = solvers::make_cadical_solver();
  solvers::DecisionRecording recording;
  recording.keep_cuts = true;
  solvers::FormulaHooks hooks;
  hooks.should_stop = stop;
  // A whole partition's formula may not fit in what --memory-limit leaves: the solver
  // is asked its size before loading it, as the engines ask.
  hooks.load_fits = [&limits](std::size_t bytes) { return base::would_fit(limits, bytes); };
  const solvers::FormulaDecision decision = solvers::decide_formula(*solver, formula, hooks, recording);
  if (decision.outcome == search::Outcome::stopped) return std::nullopt;
  if (decision.outcome == search::Outcome::out_of_memory) {
    limits.note_memory_exceeded();
    return std::nullopt;
  }
  if (decision.outcome != search::Outcome::not_linearizable) {
    throw std::logic_error("proof: the solver does not refute the core's relaxed history");
  }

  const std::size_t base_clauses = formula.clause_count();
  std::string cnf = "c ariadne: the core's relaxed history core.edn under the model " + model.spec() + "\n";
  cnf += "c " + std::to_string(base_clauses) + " clauses from ariadne's encoder (" + formula.encoding + "), then " +
         std::to_string(decision.cuts_added.size()) + " transitivity lemmas\n";
  cnf += "c base-clauses " + std::to_string(base_clauses) + "\n";
  for (const encoder::OrderAtom& atom : formula.order_atoms) {
    cnf += "c atom " + std::to_string(atom.var) + " " + std::to_string(history.ops[atom.before]->id) + " " +
           std::to_string(history.ops[atom.after]->id) + "\n";
  }
  for (std::uint32_t op = 0; op < formula.op_count; ++op) {
    const Literal p = formula.presence[op];
    if (p != encoder::kTrue && p != encoder::kFalse) {
      cnf += "c presence " + std::to_string(p) + " " + std::to_string(history.ops[op]->id) + "\n";
    }
  }
  cnf += "p cnf " + std::to_string(formula.variable_count) + " " +
         std::to_string(base_clauses + decision.cuts_added.size()) + "\n";
  // A whole partition's formula has millions of clauses, and writing them out takes a
  // while: the stop condition is polled as they go.
  std::vector<Literal> flat = formula.clause_literals;
  std::size_t written_clauses = 0;
  for (const Literal literal : formula.clause_literals) {
    if (literal != 0) {
      cnf += std::to_string(literal);
      cnf += ' ';
      continue;
    }
    cnf += "0\n";
    if ((++written_clauses & 4095) == 0 && stop()) return std::nullopt;
  }
  for (const auto& lemma : decision.cuts_added) {
    append_clause(cnf, lemma);
    flat.insert(flat.end(), lemma.begin(), lemma.end());
    flat.push_back(0);
  }
  write_file(root / kCnfFile, cnf);
  const fs::path proof_path = root / kProofFile;
  switch (solvers::write_drat_proof(flat, formula.variable_count, proof_path.string(), stop)) {
    case solvers::ProofOutcome::refuted: break;
    case solvers::ProofOutcome::stopped: return std::nullopt;
    case solvers::ProofOutcome::satisfiable:
      throw std::logic_error("proof: the formula with its lemmas is satisfiable to a fresh solver");
    case solvers::ProofOutcome::failed: throw std::runtime_error("cannot write " + proof_path.string());
  }

  std::string ids;
  for (const std::uint32_t i : core) ids += (ids.empty() ? "" : ", ") + std::to_string(partition[i]->id);
  const std::string manifest =
      "{\n  \"format\": \"ariadne-proof-1\",\n  \"model\": " + json_string(model.spec()) +
      (keeps_real_time(consistency)
           ? std::string()
           : ",\n  \"consistency\": " + json_string(std::string(consistency_name(consistency)))) +
      ",\n  \"history\": " + json_string(kHistoryFile) + ",\n  \"cnf\": " + json_string(kCnfFile) +
      ",\n  \"proof\": " + json_string(kProofFile) + ",\n  \"base_clauses\": " + std::to_string(base_clauses) +
      ",\n  \"lemmas\": " + std::to_string(decision.cuts_added.size()) +
      ",\n  \"variables\": " + std::to_string(formula.variable_count) + ",\n  \"core\": [" + ids + "]\n}\n";
  write_file(root / kManifestFile, manifest);
  write_file(root / kReadmeFile, readme(model.spec()));

  ProofWritten written;
  written.base_clauses = base_clauses;
  written.lemmas = decision.cuts_added.size();
  written.variables = formula.variable_count;
  written.proof_bytes = fs::file_size(proof_path);
  written.core_ops = core.size();
  return written;
}

}  // namespace

namespace {

// A proof cut short leaves no files of its own behind: a core.edn and formula.cnf
// without their proof, or beside an earlier run's proof.drat, would read as a proof
// that does not check.
void remove_proof_files(const std::string& dir) {
  std::error_code ignored;
  for (const char* name : {kManifestFile, kProofFile, kCnfFile, kHistoryFile, kReadmeFile}) {
    fs::remove(fs::path(dir) / name, ignored);
  }
}

ProofWritten write_proof_within(const std::string& dir, std::span<const Operation* const> partition,
                                std::span<const std::uint32_t> core, const Model& model, const Limits& limits,
                                std::chrono::steady_clock::duration core_attempt, Consistency consistency) {
  // With a deadline, the core's own formula gets at most half of what is left, so
  // the whole partition's proof still has time when the core's cannot be found.
  if (limits.deadline() != Limits::Clock::time_point::max()) {
    core_attempt = std::min(core_attempt, (limits.deadline() - Limits::Clock::now()) / 2);
  }
  const auto attempt_ends = limits.deadline_within(core_attempt);
  // The limit that stopped an attempt, remembered: the resident-memory measure is
  // withdrawn once the solver's memory is freed, and a proof stopped by it is a limit
  // reached (and no reason to try the larger formula), not a failure.
  Limit stopped_by = Limit::none;
  const auto stopped = [&limits, &stopped_by] {
    const Limit limit = limits.reached();
    if (limit != Limit::none && stopped_by == Limit::none) stopped_by = limit;
    return limit != Limit::none;
  };
  const auto attempt_over = [&] { return stopped() || std::chrono::steady_clock::now() >= attempt_ends; };
  if (auto written = try_write_proof(dir, partition, core, model, attempt_over, limits, consistency)) return *written;
  // Some cores make CDCL count (the mutex's acquires against its releases), which it
  // cannot do in short proofs, while the partition as recorded is refuted at once:
  // prove that larger core instead, and say so. It may take what the limits leave.
  if (!stopped() && stopped_by == Limit::none) {
    std::vector<std::uint32_t> everything(partition.size());
    for (std::uint32_t i = 0; i < partition.size(); ++i) everything[i] = i;
    if (auto written = try_write_proof(dir, partition, everything, model, stopped, limits, consistency)) {
      written->whole_partition = true;
      return *written;
    }
  }
  (void)stopped();
  if (stopped_by != Limit::none) throw LimitReached(stopped_by, "no proof: " + limits.describe(stopped_by));
  throw std::runtime_error("no proof: the solver was stopped");
}

}  // namespace

ProofWritten write_proof(const std::string& dir, std::span<const Operation* const> partition,
                         std::span<const std::uint32_t> core, const Model& model, const Limits& limits,
                         std::chrono::steady_clock::duration core_attempt, Consistency consistency) {
  try {
    return write_proof_within(dir, partition, core, model, limits, core_attempt, consistency);
  } catch (...) {
    remove_proof_files(dir);
    throw;
  }
}

ProofWritten write_proof(const std::string& dir, std::span<const Operation* const> partition,
                         std::span<const std::uint32_t> core, const Model& model,
                         std::chrono::steady_clock::duration core_attempt) {
  const Limits none;
  return write_proof(dir, partition, core, model, none, core_attempt);
}

}  // namespace ariadne::refute
