#include "certify/proof_format.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ariadne::certify::proof_format {

namespace fs = std::filesystem;

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

}  // namespace ariadne::certify::proof_format
