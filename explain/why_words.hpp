// The shared vocabulary of the one-sentence "why" (explain/why.hpp): how ops are
// named, listed, and placed in the order the condition keeps, and the partial answer
// each model family's shapes build. Internal to explain/.
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>
#include <ariadne/result.hpp>

#include "refute/relevant_relaxed.hpp"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ariadne::explain {

class WhyWords {
 public:
  WhyWords(const Model& model, Consistency condition) : model_(model), condition_(condition) {}

  // "read 2 (op 84, process 11)": the op as the model describes it, shortened; a
  // failed or crashed op says so ("(op 9, process 2, failed)").
  std::string named(const Operation& op) const;
  // "op 84" or "ops 3, 20 and 43" (at most kListed, then "and 5 more").
  std::string ids(const std::vector<const Operation*>& ops) const;
  // "the read": what the sentence calls the refused op after naming it once.
  static std::string noun(const Operation& op) { return "the " + op.f; }
  // The value as the history writes it, shortened around where it differs from `other`.
  static std::string quoted(const Value& value, const std::string& other = {});

  // Whether the condition puts `a` before `b`.
  bool precedes(const Operation& a, const Operation& b) const { return must_precede(a, b, condition_); }
  // "completed before the read began" (real time), "came before the read in process 3"
  // (program order): said of an op that precedes `later`.
  std::string before(const Operation& later) const;
  // "completed before write 3 (op 7, process 2) began": `earlier` precedes `later`,
  // both named.
  std::string before_named(const Operation& later) const;
  // "began after push 9 (op 28, process 0) completed": `earlier`, named, precedes it.
  std::string after_named(const Operation& earlier) const;
  // "began after the read completed", or "came after the read in process 3": said of
  // ops that `earlier` precedes.
  std::string after(const Operation& earlier) const;

  const Model& model() const { return model_; }
  bool real_time() const { return keeps_real_time(condition_); }
  static constexpr std::size_t kListed = 8;

 private:
  const Model& model_;
  Consistency condition_;
};

// What a shape found: the sentence and the part each op it names plays.
struct Shape {
  std::string sentence;
  std::map<const Operation*, WhyRole> roles;

  void name(const Operation* op, WhyRole role) { roles.emplace(op, role); }
  void name_all(const std::vector<const Operation*>& ops, WhyRole role) {
    for (const Operation* op : ops) name(op, role);
  }
};

// The inputs every shape reads.
struct ShapeInput {
  std::span<const Operation* const> core;       // ascending call order
  std::span<const Operation* const> partition;  // the core's partition, ascending call order
  const refute::RelaxedRelevance& relevance;    // the partition relaxed and described
  const Operation* failing;                     // may be null or outside the core
  const WhyWords& words;
};

std::optional<Shape> register_shape(const ShapeInput& in);
std::optional<Shape> collection_shape(const ShapeInput& in);

}  // namespace ariadne::explain
