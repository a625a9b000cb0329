// The generic encoding, for any model with few reachable states (user-defined models
// included): bounded model checking [BiereCimattiClarkeZhu99] of the compiled model's
// step(), with the bound equal to the number of ops, since a linearization puts each
// op at one of n positions. It needs nothing but initial() and step(), which is why
// it is the fallback, and it unrolls the whole state space at every position, which
// is why it is only offered when that space is small.
//
// Variables:
//   at(o, p)      op o sits at position p (0 <= p < n);
//   state(p, q)   state q is possible after position p;
//   idle(p)       no op sits at position p;
//   placed(a, p)  op a sits at some position <= p (a ladder, for real time).
// Constraints:
//   - a completed op sits at exactly one position, a crashed one at most one, and its
//     presence literal is the disjunction of its at-literals;
//   - a position holds at most one op;
//   - an op at p, from any possible state q before p, leads to one of step(q, op)
//     (and cannot sit at p after q when step(q, op) is empty); an idle position keeps
//     every possible state;
//   - for each real-time reduction edge a -> b, b at p implies a at some position < p.
//     Edges only leave completed ops, so chains of them are respected transitively.
//
// State literals are not one-hot. That is still sound: start from the initial state
// and walk the positions, choosing at each one a state literal that is true and that
// the op there (or idleness) may lead to; the transition clauses guarantee such a
// choice exists at every step, so the ops in position order make a legal run of the
// model. Demanding exactly one state per position would only add clauses.
//
// Which states exist: those reachable from initial() by at most n steps of any ops,
// each op tried in each state regardless of order or repetition. This over-approximates
// the states of every run (a run makes at most n steps, one per position) while
// staying polynomial, where tracking which ops were used would be exponential; after
// position p only states within p + 1 steps can hold.
//
// Size, for n ops and S states: n^2 at-variables and n*S state variables; O(n^2)
// clauses for placement and positions, n*n*S transition clauses, n*S for idle
// positions, and O(n) per real-time edge (O(n^2 * c) for concurrency c).
#include "encoder/theories.hpp"

#include <algorithm>
#include <unordered_map>

namespace ariadne::encoder {

namespace {

constexpr std::size_t kMaxStates = 64;
constexpr std::uint64_t kMaxTransitionClauses = 4'000'000;  // ops * ops * states

// The states reachable in at most `op_count` steps, densely numbered (0 is the
// initial state), with the successors of every state that is not at the bound.
struct StateSpace {
  std::vector<StateId> states;
  std::vector<std::uint32_t> depth;                                 // fewest steps from the initial state
  std::vector<std::vector<std::vector<std::uint32_t>>> successors;  // [state][op]
};

std::string too_many_transitions(std::uint64_t ops, std::uint64_t states) {
  return "the unrolling would need " + std::to_string(ops * ops * states) + " transition clauses (" +
         std::to_string(ops) + " ops, " + std::to_string(states) + " states), more than " +
         std::to_string(kMaxTransitionClauses);
}

std::optional<StateSpace> explore(CompiledModel& model, std::uint32_t op_count, std::string* why_not) {
  const auto fail = [&](std::string why) {
    if (why_not) *why_not = std::move(why);
    return std::nullopt;
  };
  if (std::uint64_t{op_count} * op_count > kMaxTransitionClauses) return fail(too_many_transitions(op_count, 1));
  StateSpace space;
  std::unordered_map<StateId, std::uint32_t> index;
  const StateId initial = model.initial();
  index.emplace(initial, 0);
  space.states.push_back(initial);
  space.depth.push_back(0);
  std::vector<StateId> next;
  // Breadth first, so depths are fewest steps and states come in layers.
  for (std::uint32_t q = 0; q < space.states.size(); ++q) {
    space.successors.emplace_back();
    if (space.depth[q] >= op_count) continue;
    space.successors[q].resize(op_count);
    for (std::uint32_t op = 0; op < op_count; ++op) {
      next.clear();
      model.step(space.states[q], op, next);
      for (const StateId s : next) {
        auto [it, inserted] = index.try_emplace(s, static_cast<std::uint32_t>(space.states.size()));
        if (inserted) {
          if (space.states.size() == kMaxStates)
            return fail("more than " + std::to_string(kMaxStates) + " reachable states");
          space.states.push_back(s);
          space.depth.push_back(space.depth[q] + 1);
        }
        std::vector<std::uint32_t>& targets = space.successors[q][op];
        if (std::ranges::find(targets, it->second) == targets.end()) targets.push_back(it->second);
      }
    }
  }
  if (std::uint64_t{op_count} * op_count * space.states.size() > kMaxTransitionClauses) {
    return fail(too_many_transitions(op_count, space.states.size()));
  }
  return space;
}

std::string describe(const StateSpace& space) {
  const std::size_t n = space.states.size();
  return "bounded unrolling over " + std::to_string(n) + (n == 1 ? " state" : " states");
}

class Unrolling {
 public:
  Unrolling(FormulaBuilder& builder, const StateSpace& space)
      : builder_(builder), space_(space), n_(builder.op_count()) {}

  void encode() {
    make_positions();
    for (std::uint32_t op = 0; op < n_; ++op) place(op);
    for (std::uint32_t p = 0; p < n_; ++p) builder_.add_at_most_one(holders(p));
    make_states();
    for (std::uint32_t p = 0; p < n_; ++p) keep_state_when_idle(p);
    for (std::uint32_t op = 0; op < n_; ++op) step(op);
    respect_real_time();
    builder_.set_positions(at_);
  }

 private:
  std::string name(std::uint32_t op) const { return "op " + std::to_string(builder_.op(op).id); }

  // An op can only sit where its completed real-time predecessors fit before it and
  // its completed successors after it; elsewhere its at-literal is false.
  void make_positions() {
    at_.assign(n_, std::vector<Literal>(n_, kFalse));
    for (std::uint32_t op = 0; op < n_; ++op) {
      std::uint32_t before = 0;
      std::uint32_t after = 0;
      for (std::uint32_t other = 0; other < n_; ++other) {
        if (builder_.precedes(other, op)) ++before;
        if (builder_.precedes(op, other) && builder_.op(other).must_take_effect()) ++after;
      }
      for (std::uint32_t p = before; p + after < n_; ++p) at_[op][p] = builder_.new_variable();
    }
  }

  void place(std::uint32_t op) {
    builder_.poll();
    std::vector<Literal> positions;
    for (const Literal l : at_[op]) {
      if (l != kFalse) positions.push_back(l);
    }
    builder_.begin_group(name(op) + " sits at one position", {op});
    if (builder_.op(op).must_take_effect()) {
      builder_.add_clause(positions);
    } else {
      const Literal present = builder_.new_variable();
      builder_.set_presence(op, present);
      positions.insert(positions.begin(), -present);
      builder_.add_clause(positions);
      positions.erase(positions.begin());
      for (const Literal l : positions) builder_.add_clause({-l, present});
    }
    builder_.add_at_most_one(positions);
    builder_.end_group();
  }

  std::vector<Literal> holders(std::uint32_t p) const {
    std::vector<Literal> ops;
    for (std::uint32_t op = 0; op < n_; ++op) {
      if (at_[op][p] != kFalse) ops.push_back(at_[op][p]);
    }
    return ops;
  }

  void make_states() {
    const auto count = static_cast<std::uint32_t>(space_.states.size());
    after_.assign(n_, std::vector<Literal>(count, kFalse));
    for (std::uint32_t p = 0; p < n_; ++p) {
      for (std::uint32_t q = 0; q < count; ++q) {
        if (space_.depth[q] <= p + 1) after_[p][q] = builder_.new_variable();
      }
    }
  }

  // The state literal of q just before position p.
  Literal before(std::uint32_t p, std::uint32_t q) const {
    if (p == 0) return q == 0 ? kTrue : kFalse;
    return after_[p - 1][q];
  }

  void keep_state_when_idle(std::uint32_t p) {
    builder_.poll();
    const Literal idle = builder_.new_variable();
    std::vector<Literal> occupied = holders(p);
    occupied.push_back(idle);
    builder_.add_clause(occupied);
    for (std::uint32_t q = 0; q < space_.states.size(); ++q) {
      if (before(p, q) != kFalse) builder_.add_clause({-idle, -before(p, q), after_[p][q]});
    }
  }

  void step(std::uint32_t op) {
    builder_.poll();
    builder_.begin_group(name(op) + " steps the model from the state before it", {op});
    std::vector<Literal> clause;
    for (std::uint32_t p = 0; p < n_; ++p) {
      if (at_[op][p] == kFalse) continue;
      for (std::uint32_t q = 0; q < space_.states.size(); ++q) {
        if (before(p, q) == kFalse) continue;
        clause = {-at_[op][p], -before(p, q)};
        for (const std::uint32_t target : space_.successors[q][op]) clause.push_back(after_[p][target]);
        builder_.add_clause(clause);
      }
    }
    builder_.end_group();
  }

  // placed(a, p) for every p, made on first use. Only its truth is ever demanded, so
  // it implies that a sits at p or placed(a, p - 1), and belongs to no group.
  const std::vector<Literal>& placed(std::uint32_t op) {
    auto [it, inserted] = placed_.try_emplace(op);
    if (!inserted) return it->second;
    Literal previous = kFalse;
    for (std::uint32_t p = 0; p < n_; ++p) {
      if (at_[op][p] != kFalse) {
        const Literal now = builder_.new_variable();
        builder_.add_clause({-now, at_[op][p], previous});
        previous = now;
      }
      it->second.push_back(previous);
    }
    return it->second;
  }

  void respect_real_time() {
    std::vector<std::vector<std::uint32_t>> predecessors(n_);
    for (const auto& [a, b] : builder_.real_time().reduction_edges()) predecessors[b].push_back(a);
    for (std::uint32_t b = 0; b < n_; ++b) {
      if (predecessors[b].empty()) continue;
      builder_.poll();
      for (const std::uint32_t a : predecessors[b]) placed(a);
      std::vector<std::uint32_t> group_ops = predecessors[b];
      group_ops.push_back(b);
      builder_.begin_group(name(b) + " sits after the ops that returned before its invocation", std::move(group_ops));
      for (const std::uint32_t a : predecessors[b]) {
        const std::vector<Literal>& a_placed = placed_.at(a);
        for (std::uint32_t p = 0; p < n_; ++p) {
          if (at_[b][p] != kFalse) builder_.add_clause({-at_[b][p], p == 0 ? kFalse : a_placed[p - 1]});
        }
      }
      builder_.end_group();
    }
  }

  FormulaBuilder& builder_;
  const StateSpace& space_;
  const std::uint32_t n_;
  std::vector<std::vector<Literal>> at_;     // [op][position]
  std::vector<std::vector<Literal>> after_;  // [position][state]
  std::unordered_map<std::uint32_t, std::vector<Literal>> placed_;
};

}  // namespace

std::optional<std::string> unrolling_supported(const Model& model, std::span<const Operation* const> ops,
                                               std::string* why_not) {
  const auto compiled = model.compile(ops);
  const auto space = explore(*compiled, static_cast<std::uint32_t>(ops.size()), why_not);
  if (!space) return std::nullopt;
  return describe(*space);
}

void encode_by_unrolling(FormulaBuilder& builder, const Model& model, std::span<const Operation* const> ops) {
  const auto compiled = model.compile(ops);
  std::string why_not;
  const auto space = explore(*compiled, static_cast<std::uint32_t>(ops.size()), &why_not);
  if (!space) throw EncodingUnsupported(why_not);
  Unrolling(builder, *space).encode();
}

}  // namespace ariadne::encoder
