#include "refute/relaxed_closure.hpp"

#include "search/config_cache.hpp"
#include "search/twin_classes.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <unordered_map>

namespace ariadne::refute {

namespace {

// A closure past this many states means a model with too many states for this look
// (a register family's closure has one state per value written).
constexpr std::size_t kMaxClosureStates = 64;
// Paths that needed more members of a class than it has, before the search gives up:
// each is a sign that the supply is what the answer turns on.
constexpr int kMaxOverflowingPaths = 8;
// The search recurses once per kept op it linearizes: past this many kept ops (a
// window as large as a long partition) the look is not taken.
constexpr std::size_t kMaxKeptOps = 4096;
// Not a kept crashed op: no class of twins among them.
constexpr std::uint32_t kNotTwin = 0xffffffffu;

using search::StopSignal;

// A state of a closure, with the relaxed step that first reached it (breadth first).
struct ClosureEntry {
  StateId state;
  std::int32_t parent;  // index in the same closure; -1 for the state it is the closure of
  std::uint32_t relaxed_class;
};

struct PathStep {
  std::uint32_t op;   // the kept op
  StateId from;       // the configuration's state
  std::uint32_t via;  // index in closure(from) of the state the op stepped from
};

class ClosureSearch {
 public:
  ClosureSearch(const RelaxedHistory& relaxed, const Model& model, const StopSignal& stop, std::uint64_t step_budget,
                std::size_t byte_limit)
      : relaxed_(relaxed),
        pointers_(relaxed.pointers()),
        compiled_(model.compile(pointers_)),
        stop_(stop),
        step_budget_(step_budget),
        bit_of_(relaxed.ops.size(), 0),
        zobrist_(relaxed.ops.size(), 0),
        required_words_((count_kept(relaxed, true) + 63) / 64),
        bits_(required_words_ + (count_kept(relaxed, false) + 63) / 64, 0),
        cache_(required_words_, bits_.size() - required_words_) {
    cache_.set_byte_limit(byte_limit);
    std::mt19937_64 rng(0xc105e);
    std::uint32_t next_required = 0, next_optional = static_cast<std::uint32_t>(required_words_ * 64);
    for (std::uint32_t r = 0; r < relaxed.ops.size(); ++r) {
      if (!relaxed.kept[r]) {
        twins_.add(relaxed.ops[r], r);
        continue;
      }
      kept_.push_back(r);
      if (relaxed.ops[r].must_take_effect()) {
        bit_of_[r] = next_required++;
        zobrist_[r] = rng();
        by_return_.push_back(r);
      } else {
        bit_of_[r] = next_optional++;
      }
    }
    twins_.group();
    // The kept crashed ops as twins too, each class used in call order (see explore()).
    kept_twin_.assign(relaxed.ops.size(), kNotTwin);
    kept_twin_rank_.assign(relaxed.ops.size(), 0);
    search::TwinClasses kept_twins;
    for (const std::uint32_t r : kept_) {
      if (relaxed.ops[r].must_take_effect()) continue;
      const std::uint32_t c = kept_twins.add(relaxed.ops[r], r);
      if (c == kept_twin_used_.size()) kept_twin_used_.push_back(0);
      kept_twin_[r] = c;
      kept_twin_rank_[r] = kept_twin_used_[c]++;
    }
    std::fill(kept_twin_used_.begin(), kept_twin_used_.end(), 0);
    std::stable_sort(by_return_.begin(), by_return_.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return relaxed.ops[a].ret < relaxed.ops[b].ret; });
    return_rank_.assign(relaxed.ops.size(), 0);
    for (std::uint32_t k = 0; k < by_return_.size(); ++k) return_rank_[by_return_[k]] = k;
    kept_rank_.assign(relaxed.ops.size(), 0);
    kept_call_.reserve(kept_.size());
    // The list of places not linearized: all, in order, after the head at kept_.size().
    const auto places = static_cast<std::uint32_t>(kept_.size());
    next_place_.resize(places + 1);
    prev_place_.resize(places + 1);
    for (std::uint32_t k = 0; k <= places; ++k) {
      next_place_[k] = k == places ? 0 : k + 1;
      prev_place_[k] = k == 0 ? places : k - 1;
    }
    for (std::uint32_t k = 0; k < places; ++k) {
      kept_rank_[kept_[k]] = k;
      kept_call_.push_back(relaxed.ops[kept_[k]].call);
    }
    required_left_ = next_required;
    linearized_.assign(relaxed.ops.size(), 0);
  }

  ClosureDecision run() {
    ClosureDecision result;
    if (kept_.size() > kMaxKeptOps) return result;
    const StateId initial = compiled_->initial();
    cache_.insert(config_hash(initial), initial, bits_.data());
    const Visit visit = explore(initial);
    result.steps = steps_;
    result.too_many_states = too_many_states_;
    if (visit == Visit::found) {
      result.decision = RelaxedDecision::ordered(witness_, relaxed_);
    } else if (visit == Visit::exhausted && overflowing_paths_ == 0) {
      result.decision.verdict = RelaxedVerdict::not_linearizable;
    }
    return result;
  }

 private:
  enum class Visit : std::uint8_t { exhausted, found, gave_up };

  static std::size_t count_kept(const RelaxedHistory& relaxed, bool required) {
    std::size_t n = 0;
    for (std::uint32_t r = 0; r < relaxed.ops.size(); ++r) {
      n += relaxed.kept[r] && relaxed.ops[r].must_take_effect() == required ? 1 : 0;
    }
    return n;
  }

  std::uint64_t config_hash(StateId s) const { return search::ConfigCache::hash(bits_hash_, s); }

  void toggle(std::uint32_t r) {
    const std::uint32_t bit = bit_of_[r];
    bits_[bit >> 6] ^= std::uint64_t{1} << (bit & 63);
    bits_hash_ ^= zobrist_[r];
    linearized_[r] ^= 1;
    // Out of the list when linearized, back in at its place when undone: toggles come
    // in nested pairs (explore()), so the neighbours it left are its neighbours again.
    const std::uint32_t place = kept_rank_[r];
    if (linearized_[r] != 0) {
      next_place_[prev_place_[place]] = next_place_[place];
      prev_place_[next_place_[place]] = prev_place_[place];
    } else {
      next_place_[prev_place_[place]] = place;
      prev_place_[next_place_[place]] = place;
    }
    if (!relaxed_.ops[r].must_take_effect()) {
      std::uint32_t& used = kept_twin_used_[kept_twin_[r]];
      used = linearized_[r] != 0 ? used + 1 : used - 1;
      return;
    }
    if (linearized_[r] == 0) {
      first_pending_ = std::min<std::size_t>(first_pending_, return_rank_[r]);
    } else {
      while (first_pending_ < by_return_.size() && linearized_[by_return_[first_pending_]] != 0) ++first_pending_;
    }
  }

  // The states the relaxed steps reach from `s`, `s` first, each once, in breadth-first
  // order; nullptr when there are more than kMaxClosureStates.
  const std::vector<ClosureEntry>* closure(StateId s) {
    const auto known = closures_.find(s);
    if (known != closures_.end()) return &known->second;
    std::vector<ClosureEntry> entries{{s, -1, 0}};
    std::vector<StateId> next;
    for (std::size_t e = 0; e < entries.size(); ++e) {
      for (std::uint32_t c = 0; c < twins_.size(); ++c) {
        next.clear();
        compiled_->step(entries[e].state, twins_.members(c).front(), next);
        ++steps_;
        for (const StateId t : next) {
          const bool seen =
              std::any_of(entries.begin(), entries.end(), [t](const ClosureEntry& x) { return x.state == t; });
          if (seen) continue;
          if (entries.size() == kMaxClosureStates) {
            too_many_states_ = true;
            return nullptr;
          }
          entries.push_back({t, static_cast<std::int32_t>(e), c});
        }
      }
    }
    return &closures_.emplace(s, std::move(entries)).first->second;
  }

  // The earliest return among the required kept ops not yet linearized: only ops
  // invoked before it may go next.
  std::uint64_t first_pending_return() const {
    return first_pending_ < by_return_.size() ? relaxed_.ops[by_return_[first_pending_]].ret : kNever;
  }

  Visit explore(StateId s) {
    if (required_left_ == 0) {
      if (take_path()) return Visit::found;
      return overflowing_paths_ > kMaxOverflowingPaths ? Visit::gave_up : Visit::exhausted;
    }
    const std::vector<ClosureEntry>* reachable = closure(s);
    if (reachable == nullptr) return Visit::gave_up;
    const std::uint64_t horizon = first_pending_return();
    // The kept ops not linearized, from a list: skipping the linearized ones one by
    // one was a sixth of the search's time on Porcupine's etcd logs (measured), where
    // a crashed op early on is never linearized and no prefix of them ever is.
    const auto head = static_cast<std::uint32_t>(kept_.size());
    for (std::uint32_t place = next_place_[head]; place != head; place = next_place_[place]) {
      if (kept_call_[place] >= horizon) break;  // kept_ ascends by call
      const std::uint32_t r = kept_[place];
      // Kept crashed twins (the same f, argument and key, both returning at the end of
      // time) are interchangeable, and the one invoked first may go wherever the other
      // may (its call is earlier still): only a class's first unused member is tried,
      // which loses no order and prunes the k! of k twins, as WGL's twins do.
      if (kept_twin_[r] != kNotTwin && kept_twin_rank_[r] != kept_twin_used_[kept_twin_[r]]) continue;
      const Operation& op = relaxed_.ops[r];
      for (std::uint32_t via = 0; via < reachable->size(); ++via) {
        if ((++polls_ & 1023) == 0 && (stop_.check() != StopSignal::Why::none || steps_ > step_budget_)) {
          return Visit::gave_up;
        }
        const StateId from = (*reachable)[via].state;
        const std::size_t begin = successors_.size();
        compiled_->step(from, r, successors_);
        ++steps_;
        for (std::size_t k = begin; k < successors_.size(); ++k) {
          const StateId to = successors_[k];
          // An optional op that changes nothing would only be used up.
          if (!op.must_take_effect() && to == from) continue;
          toggle(r);
          if (!cache_.insert(config_hash(to), to, bits_.data())) {
            toggle(r);
            continue;
          }
          if (op.must_take_effect()) --required_left_;
          path_.push_back({r, s, via});
          const Visit visit = explore(to);
          path_.pop_back();
          if (op.must_take_effect()) ++required_left_;
          toggle(r);
          if (visit != Visit::exhausted) {
            successors_.resize(begin);
            return visit;
          }
        }
        successors_.resize(begin);
      }
    }
    return Visit::exhausted;
  }

  // The current path as a linearization of the relaxed history, if no class is used
  // more often than it has members: sets witness_ and returns true. A path that needs
  // more is counted (run() then cannot refute); past kMaxOverflowingPaths the search
  // gives up.
  bool take_path() {
    std::vector<std::uint32_t> order;
    std::vector<std::size_t> used(twins_.size(), 0);
    bool fits = true;
    std::vector<std::uint32_t> classes;
    for (const PathStep& step : path_) {
      const std::vector<ClosureEntry>& entries = closures_.at(step.from);
      classes.clear();
      for (std::int32_t e = static_cast<std::int32_t>(step.via); entries[e].parent >= 0; e = entries[e].parent) {
        classes.push_back(entries[e].relaxed_class);
      }
      for (auto c = classes.rbegin(); c != classes.rend(); ++c) {
        if (used[*c] == twins_.members(*c).size()) {
          fits = false;
          break;
        }
        order.push_back(twins_.members(*c)[used[*c]++]);
      }
      if (!fits) break;
      order.push_back(step.op);
    }
    if (!fits) {
      ++overflowing_paths_;
      return false;
    }
    if (!replays(order)) throw std::logic_error("core: a closure path that does not replay as a linearization");
    witness_ = std::move(order);
    return true;
  }

  // Whether `order` takes effect step by step in the model, and lists every required
  // kept op with real time respected: no op comes after one that completed before it
  // was invoked.
  bool replays(const std::vector<std::uint32_t>& order) {
    std::vector<StateId> states{compiled_->initial()}, next;
    std::vector<bool> listed(relaxed_.ops.size(), false);
    for (const std::uint32_t r : order) {
      if (listed[r]) return false;
      listed[r] = true;
      next.clear();
      for (const StateId s : states) compiled_->step(s, r, next);
      std::sort(next.begin(), next.end());
      next.erase(std::unique(next.begin(), next.end()), next.end());
      if (next.empty()) return false;
      states.swap(next);
    }
    for (const std::uint32_t r : by_return_) {
      if (!listed[r]) return false;
    }
    std::uint64_t earliest_later_return = kNever;
    for (auto r = order.rbegin(); r != order.rend(); ++r) {
      const Operation& op = relaxed_.ops[*r];
      if (earliest_later_return < op.call) return false;
      earliest_later_return = std::min(earliest_later_return, op.ret);
    }
    return true;
  }

  const RelaxedHistory& relaxed_;
  std::vector<const Operation*> pointers_;
  std::unique_ptr<CompiledModel> compiled_;
  const StopSignal& stop_;
  std::uint64_t step_budget_;
  std::vector<std::uint32_t> kept_;       // relaxed-history indices, ascending call
  std::vector<std::uint32_t> by_return_;  // the required kept ones, ascending return
  search::TwinClasses twins_;             // the relaxed ops, as classes of interchangeable twins
  std::unordered_map<StateId, std::vector<ClosureEntry>> closures_;
  std::vector<std::uint32_t> bit_of_;
  std::vector<std::uint64_t> zobrist_;
  std::size_t required_words_ = 0;
  std::vector<std::uint64_t> bits_;
  std::uint64_t bits_hash_ = 0;
  std::vector<std::uint8_t> linearized_;  // per relaxed op; bytes, read on every scan
  std::vector<std::uint32_t> kept_rank_;  // per kept op: its place in kept_
  std::vector<std::uint64_t> kept_call_;  // per place of kept_: the op's call
  // The places of kept_ not linearized, as a list in place order whose head is the
  // place kept_.size() (a dancing-links list: see toggle()).
  std::vector<std::uint32_t> next_place_;
  std::vector<std::uint32_t> prev_place_;
  // Per relaxed op: the class of a kept crashed op among the kept crashed ops, or
  // kNotTwin, and its rank there in call order; per class, how many are linearized.
  std::vector<std::uint32_t> kept_twin_;
  std::vector<std::uint32_t> kept_twin_rank_;
  std::vector<std::uint32_t> kept_twin_used_;
  search::ConfigCache cache_;
  std::size_t required_left_ = 0;
  std::vector<StateId> successors_;
  std::vector<PathStep> path_;
  std::vector<std::uint32_t> witness_;
  std::vector<std::uint32_t> return_rank_;  // per required kept op: its place in by_return_
  std::size_t first_pending_ = 0;           // the first place of by_return_ not linearized
  std::uint64_t steps_ = 0;                 // model steps
  std::uint64_t polls_ = 0;
  int overflowing_paths_ = 0;
  bool too_many_states_ = false;
};

}  // namespace

ClosureDecision decide_by_closure(const RelaxedHistory& relaxed, const Model& model, const StopSignal& stop,
                                  std::uint64_t step_budget, std::size_t byte_limit) {
  ClosureSearch search(relaxed, model, stop, step_budget, byte_limit);
  return search.run();
}

}  // namespace ariadne::refute
