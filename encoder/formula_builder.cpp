// FormulaBuilder (see the header).
#include "encoder/formula_builder.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ariadne::encoder {

namespace {
constexpr std::uint32_t kPollEvery = 4096;
constexpr std::size_t kPairwiseAtMostOne = 6;

// The bytes a vector allocates anew to take `more` elements, 0 if it has room: a
// growing vector holds its old array and a new one of twice the size (libstdc++'s
// growth) at once, which is the formula's peak.
template <class T>
std::size_t growth_of(const std::vector<T>& v, std::size_t more) {
  if (v.size() + more <= v.capacity()) return 0;
  return (v.size() + std::max(v.size(), more)) * sizeof(T);
}
}  // namespace

std::size_t Formula::memory_bytes() const {
  std::size_t bytes = sizeof(Formula) + clause_literals.capacity() * sizeof(Literal) +
                      clause_groups.capacity() * sizeof(std::uint32_t) + order_atoms.capacity() * sizeof(OrderAtom) +
                      real_time.capacity() * sizeof(real_time[0]) + presence.capacity() * sizeof(Literal);
  for (const auto& g : groups) bytes += sizeof(g) + g.name.capacity() + g.ops.capacity() * sizeof(std::uint32_t);
  for (const auto& p : positions) bytes += sizeof(p) + p.capacity() * sizeof(Literal);
  return bytes;
}

std::vector<std::vector<Literal>> Formula::clauses() const {
  std::vector<std::vector<Literal>> out(1);
  for (const Literal literal : clause_literals) {
    if (literal == 0) {
      out.emplace_back();
    } else {
      out.back().push_back(literal);
    }
  }
  out.pop_back();
  return out;
}

FormulaBuilder::FormulaBuilder(std::span<const Operation* const> ops, const EncodeOptions& options)
    : ops_(ops), options_(options), real_time_(ops, options.consistency) {
  formula_.op_count = static_cast<std::uint32_t>(ops.size());
  formula_.variable_count = 1;
  // Variable 1 is the constant true.
  formula_.clause_literals = {kTrue, 0};
  formula_.clause_groups = {kNoGroup};
  formula_.presence.assign(ops.size(), kTrue);
  formula_.real_time = options.selectors.empty() ? real_time_.reduction_edges() : real_time_.closure_edges();
}

Literal FormulaBuilder::new_variable() { return ++formula_.variable_count; }

Literal FormulaBuilder::order(std::uint32_t a, std::uint32_t b) {
  // "a before a" has no meaning, and its atom would be a free variable: a clause
  // resting on it would claim what no order implies.
  if (a == b) throw std::logic_error("encoder: an order atom of op " + std::to_string(a) + " with itself");
  if (real_time_.precedes(a, b)) return kTrue;
  if (real_time_.precedes(b, a)) return kFalse;
  const std::uint32_t low = std::min(a, b);
  const std::uint32_t high = std::max(a, b);
  const std::uint64_t key = (std::uint64_t{low} << 32) | high;
  auto [it, inserted] = order_atoms_.try_emplace(key, 0);
  if (inserted) {
    if (const std::size_t growth = growth_of(formula_.order_atoms, 1); growth > 0) check_memory(growth);
    it->second = new_variable();
    formula_.order_atoms.push_back({it->second, low, high});
  }
  return a == low ? it->second : -it->second;
}

void FormulaBuilder::begin_group(std::string name, std::vector<std::uint32_t> ops) {
  group_ = static_cast<std::uint32_t>(formula_.groups.size());
  formula_.groups.push_back({std::move(name), std::move(ops)});
}

void FormulaBuilder::mention(std::uint32_t op) {
  if (group_ == kNoGroup) return;
  std::vector<std::uint32_t>& ops = formula_.groups[group_].ops;
  if (std::ranges::find(ops, op) == ops.end()) ops.push_back(op);
}

void FormulaBuilder::add_clause(std::span<const Literal> literals) {
  scratch_.clear();
  for (Literal l : literals) {
    if (l == kTrue) return;  // satisfied already
    if (l == kFalse) continue;
    scratch_.push_back(l);
  }
  // Duplicates are harmless to the solvers but cost memory; clauses are short.
  std::ranges::sort(scratch_);
  scratch_.erase(std::unique(scratch_.begin(), scratch_.end()), scratch_.end());
  for (std::size_t i = 0; i + 1 < scratch_.size(); ++i) {
    if (std::ranges::binary_search(scratch_, -scratch_[i])) return;  // tautology
  }
  // Asked before the clause arrays double rather than after: the doubling is what
  // would carry the formula past the limit.
  const std::size_t growth =
      growth_of(formula_.clause_literals, scratch_.size() + 1) + growth_of(formula_.clause_groups, 1);
  if (growth > 0) check_memory(growth);
  formula_.clause_literals.insert(formula_.clause_literals.end(), scratch_.begin(), scratch_.end());
  formula_.clause_literals.push_back(0);
  formula_.clause_groups.push_back(group_);
  if (++clauses_since_poll_ >= kPollEvery) {
    clauses_since_poll_ = 0;
    poll();
    check_memory(0);
  }
}

void FormulaBuilder::check_memory(std::size_t growth) {
  if (options_.memory_ok && !options_.memory_ok(memory_bytes() + growth)) {
    throw EncodingUnsupported("the formula outgrew the memory limit");
  }
}

void FormulaBuilder::add_implications(Literal condition, std::span<const Literal> consequences) {
  for (Literal c : consequences) add_clause({-condition, c});
}

void FormulaBuilder::add_at_most_one(std::span<const Literal> literals) {
  if (literals.size() <= kPairwiseAtMostOne) {
    for (std::size_t i = 0; i < literals.size(); ++i) {
      for (std::size_t j = i + 1; j < literals.size(); ++j) add_clause({-literals[i], -literals[j]});
    }
    return;
  }
  // Sequential counter: s_i means "one of the first i+1 literals is true".
  Literal previous = 0;
  for (std::size_t i = 0; i < literals.size(); ++i) {
    const bool last = i + 1 == literals.size();
    const Literal s = last ? 0 : new_variable();
    if (!last) add_clause({-literals[i], s});
    if (previous != 0) {
      add_clause({-literals[i], -previous});
      if (!last) add_clause({-previous, s});
    }
    previous = s;
  }
}

std::size_t FormulaBuilder::memory_bytes() const {
  // A hash node per atom (its key and literal, the next pointer, malloc's header) and
  // a bucket pointer per bucket.
  constexpr std::size_t kBytesPerIndexedAtom = 32;
  return formula_.memory_bytes() + order_atoms_.size() * kBytesPerIndexedAtom +
         order_atoms_.bucket_count() * sizeof(void*) + real_time_.memory_bytes() +
         scratch_.capacity() * sizeof(Literal);
}

void FormulaBuilder::poll() {
  if (options_.should_stop && options_.should_stop()) throw EncodingStopped();
}

Formula FormulaBuilder::finish(std::string encoding) {
  formula_.encoding = std::move(encoding);
  return std::move(formula_);
}

}  // namespace ariadne::encoder
