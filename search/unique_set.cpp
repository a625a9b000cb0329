// Linearizability of a grow-only set whose added values are unique, with reads that
// return the whole set (Knossos' set model), in O(n log n) plus the size of the reads.
//
// The set only grows, so the distinct sets read must form a chain S_1 < S_2 < ... <
// S_k under inclusion (LiMo [PLDI 2025] decides sets in linear time on this
// structure). Each added value x has a level: the first S_j holding it (the initial
// ones level 0, those no read holds level k+1). Every order then runs in phases
// A_1 G_1 A_2 G_2 ... A_k G_k A_{k+1}: the adds of level j, then the reads of S_j, with
// any order inside a phase (adds commute, equal reads commute), and a history is
// linearizable iff its ops can be given points inside their intervals with the
// phases in that order. Placing every op of a phase at max(its call, the latest call
// of all earlier phases) + epsilon is as early as possible, so it is feasible iff it
// fits: iff no op returns before some op of an earlier phase is invoked. Such an op
// pair (with a read that separates two adds) is the violation.
//
// Crashed ops: a crashed read reveals nothing and is dropped. A crashed add of a value
// no read holds is dropped: taking effect only puts a value in the set that every
// later read would have to show. A crashed add whose value some read holds took
// effect, and stays with no completion.
#include "search/unique_values.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace ariadne::search {

namespace {

using models::Effect;
constexpr std::uint32_t kNoLevel = 0xffffffffu;

class SetAnalysis {
 public:
  SetAnalysis(std::span<const Operation* const> ops, const models::Semantics& semantics,
              const UniqueStopPoll& should_stop)
      : ops_(ops), semantics_(semantics), answer_(should_stop) {}

  UniqueValueAnalysis run() {
    if (classify() && chain_reads() && level_values()) place();
    return answer_.take();
  }

 private:
  std::string value_name(std::uint32_t v) const { return semantics_.value_name(v); }
  const std::vector<std::uint32_t>& read_set(std::uint32_t i) const { return semantics_.ops[i].elements; }

  bool classify() {
    if (semantics_.theory != models::Theory::set) return answer_.decline("not a set");
    adder_.assign(semantics_.value_count, kNoUniqueOp);
    initial_.assign(semantics_.value_count, false);
    for (const std::uint32_t v : semantics_.initial) initial_[v] = true;
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (answer_.stopping(i)) return false;
      const models::OpMeaning& m = semantics_.ops[i];
      switch (m.effect) {
        case Effect::add:
          if (initial_[m.element] || adder_[m.element] != kNoUniqueOp) {
            return answer_.decline("value " + value_name(m.element) + " is added twice");
          }
          adder_[m.element] = i;
          break;
        case Effect::read_set: reads_.push_back(i); break;
        default:
          if (!answer_.other(i, m, anywhere_, "not a set op")) return false;
          break;
      }
    }
    return true;
  }

  // Groups the reads by the set they return, smallest first, and refutes two reads
  // neither of whose sets holds the other's.
  bool chain_reads() {
    std::stable_sort(reads_.begin(), reads_.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return read_set(a).size() < read_set(b).size(); });
    std::uint32_t previous = kNoUniqueOp;  // the first read of the last group
    for (std::uint32_t k = 0; k < reads_.size(); ++k) {
      if (answer_.stopping(k)) return false;
      const std::uint32_t r = reads_[k];
      if (previous != kNoUniqueOp && read_set(previous) == read_set(r)) {
        group_of_read_.push_back(static_cast<std::uint32_t>(groups_.size() - 1));
        continue;
      }
      if (previous != kNoUniqueOp && !std::includes(read_set(r).begin(), read_set(r).end(), read_set(previous).begin(),
                                                    read_set(previous).end())) {
        return answer_.refute({previous, r}, "two reads of sets neither of which holds the other");
      }
      groups_.push_back(r);
      group_of_read_.push_back(static_cast<std::uint32_t>(groups_.size() - 1));
      previous = r;
    }
    return true;
  }

  // Each value's level, and the refutations a single read gives: a value it holds
  // that nobody adds, or an initial value it lacks.
  bool level_values() {
    level_.assign(semantics_.value_count, kNoLevel);
    for (std::uint32_t v = 0; v < initial_.size(); ++v) {
      if (initial_[v]) level_[v] = 0;
    }
    for (std::uint32_t g = 0; g < groups_.size(); ++g) {
      if (answer_.stopping(g)) return false;
      const std::uint32_t r = groups_[g];
      std::size_t initial_held = 0;
      for (const std::uint32_t v : read_set(r)) {
        if (initial_[v]) {
          ++initial_held;
          continue;
        }
        if (adder_[v] == kNoUniqueOp) return answer_.refute({r}, "a read of a value nobody adds");
        if (level_[v] == kNoLevel) level_[v] = g + 1;
      }
      if (initial_held < semantics_.initial.size()) return answer_.refute({r}, "a read that lacks an initial value");
    }
    return true;
  }

  void place() {
    const std::uint32_t last = static_cast<std::uint32_t>(groups_.size()) + 1;  // the adds no read holds
    // Each op's phase: level j adds are 2j - 1, reads of group j (from 1) are 2j.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> by_phase;  // (phase, op)
    for (std::uint32_t v = 0; v < adder_.size(); ++v) {
      const std::uint32_t a = adder_[v];
      if (a == kNoUniqueOp) continue;
      if (level_[v] == kNoLevel && !ops_[a]->must_take_effect()) continue;  // dropped: see the header
      by_phase.emplace_back(2 * (level_[v] == kNoLevel ? last : level_[v]) - 1, a);
    }
    for (std::uint32_t k = 0; k < reads_.size(); ++k) by_phase.emplace_back(2 * (group_of_read_[k] + 1), reads_[k]);
    std::sort(by_phase.begin(), by_phase.end());
    // (base, phase, op)
    std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>> points;
    points.reserve(by_phase.size() + anywhere_.size());
    // The latest call of all earlier phases, and of the phase being placed.
    std::uint64_t earlier_call = 0, current_call = 0;
    std::uint32_t earlier_op = kNoUniqueOp, current_op = kNoUniqueOp;
    std::uint32_t current_phase = kNoLevel;
    for (std::size_t k = 0; k < by_phase.size(); ++k) {
      if (answer_.stopping(k)) return;
      const auto [phase, i] = by_phase[k];
      if (phase != current_phase) {
        if (current_op != kNoUniqueOp && (earlier_op == kNoUniqueOp || current_call > earlier_call)) {
          earlier_call = current_call;
          earlier_op = current_op;
        }
        current_phase = phase;
        current_op = kNoUniqueOp;
      }
      const Operation& op = *ops_[i];
      if (earlier_op != kNoUniqueOp && op.ret != kNever && op.ret < earlier_call) {
        refute_inversion(earlier_op, i);
        return;
      }
      points.emplace_back(earlier_op == kNoUniqueOp ? op.call : std::max(op.call, earlier_call), phase, i);
      if (current_op == kNoUniqueOp || op.call > current_call) {
        current_call = op.call;
        current_op = i;
      }
    }
    for (const std::uint32_t i : anywhere_) points.emplace_back(ops_[i]->call, 0, i);
    answer_.linearizable_by_points(std::move(points));
  }

  // `later` (of a later phase) returned before `earlier` was invoked. Two adds are
  // ordered so only through a read holding the earlier one's value and not the
  // later's: one of `earlier`'s level's reads comes along.
  void refute_inversion(std::uint32_t earlier, std::uint32_t later) {
    std::vector<std::uint32_t> ops{earlier, later};
    const models::OpMeaning& a = semantics_.ops[earlier];
    const models::OpMeaning& b = semantics_.ops[later];
    if (a.effect == Effect::add && b.effect == Effect::add && level_[a.element] != kNoLevel && level_[a.element] > 0) {
      ops.push_back(groups_[level_[a.element] - 1]);
    }
    answer_.refute(std::move(ops), "an op that returned before another it must follow was invoked");
  }

  std::span<const Operation* const> ops_;
  const models::Semantics& semantics_;
  UniqueAnswer answer_;
  std::vector<std::uint32_t> adder_;  // per value id
  std::vector<bool> initial_;
  std::vector<std::uint32_t> reads_;          // completed reads, by set size after chain_reads
  std::vector<std::uint32_t> group_of_read_;  // parallel to reads_
  std::vector<std::uint32_t> groups_;         // each group's first read
  std::vector<std::uint32_t> level_;          // per value id
  std::vector<std::uint32_t> anywhere_;       // completed ops that observe and change nothing
};

}  // namespace

UniqueValueAnalysis analyse_unique_set(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                       const UniqueStopPoll& should_stop) {
  return SetAnalysis(ops, semantics, should_stop).run();
}

}  // namespace ariadne::search
