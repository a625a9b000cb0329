#include "explain/proof_format.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ariadne::explain::proof_format {

namespace fs = std::filesystem;
using encoder::Literal;

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

}  // namespace ariadne::explain::proof_format
