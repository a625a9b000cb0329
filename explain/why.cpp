#include "explain/why.hpp"

#include "explain/dead_ends.hpp"
#include "explain/excerpt.hpp"
#include "explain/why_words.hpp"
#include "refute/relevant_relaxed.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace ariadne::explain {

std::string WhyWords::named(const Operation& op) const {
  // A failed op is an observation (etcd's failed cas) and a crashed one may not have
  // happened: either reads differently from an op that completed, so it says so.
  const std::string status = op.status == OpStatus::failed    ? ", failed"
                             : op.status == OpStatus::crashed ? ", crashed"
                                                              : "";
  return shorten(model_.describe_operation(op), kExcerptWidth) + " (op " + std::to_string(op.id) + ", process " +
         std::to_string(op.process) + status + ")";
}

std::string WhyWords::ids(const std::vector<const Operation*>& ops) const {
  std::vector<std::uint32_t> sorted;
  for (const Operation* op : ops) sorted.push_back(op->id);
  std::sort(sorted.begin(), sorted.end());
  std::string out = sorted.size() == 1 ? "op " : "ops ";
  const std::size_t shown = std::min(sorted.size(), kListed);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i != 0) out += (i + 1 == shown && shown == sorted.size()) ? " and " : ", ";
    out += std::to_string(sorted[i]);
  }
  // "(of 13)", not "and 5 more": a number after "and" would read as one more op id.
  if (shown < sorted.size()) out += ", … (" + std::to_string(sorted.size()) + " in all)";
  return out;
}

std::string WhyWords::quoted(const Value& value, const std::string& other) {
  return excerpt_near_difference(value.to_edn(), other);
}

std::string WhyWords::before(const Operation& later) const {
  if (keeps_real_time(condition_)) return "completed before " + noun(later) + " began";
  return "came before " + noun(later) + " in process " + std::to_string(later.process);
}

std::string WhyWords::before_named(const Operation& later) const {
  if (keeps_real_time(condition_)) return "completed before " + named(later) + " began";
  return "came before " + named(later) + " in process " + std::to_string(later.process);
}

std::string WhyWords::after_named(const Operation& earlier) const {
  if (keeps_real_time(condition_)) return "began after " + named(earlier) + " completed";
  return "came after " + named(earlier) + " in process " + std::to_string(earlier.process);
}

std::string WhyWords::after(const Operation& earlier) const {
  if (keeps_real_time(condition_)) return "began after " + noun(earlier) + " completed";
  return "came after " + noun(earlier) + " in process " + std::to_string(earlier.process);
}

namespace {

// When no shape fits: what the dead-end search found, for a core small enough.
std::optional<Shape> dead_end_shape(const ShapeInput& in, const CoreSummary& summary) {
  // The search orders ops by real time: under program order its dead ends are not all
  // dead ends, so it says nothing there.
  if (in.core.size() > kMaxExplainedOps || !in.words.real_time()) return std::nullopt;
  const DeadEnds found =
      find_dead_ends(in.words.model(), in.core, in.partition, in.relevance, summary.deadline, summary.limits);
  if (found.ordered) return std::nullopt;
  // A run of core ops only reads as a fact about the core; prefer the failing op's.
  const DeadEnd* chosen = nullptr;
  for (const DeadEnd& end : found.ends) {
    if (!found.ops.relaxed.kept[end.blocked]) continue;
    if (!chosen || (in.failing && found.ops.recorded[end.blocked] == in.failing &&
                    found.ops.recorded[chosen->blocked] != in.failing)) {
      chosen = &end;
    }
  }
  if (!chosen) return std::nullopt;
  const WhyWords& words = in.words;
  const Operation& blocked = *found.ops.recorded[chosen->blocked];
  Shape shape;
  shape.name(&blocked, WhyRole::refused);
  // The run there, by its last op of the core (ops outside it are relaxed and unnamed).
  std::string where = "at the start";
  const auto last_kept = std::find_if(chosen->path.rbegin(), chosen->path.rend(),
                                      [&](std::uint32_t i) { return found.ops.relaxed.kept[i]; });
  if (last_kept != chosen->path.rend()) {
    const Operation& last = *found.ops.recorded[*last_kept];
    shape.name(&last, WhyRole::cause);
    where = "after " + words.named(last);
    if (chosen->path.size() > 1) {
      const std::size_t others = chosen->path.size() - 1;
      where += " and " + std::to_string(others) + (others == 1 ? " other op" : " other ops");
    }
  } else if (!chosen->path.empty()) {
    where = "after " + std::to_string(chosen->path.size()) + " ops outside the core";
  }
  const std::string state = excerpt_near_difference(chosen->state, blocked.value.to_edn());
  if (in.core.size() == 1) {
    // One op alone: every other op is relaxed, so no state they could leave suits it.
    shape.sentence = words.named(blocked) + " can take effect in no state the other ops could leave (" + where +
                     ", the state is " + state + ").";
    return shape;
  }
  const std::string ops_word = std::to_string(in.core.size()) + " ops of the core";
  shape.sentence = "No order of these " + ops_word +
                   (words.real_time() ? " that real time allows" : " that program order allows") +
                   " gets through: each reaches a point where no op left can take effect; for instance, " + where +
                   " the state is " + state + ", in which " + words.named(blocked) + " cannot take effect.";
  return shape;
}

// A core too large to search: the failing op and the core's size, which is still the
// one fact everything else rests on.
Shape size_shape(std::span<const Operation* const> core, const Operation* failing, const WhyWords& words) {
  Shape shape;
  const std::string cannot = std::to_string(core.size()) +
                             " ops of the core cannot be ordered together, whatever the other ops did (--explain "
                             "gives the facts that bind them).";
  if (!failing) {
    // No failing op (sequential consistency has none): the core's first and last ops
    // by invocation, so that the reader knows where to look.
    shape.name(core.front(), WhyRole::refused);
    shape.name(core.back(), WhyRole::refused);
    shape.sentence = "The " + std::to_string(core.size()) + " ops of the core, from " + words.named(*core.front()) +
                     " to " + words.named(*core.back()) +
                     ", cannot be ordered together, whatever the other ops did (--explain gives the facts that "
                     "bind them).";
    return shape;
  }
  shape.name(failing, WhyRole::refused);
  shape.sentence = words.named(*failing) + " is the first result no order explains: the " + cannot;
  return shape;
}

}  // namespace

Why explain_why(const Model& model, const CoreSummary& summary, const Operation* failing, Consistency condition) {
  Why why;
  if (summary.core.empty()) return why;
  // The shapes read the partition relaxed and described; a core too large for them
  // (a partition left whole by --no-core, say) gets the size sentence, and describing a
  // partition of millions of ops for it would cost about as much as its verdict did.
  const WhyWords words(model, condition);
  std::optional<Shape> shape;
  if (summary.core.size() <= kMaxListedOps) {
    std::optional<RelaxedRelevance> own;
    if (!summary.relevance) own.emplace(summary.partition_ops, model);
    const ShapeInput in{summary.core, summary.partition_ops, summary.relevance ? *summary.relevance : *own, failing,
                        words};
    shape = register_shape(in);
    if (!shape) shape = collection_shape(in);
    if (!shape) shape = dead_end_shape(in, summary);
  }
  if (!shape) shape = size_shape(summary.core, failing, words);

  std::string sentence = shape->sentence;
  if (!sentence.empty()) sentence[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence[0])));
  if (!summary.partition.empty()) {
    // " on key 3": the key first, so that the rest reads as that key's history.
    std::string key = summary.partition;
    if (key.rfind(" on ", 0) == 0) key = key.substr(4);
    key[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(key[0])));
    sentence = key + ": " + sentence;
  }
  why.sentence = std::move(sentence);
  for (const Operation* op : summary.core) {
    const auto role = shape->roles.find(op);
    why.ops.push_back(WhyOp{op->id, role == shape->roles.end() ? WhyRole::context : role->second});
  }
  if (failing &&
      std::none_of(summary.core.begin(), summary.core.end(), [&](const Operation* op) { return op == failing; })) {
    const auto role = shape->roles.find(failing);
    why.ops.push_back(WhyOp{failing->id, role == shape->roles.end() ? WhyRole::context : role->second});
  }
  std::sort(why.ops.begin(), why.ops.end(), [](const WhyOp& a, const WhyOp& b) { return a.op < b.op; });
  return why;
}

}  // namespace ariadne::explain
