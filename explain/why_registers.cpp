// The register family's sentence: a read with nothing left to read from
// (explain/reads_from.hpp gives the argument; this says it in one sentence).
#include "explain/reads_from.hpp"
#include "explain/why_words.hpp"
#include "models/semantics.hpp"

#include <algorithm>

namespace ariadne::explain {

std::optional<Shape> register_shape(const ShapeInput& in) {
  const WhyWords& words = in.words;
  const auto precedes = [&](const Operation& a, const Operation& b) { return words.precedes(a, b); };
  const std::vector<StarvedRead> reads = starved_reads(in.core, in.partition, in.relevance, precedes);
  if (reads.empty()) return std::nullopt;
  // The failing op's own read when it is starved: it is the result the report leads with.
  const auto chosen =
      std::find_if(reads.begin(), reads.end(), [&](const StarvedRead& r) { return r.reader == in.failing; });
  const StarvedRead& read = chosen != reads.end() ? *chosen : reads.front();
  const models::Semantics& semantics = *in.relevance.semantics();
  const Operation& reader = *read.reader;
  const std::string value = shorten(semantics.value_name(read.value), 40);

  Shape shape;
  shape.name(&reader, WhyRole::refused);
  std::vector<std::string> clauses;
  const auto were = [](const std::vector<const Operation*>& ops) { return ops.size() == 1 ? " was" : " were"; };
  for (const auto& [by, sources] : read.overwritten) {
    shape.name_all(sources, WhyRole::source);
    shape.name(by, WhyRole::cause);
    std::string wrote;
    if (!read.strings) {
      wrote = " wrote " + value;
    } else if (sources.size() == 1) {
      wrote = " put " + WhyWords::quoted(sources.front()->value) + ", which its value begins with,";
    } else {
      wrote = " put values it begins with";
    }
    std::string clause = words.ids(sources) + wrote + " but" + were(sources) + " overwritten by " + words.named(*by) +
                         ", which " + words.before(reader);
    if (read.initial_overwriter == by) clause += ", and so was the initial value";
    clauses.push_back(std::move(clause));
  }
  if (read.initial_overwriter && std::none_of(read.overwritten.begin(), read.overwritten.end(), [&](const auto& group) {
        return group.first == read.initial_overwriter;
      })) {
    shape.name(read.initial_overwriter, WhyRole::cause);
    clauses.push_back("the initial value" + (read.strings ? std::string() : " " + value) + " was overwritten by " +
                      words.named(*read.initial_overwriter) + ", which " + words.before(reader));
  }
  if (!read.late.empty()) {
    shape.name_all(read.late, WhyRole::late);
    const std::string who = read.late.size() == 1 ? words.named(*read.late.front()) : words.ids(read.late);
    clauses.push_back(who + (read.late.size() == 1 ? " " : ", which could also write it, ") + words.after(reader));
  }
  if (!read.failed.empty()) {
    shape.name_all(read.failed, WhyRole::source);
    const std::string who = read.failed.size() == 1 ? words.named(*read.failed.front()) : words.ids(read.failed);
    clauses.push_back(who + " failed, so wrote nothing");
  }
  if (read.source_count() == 0) {
    clauses.push_back(read.strings ? "no op puts a value it begins with, and the key does not start with one"
                                   : "no op writes " + value + ", and the register does not start with it");
  }
  if (!read.conditional_outside.empty()) {
    clauses.push_back(
        "outside the core, only ops that need another value first could write it, and no order gives them that "
        "value in time");
  }
  std::string sentence = words.named(reader) + (read.strings ? " has no put left that its value could begin with: "
                                                             : " has no write of " + value + " left to read from: ");
  for (std::size_t i = 0; i < clauses.size(); ++i) sentence += (i ? "; " : "") + clauses[i];
  shape.sentence = sentence + ".";
  return shape;
}

}  // namespace ariadne::explain
