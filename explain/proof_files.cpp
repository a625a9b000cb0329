#include "explain/proof_files.hpp"

#include "certify/drat_checker.hpp"
#include "encoder/encode.hpp"
#include "explain/relaxed_history.hpp"
#include "history/edn_writer.hpp"
#include "history/json_reader.hpp"
#include "solvers/drat_proof.hpp"
#include "solvers/solver.hpp"
#include "solvers/solver_engine.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <functional>
#include <optional>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ariadne::explain {

namespace {

namespace fs = std::filesystem;
using encoder::Literal;

constexpr const char* kHistoryFile = "core.edn";
constexpr const char* kCnfFile = "formula.cnf";
constexpr const char* kProofFile = "proof.drat";
constexpr const char* kManifestFile = "proof.json";
constexpr const char* kReadmeFile = "README.txt";

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.flush();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

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

// The core's relaxed history, read back from the file text exactly as verify-proof
// will read it, so that the formula written is the formula it re-encodes.
struct CoreHistory {
  History history;
  std::vector<const Operation*> ops;
};

CoreHistory read_core_history(const std::string& text, const std::string& source, const Model& model) {
  CoreHistory core;
  core.history = build_history(parse_events(text, source, Format::edn), model);
  for (const Operation& op : core.history.ops) core.ops.push_back(&op);
  return core;
}

std::vector<std::vector<Literal>> clauses_of(const encoder::Formula& formula) {
  std::vector<std::vector<Literal>> clauses(1);
  for (const Literal literal : formula.clause_literals) {
    if (literal == 0) {
      clauses.emplace_back();
    } else {
      clauses.back().push_back(literal);
    }
  }
  clauses.pop_back();
  return clauses;
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

}  // namespace

namespace {

// Writes the proof for the relaxed history that keeps `core`; nullopt when the solver
// does not refute its formula before `stop` says so.
std::optional<ProofWritten> try_write_proof(const std::string& dir, std::span<const Operation* const> partition,
                                            std::span<const std::uint32_t> core, const Model& model,
                                            const std::function<bool()>& stop) {
  std::vector<bool> keep(partition.size(), false);
  for (const std::uint32_t i : core) keep.at(i) = true;
  const RelaxedHistory relaxed = relax(partition, keep);
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
    formula = encoder::encode(model, history.ops);
  } catch (const encoder::EncodingUnsupported& e) {
    throw std::runtime_error(std::string("no proof: the core's history cannot be encoded: ") + e.what());
  }
  const auto solver = solvers::make_cadical_solver();
  solvers::DecisionRecording recording;
  recording.keep_cuts = true;
  solvers::FormulaHooks hooks;
  hooks.should_stop = stop;
  const solvers::FormulaDecision decision = solvers::decide_formula(*solver, formula, hooks, recording);
  if (decision.outcome == search::Outcome::stopped) return std::nullopt;
  if (decision.outcome != search::Outcome::not_linearizable) {
    throw std::logic_error("proof: the solver does not refute the core's relaxed history");
  }

  const std::vector<std::vector<Literal>> base = clauses_of(formula);
  std::string cnf = "c ariadne: the core's relaxed history core.edn under the model " + model.spec() + "\n";
  cnf += "c " + std::to_string(base.size()) + " clauses from ariadne's encoder (" + formula.encoding + "), then " +
         std::to_string(decision.cuts_added.size()) + " transitivity lemmas\n";
  cnf += "c base-clauses " + std::to_string(base.size()) + "\n";
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
         std::to_string(base.size() + decision.cuts_added.size()) + "\n";
  std::vector<Literal> flat;
  for (const auto& clause : base) {
    append_clause(cnf, clause);
    flat.insert(flat.end(), clause.begin(), clause.end());
    flat.push_back(0);
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
  const std::string manifest = "{\n  \"format\": \"ariadne-proof-1\",\n  \"model\": " + json_string(model.spec()) +
                               ",\n  \"history\": " + json_string(kHistoryFile) + ",\n  \"cnf\": " +
                               json_string(kCnfFile) + ",\n  \"proof\": " + json_string(kProofFile) +
                               ",\n  \"base_clauses\": " + std::to_string(base.size()) +
                               ",\n  \"lemmas\": " + std::to_string(decision.cuts_added.size()) +
                               ",\n  \"variables\": " + std::to_string(formula.variable_count) +
                               ",\n  \"core\": [" + ids + "]\n}\n";
  write_file(root / kManifestFile, manifest);
  write_file(root / kReadmeFile, readme(model.spec()));

  ProofWritten written;
  written.base_clauses = base.size();
  written.lemmas = decision.cuts_added.size();
  written.variables = formula.variable_count;
  written.proof_bytes = fs::file_size(proof_path);
  written.core_ops = core.size();
  return written;
}

}  // namespace

ProofWritten write_proof(const std::string& dir, std::span<const Operation* const> partition,
                         std::span<const std::uint32_t> core, const Model& model,
                         std::chrono::steady_clock::duration budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  const auto stop = [deadline] { return std::chrono::steady_clock::now() >= deadline; };
  if (auto written = try_write_proof(dir, partition, core, model, stop)) return *written;
  // Some cores make CDCL count (the mutex's acquires against its releases), which it
  // cannot do in short proofs, while the partition as recorded is refuted at once:
  // prove that larger core instead, and say so.
  std::vector<std::uint32_t> everything(partition.size());
  for (std::uint32_t i = 0; i < partition.size(); ++i) everything[i] = i;
  if (auto written = try_write_proof(dir, partition, everything, model, [] { return false; })) {
    written->whole_partition = true;
    return *written;
  }
  throw std::runtime_error("no proof: the solver was stopped");
}

namespace {

// The clauses of a DIMACS text, comments and header skipped; nullopt if malformed.
std::optional<std::vector<std::vector<Literal>>> parse_cnf_clauses(const std::string& text) {
  std::vector<std::vector<Literal>> clauses;
  std::vector<Literal> clause;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == 'c' || line[0] == 'p') continue;
    const char* p = line.data();
    const char* end = p + line.size();
    while (p < end) {
      while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
      if (p == end) break;
      long long value = 0;
      const auto [next, error] = std::from_chars(p, end, value);
      if (error != std::errc() || value > INT32_MAX || value < -INT32_MAX) return std::nullopt;
      p = next;
      if (value == 0) {
        clauses.push_back(std::move(clause));
        clause.clear();
      } else {
        clause.push_back(static_cast<Literal>(value));
      }
    }
  }
  if (!clause.empty()) return std::nullopt;
  return clauses;
}

// Whether a lemma forbids a cycle: the facts its literals deny (order atoms as
// chosen, ops present) plus the real-time order among present ops contain a cycle.
// Real time needs no path through other ops: it is an interval order, so a real-time
// path between two ops implies the direct fact.
std::optional<std::string> lemma_problem(const std::vector<Literal>& lemma, const encoder::Formula& formula,
                                         std::span<const Operation* const> ops) {
  std::map<std::int32_t, const encoder::OrderAtom*> atoms;
  for (const encoder::OrderAtom& atom : formula.order_atoms) atoms[atom.var] = &atom;
  std::map<std::int32_t, std::uint32_t> presence_of;
  for (std::uint32_t op = 0; op < formula.op_count; ++op) presence_of[formula.presence[op]] = op;

  std::vector<bool> present(formula.op_count, false);
  for (std::uint32_t op = 0; op < formula.op_count; ++op) present[op] = formula.presence[op] == encoder::kTrue;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (const Literal literal : lemma) {
    const Literal fact = -literal;
    const auto atom = atoms.find(fact > 0 ? fact : -fact);
    if (atom != atoms.end()) {
      if (fact > 0) {
        edges.emplace_back(atom->second->before, atom->second->after);
      } else {
        edges.emplace_back(atom->second->after, atom->second->before);
      }
      continue;
    }
    const auto op = presence_of.find(fact);
    if (fact > 0 && op != presence_of.end()) {
      present[op->second] = true;
      continue;
    }
    return "literal " + std::to_string(literal) + " is neither an order atom nor an op's presence";
  }
  std::vector<std::uint32_t> touched;
  for (const auto& [a, b] : edges) {
    touched.push_back(a);
    touched.push_back(b);
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  std::map<std::uint32_t, std::vector<std::uint32_t>> next;
  for (const auto& [a, b] : edges) {
    if (present[a] && present[b]) next[a].push_back(b);
  }
  for (const std::uint32_t a : touched) {
    for (const std::uint32_t b : touched) {
      if (a != b && present[a] && present[b] && ops[a]->precedes(*ops[b])) next[a].push_back(b);
    }
  }
  // Depth-first search for a back edge.
  std::map<std::uint32_t, int> colour;  // 0 new, 1 on the stack, 2 done
  std::vector<std::pair<std::uint32_t, std::size_t>> stack;
  for (const std::uint32_t root : touched) {
    if (colour[root] != 0) continue;
    stack.emplace_back(root, 0);
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      const auto& out = next[v];
      if (i == out.size()) {
        colour[v] = 2;
        stack.pop_back();
        continue;
      }
      const std::uint32_t w = out[i++];
      if (colour[w] == 1) return std::nullopt;  // a cycle
      if (colour[w] == 0) {
        colour[w] = 1;
        stack.emplace_back(w, 0);
      }
    }
  }
  return std::string("its order atoms and the real-time facts form no cycle");
}

std::string lemma_text(const std::vector<Literal>& lemma) {
  std::string out;
  for (const Literal l : lemma) out += std::to_string(l) + " ";
  return out + "0";
}

}  // namespace

ProofCheck verify_proof(const std::string& dir) {
  ProofCheck check;
  const fs::path root(dir);
  const auto fail = [&](std::string why) {
    check.failure = std::move(why);
    return check;
  };
  const auto manifest_text = read_file(root / kManifestFile);
  if (!manifest_text) return fail("no " + (root / kManifestFile).string());
  Value manifest;
  try {
    manifest = parse_json_value(*manifest_text, (root / kManifestFile).string());
  } catch (const InputError& e) {
    return fail(e.what());
  }
  const auto text_field = [&](const char* name) -> std::optional<std::string> {
    const Value* v = manifest.find(Value::string(name));
    if (!v || !v->is_string()) return std::nullopt;
    return v->text();
  };
  const Value* base_count = manifest.find(Value::string("base_clauses"));
  const auto spec = text_field("model");
  const auto history_name = text_field("history");
  const auto cnf_name = text_field("cnf");
  const auto proof_name = text_field("proof");
  if (!spec || !history_name || !cnf_name || !proof_name || !base_count || !base_count->is_integer()) {
    return fail(kManifestFile + std::string(": expected the fields model, history, cnf, proof and base_clauses"));
  }
  for (const std::string* name : {&*history_name, &*cnf_name, &*proof_name}) {
    if (name->find('/') != std::string::npos || *name == "..") return fail("proof.json names a file outside DIR");
  }

  // 1. The formula is the encoding of the history.
  std::unique_ptr<Model> model;
  CoreHistory history;
  encoder::Formula formula;
  try {
    model = make_model_from_spec(*spec);
    const auto history_text = read_file(root / *history_name);
    if (!history_text) return fail("no " + (root / *history_name).string());
    history = read_core_history(*history_text, (root / *history_name).string(), *model);
    formula = encoder::encode(*model, history.ops);
  } catch (const std::exception& e) {
    return fail(std::string("cannot re-encode the history: ") + e.what());
  }
  const auto cnf_text = read_file(root / *cnf_name);
  if (!cnf_text) return fail("no " + (root / *cnf_name).string());
  const auto clauses = parse_cnf_clauses(*cnf_text);
  if (!clauses) return fail(*cnf_name + ": malformed DIMACS");
  const auto expected = clauses_of(formula);
  const auto base = static_cast<std::size_t>(base_count->as_integer());
  if (base != expected.size() || clauses->size() < base ||
      !std::equal(expected.begin(), expected.end(), clauses->begin())) {
    return fail(*cnf_name + ": its first " + std::to_string(base) + " clauses are not the encoding of " +
                *history_name + " under " + *spec + " (" + std::to_string(expected.size()) + " clauses)");
  }
  check.passed.push_back("formula: the " + std::to_string(base) + " base clauses are the encoding of " +
                         *history_name + " (" + std::to_string(history.ops.size()) + " ops) under " + *spec);

  // 2. Every lemma forbids a cycle.
  for (std::size_t i = base; i < clauses->size(); ++i) {
    if (auto problem = lemma_problem((*clauses)[i], formula, history.ops)) {
      return fail("lemma " + std::to_string(i - base + 1) + " (" + lemma_text((*clauses)[i]) + "): " + *problem);
    }
  }
  check.passed.push_back("lemmas: each of the " + std::to_string(clauses->size() - base) +
                         " forbids a cycle of order atoms and real-time facts");

  // 3. The DRAT proof refutes formula and lemmas.
  const auto proof_text = read_file(root / *proof_name);
  if (!proof_text) return fail("no " + (root / *proof_name).string());
  const certify::DratVerdict drat = certify::check_drat(*cnf_text, *proof_text);
  if (!drat.valid) return fail("DRAT: " + drat.message);
  check.passed.push_back("DRAT: " + drat.message);
  check.valid = true;
  return check;
}

}  // namespace ariadne::explain
