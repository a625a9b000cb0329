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
  for (const Overwritten& group : read.overwritten) {
    const std::vector<const Operation*>& sources = group.sources;
    shape.name_all(sources, WhyRole::source);
    shape.name(group.by, WhyRole::cause);
    // What the sources did: "op 3 wrote 2", "the initial value 2", "op 409 put "x"".
    std::string what;
    if (!sources.empty()) {
      if (!read.strings) {
        what = words.ids(sources) + " wrote " + value;
      } else if (sources.size() == 1) {
        what =
            words.ids(sources) + " put " + WhyWords::quoted(sources.front()->value) + ", which its value begins with";
      } else {
        what = words.ids(sources) + " put values it begins with";
      }
    }
    if (group.initial) {
      const std::string initial_text = read.strings ? semantics.value_name(semantics.initial.at(read.key)) : "";
      const std::string initial = !read.strings            ? "the register started with " + value
                                  : initial_text == "\"\"" ? "the key started empty"
                                                           : "the key started with " + shorten(initial_text, 40);
      what = what.empty() ? initial : what + ", and " + initial;
    }
    const bool one = sources.size() + (group.initial ? 1 : 0) == 1;
    const std::string them = one ? "it" : "them";
    std::string clause = what + (group.initial && !sources.empty() ? ", but " : " but ");
    switch (group.how) {
      case Overwrite::wrote:
        clause += (one ? "was" : "were") + std::string(" overwritten by ") + words.named(*group.by) + ", which " +
                  words.before(reader);
        break;
      case Overwrite::saw:
        clause += words.named(*group.by) + " saw another value after " + them + " and " + words.before(reader);
        break;
      case Overwrite::saw_later:
        clause +=
            words.named(*group.by) + ", which " + words.before(reader) + ", saw a value written only after " + them;
        break;
      case Overwrite::appended:
        clause += words.named(*group.by) + ", which " + words.before(reader) + ", appended after " + them +
                  " text that its value lacks";
        break;
    }
    clauses.push_back(std::move(clause));
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
  if (read.source_count() == 0 && !read.conditional_outside.empty()) {
    clauses.push_back("no op of the core writes " + value +
                      ", the register does not start with it, and the only ops that could (outside the core) need "
                      "another value first, which no order gives them in time");
  } else if (read.source_count() == 0) {
    clauses.push_back(read.strings ? "no op puts a value it begins with, and the key does not start with one"
                                   : "no op writes " + value + ", and the register does not start with it");
  } else if (!read.conditional_outside.empty()) {
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
