// Checking a proof directory without the solver that wrote it: the formula against
// a fresh encoding, each lemma against the order semantics, the DRAT proof with our
// own checker (certify/drat_checker.hpp).
#include <ariadne/certificate.hpp>

#include "certify/drat_checker.hpp"
#include "certify/proof_format.hpp"
#include "encoder/encode.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>

#include <algorithm>
#include <charconv>
#include <climits>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <unordered_map>

namespace ariadne::certify {

namespace {

namespace fs = std::filesystem;
using encoder::Literal;
using namespace proof_format;

// The clauses of a DIMACS text, comments and header skipped, as the encoder keeps
// its own (encoder::Formula::clause_literals): back to back, each ended by a 0. One
// flat array, not a vector per clause: a whole partition's formula has near a
// million clauses, whose allocation and freeing alone took a tenth of a second.
struct CnfClauses {
  std::vector<Literal> literals;
  std::vector<std::size_t> starts;  // where each clause begins in `literals`

  std::size_t size() const { return starts.size(); }
  // Clause i, without its 0.
  std::span<const Literal> operator[](std::size_t i) const {
    const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : literals.size();
    return {literals.data() + starts[i], end - 1 - starts[i]};
  }
};

// nullopt when malformed, or when `should_stop` fired (polled every 4,096 lines;
// `stopped` says which).
std::optional<CnfClauses> parse_cnf_clauses(const std::string& text, const std::function<bool()>& should_stop,
                                            bool& stopped) {
  CnfClauses clauses;
  bool in_clause = false;
  std::istringstream lines(text);
  std::string line;
  for (std::size_t n = 1; std::getline(lines, line); ++n) {
    if (should_stop && (n & 4095) == 0 && should_stop()) {
      stopped = true;
      return std::nullopt;
    }
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
      if (!in_clause) {
        clauses.starts.push_back(clauses.literals.size());
        in_clause = true;
      }
      clauses.literals.push_back(static_cast<Literal>(value));
      if (value == 0) in_clause = false;
    }
  }
  if (in_clause) return std::nullopt;
  return clauses;
}

// Whether a lemma forbids a cycle: the facts its literals deny (order atoms as
// chosen, ops present) plus the real-time order among present ops contain a cycle.
// Real time needs no path through other ops: it is an interval order, so a real-time
// path between two ops implies the direct fact.
//
// What every lemma's check looks up, built once per formula: rebuilding it for each
// lemma made checking a proof of 12,000 lemmas take seconds.
struct LemmaIndex {
  explicit LemmaIndex(const encoder::Formula& formula) : present(formula.op_count, false) {
    for (const encoder::OrderAtom& atom : formula.order_atoms) atoms[atom.var] = &atom;
    for (std::uint32_t op = 0; op < formula.op_count; ++op) {
      presence_of[formula.presence[op]] = op;
      present[op] = formula.presence[op] == encoder::kTrue;
    }
  }
  std::unordered_map<std::int32_t, const encoder::OrderAtom*> atoms;
  std::unordered_map<std::int32_t, std::uint32_t> presence_of;
  std::vector<bool> present;  // the ops that take effect whatever the lemma says
};

std::optional<std::string> lemma_problem(std::span<const Literal> lemma, const LemmaIndex& index,
                                         std::span<const Operation* const> ops, Consistency consistency) {
  const auto& atoms = index.atoms;
  const auto& presence_of = index.presence_of;
  std::vector<bool> present = index.present;
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
      if (a != b && present[a] && present[b] && must_precede(*ops[a], *ops[b], consistency)) next[a].push_back(b);
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

std::string lemma_text(std::span<const Literal> lemma) {
  std::string out;
  for (const Literal l : lemma) out += std::to_string(l) + " ";
  return out + "0";
}

// verify_proof()'s work, beside the helpers above.
ProofCheck check_proof_directory(const std::string& dir, const std::function<bool()>& should_stop) {
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
  // Absent in proofs of linearizability (and in every proof written before the
  // sequential conditions existed).
  const auto consistency_text = text_field("consistency");
  const std::optional<Consistency> parsed_consistency =
      consistency_text ? parse_consistency(*consistency_text) : Consistency::linearizable;
  if (!parsed_consistency)
    return fail(kManifestFile + std::string(": unknown consistency '") + *consistency_text + "'");
  const Consistency consistency = *parsed_consistency;
  check.consistency = consistency;
  const auto history_name = text_field("history");
  const auto cnf_name = text_field("cnf");
  const auto proof_name = text_field("proof");
  if (!spec || !history_name || !cnf_name || !proof_name || !base_count || !base_count->is_integer()) {
    return fail(kManifestFile + std::string(": expected the fields model, history, cnf, proof and base_clauses"));
  }
  for (const std::string* name : {&*history_name, &*cnf_name, &*proof_name}) {
    if (name->find('/') != std::string::npos || *name == "..") return fail("proof.json names a file outside DIR");
  }

  // Every phase polls `should_stop`, or is short: on a whole 2,000-op partition,
  // re-encoding and reading the CNF alone take over half a second.
  const auto stopped = [&](const char* phase) {
    check.stopped = true;
    return fail(std::string(phase) + ": the check was stopped");
  };

  // 1. The formula is the encoding of the history.
  std::unique_ptr<Model> model;
  CoreHistory history;
  encoder::Formula formula;
  try {
    model = make_model_from_spec(*spec);
    const auto history_text = read_file(root / *history_name);
    if (!history_text) return fail("no " + (root / *history_name).string());
    history = read_core_history(*history_text, (root / *history_name).string(), *model);
    encoder::EncodeOptions options;
    if (should_stop) options.should_stop = should_stop;
    options.consistency = consistency;
    formula = encoder::encode(*model, history.ops, options);
  } catch (const encoder::EncodingStopped&) {
    return stopped("formula");
  } catch (const std::exception& e) {
    return fail(std::string("cannot re-encode the history: ") + e.what());
  }
  if (should_stop && should_stop()) return stopped("formula");
  const auto cnf_text = read_file(root / *cnf_name);
  if (!cnf_text) return fail("no " + (root / *cnf_name).string());
  bool reading_stopped = false;
  const auto clauses = parse_cnf_clauses(*cnf_text, should_stop, reading_stopped);
  if (reading_stopped) return stopped("formula");
  if (!clauses) return fail(*cnf_name + ": malformed DIMACS");
  const std::vector<Literal>& expected = formula.clause_literals;
  const auto base = static_cast<std::size_t>(base_count->as_integer());
  const std::size_t base_end = base < clauses->size() ? clauses->starts[base] : clauses->literals.size();
  if (base != formula.clause_count() || clauses->size() < base || base_end != expected.size() ||
      !std::equal(expected.begin(), expected.end(), clauses->literals.begin())) {
    return fail(*cnf_name + ": its first " + std::to_string(base) + " clauses are not the encoding of " +
                *history_name + " under " + *spec + " (" + std::to_string(formula.clause_count()) + " clauses)");
  }
  check.passed.push_back("formula: the " + std::to_string(base) + " base clauses are the encoding of " + *history_name +
                         " (" + std::to_string(history.ops.size()) + " ops) under " + *spec);

  // 2. Every lemma forbids a cycle.
  if (should_stop && should_stop()) return stopped("lemmas");
  const LemmaIndex lemma_index(formula);
  for (std::size_t i = base; i < clauses->size(); ++i) {
    if (should_stop && (i & 255) == 0 && should_stop()) return stopped("lemmas");
    if (auto problem = lemma_problem((*clauses)[i], lemma_index, history.ops, consistency)) {
      return fail("lemma " + std::to_string(i - base + 1) + " (" + lemma_text((*clauses)[i]) + "): " + *problem);
    }
  }
  check.passed.push_back("lemmas: each of the " + std::to_string(clauses->size() - base) +
                         " forbids a cycle of order atoms and " +
                         (keeps_real_time(consistency) ? "real-time" : "program-order") + " facts");

  // 3. The DRAT proof refutes formula and lemmas.
  if (should_stop && should_stop()) return stopped("DRAT");
  const auto proof_text = read_file(root / *proof_name);
  if (!proof_text) return fail("no " + (root / *proof_name).string());
  const certify::DratVerdict drat = certify::check_drat(*cnf_text, *proof_text, should_stop);
  if (drat.stopped) {
    check.stopped = true;
    return fail("DRAT: " + drat.message);
  }
  if (!drat.valid) return fail("DRAT: " + drat.message);
  check.passed.push_back("DRAT: " + drat.message);
  check.valid = true;
  return check;
}

}  // namespace

}  // namespace ariadne::certify

namespace ariadne {

ProofCheck verify_proof(const std::string& dir, const std::function<bool()>& should_stop) {
  return certify::check_proof_directory(dir, should_stop);
}

}  // namespace ariadne
