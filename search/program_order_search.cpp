// The program-order search: Wing and Gong's search [WingGong93] with Lowe's memo
// table [Lowe17] for sequential consistency [Lamport79] instead of linearizability.
//
// Under sequential consistency an op may come next once every earlier op of its own
// process that did not crash has (consistency.hpp): real time between processes does
// not bind. So the candidates at each configuration are the first unplaced completed
// op of each process, and every unplaced crashed op whose process's earlier completed
// ops are all placed. A configuration is (for each process, how many of its completed
// ops are placed; which crashed ops are; the model's state); a configuration that has
// failed once fails again, so the memo table keeps them, in full (a fingerprint could
// collide and turn a history that holds into a refutation).
//
// Three reductions, all exact:
// - Observers go first. An op that cannot change any state (a read, a :fail
//   observation: the model's semantics say so, models/semantics.hpp) and fits the
//   current state is placed at once, without branching. Soundness: take any order
//   that completes the configuration; move the observer to the front. Nothing before
//   it in that order had to precede it (it is its process's first unplaced completed
//   op, and crashed ops precede nothing), the ops it overtook see the same states
//   (it changes none), and it sees the state they started from, where it fits. So an
//   order exists with it placed first whenever one exists at all. This is what makes
//   readers that lag behind (stale reads from a follower) cheap: their reads are
//   placed as soon as the state they saw is current.
// - Registers (register_facts.hpp): a configuration in which a value some completed
//   op must read is overwritten for good fails at once, crashed writes of values
//   nobody reads are never tried, and other crashed writes only where a process's
//   next op reads their value.
// - Crashed ops are tried after the completed ones at each configuration, as WGL's
//   required-first order does, and writes whose value some process's next op reads
//   before other writes; every candidate is still tried, so the answer is the same,
//   only which order is found first changes.
//
// Checking sequential consistency is NP-complete even for registers [GibbonsKorach97],
// so no search is fast on every history; this one is exhaustive, resumable in slices
// of model steps like the other native engines, and polls its StopSignal.
#include "search/search_engine.hpp"

#include "models/semantics.hpp"
#include "search/register_facts.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <unordered_set>

namespace ariadne::search {

namespace {

constexpr std::uint32_t kNotCrashed = UINT32_MAX;
constexpr std::uint64_t kStopPollEvery = 1024;
// Bytes a memo entry costs beyond its key: the node, the hash and the string header.
constexpr std::int64_t kBytesPerMemoEntry = 80;

class ProgramOrderSearch final : public SearchEngine {
 public:
  ProgramOrderSearch(const SubHistory& sub, const Model& model, MemoryBudget& memory, const StopSignal& stop)
      : stop_(stop), memory_(memory), compiled_(model.compile(sub.ops)) {
    // Processes in order of their first op; each one's ops in call order.
    std::map<std::int64_t, std::uint32_t> process_index;
    crashed_ordinal_.assign(sub.ops.size(), kNotCrashed);
    process_of_.assign(sub.ops.size(), 0);
    observer_.assign(sub.ops.size(), false);
    for (std::uint32_t i = 0; i < sub.ops.size(); ++i) {
      const Operation& op = *sub.ops[i];
      const auto [it, inserted] = process_index.try_emplace(op.process, static_cast<std::uint32_t>(processes_.size()));
      if (inserted) processes_.emplace_back();
      Process& p = processes_[it->second];
      process_of_[i] = it->second;
      if (op.must_take_effect()) {
        p.completed.push_back(i);
        ++required_left_;
      } else {
        crashed_ordinal_[i] = static_cast<std::uint32_t>(crashed_.size());
        crashed_.push_back(Crashed{i, it->second, static_cast<std::uint32_t>(p.completed.size())});
      }
    }
    if (auto semantics = models::semantics_of(model, sub.ops)) {
      for (std::uint32_t i = 0; i < sub.ops.size(); ++i) {
        observer_[i] = sub.ops[i]->must_take_effect() && models::observes_only(semantics->ops[i]);
      }
      registers_ = RegisterFacts(*semantics, sub.ops);
    }
    crashed_placed_.assign((crashed_.size() + 63) / 64, 0);
  }

  Engine id() const override { return Engine::program_order; }
  std::uint64_t steps() const override { return steps_; }
  StopSignal::Why stop_reason() const override { return stop_reason_; }
  std::vector<std::uint32_t> linearization() const override { return found_; }

  Outcome run(std::uint64_t step_budget) override {
    const std::uint64_t budget_end = step_budget == 0 ? UINT64_MAX : steps_ + step_budget;
    if (!started_) {
      started_ = true;
      if (registers_.unreadable_value()) return Outcome::not_linearizable;
      if (!enter(compiled_->initial())) return Outcome::not_linearizable;
      if (done_) return Outcome::linearizable;
    }
    while (!frames_.empty()) {
      if (steps_ >= budget_end) return Outcome::undecided;
      if ((++polls_ % kStopPollEvery) == 0) {
        if (const auto why = stop_.check(); why != StopSignal::Why::none) {
          stop_reason_ = why;
          return Outcome::stopped;
        }
      }
      if (out_of_memory_) return Outcome::out_of_memory;
      Frame& frame = frames_.back();
      if (frame.next_move == frame.moves.size()) {
        leave();
        continue;
      }
      const Move move = frame.moves[frame.next_move++];
      if (!place(move.op)) {
        unplace(move.op);  // a value some op must still read is gone for good
        continue;
      }
      if (enter(move.state)) {
        if (done_) return Outcome::linearizable;
        continue;  // a new frame is on the stack
      }
      unplace(move.op);
    }
    return out_of_memory_ ? Outcome::out_of_memory : Outcome::not_linearizable;
  }

 private:
  struct Process {
    std::vector<std::uint32_t> completed;  // its completed ops, in call order
    std::uint32_t placed = 0;              // how many of them are placed
  };
  struct Crashed {
    std::uint32_t op = 0;
    std::uint32_t process = 0;
    std::uint32_t after = 0;  // how many of its process's completed ops precede it
  };
  struct Move {
    std::uint32_t op = 0;
    StateId state = 0;
  };
  struct Frame {
    StateId state = 0;
    std::vector<std::uint32_t> observers;  // placed on entry, undone on leaving
    std::vector<Move> moves;
    std::size_t next_move = 0;
  };

  // False when the configuration it leads to is dead (RegisterFacts); undo it then.
  bool place(std::uint32_t op) {
    order_.push_back(op);
    const std::uint32_t c = crashed_ordinal_[op];
    if (c != kNotCrashed) {
      crashed_placed_[c / 64] |= std::uint64_t{1} << (c % 64);
    } else {
      ++processes_[process_of_[op]].placed;
      --required_left_;
    }
    return registers_.place(op);
  }
  void unplace(std::uint32_t op) {
    registers_.unplace(op);
    order_.pop_back();
    const std::uint32_t c = crashed_ordinal_[op];
    if (c != kNotCrashed) {
      crashed_placed_[c / 64] &= ~(std::uint64_t{1} << (c % 64));
    } else {
      --processes_[process_of_[op]].placed;
      ++required_left_;
    }
  }
  // The configuration as bytes: placed counts, crashed bits, state.
  std::string configuration(StateId state) const {
    std::string key(processes_.size() * sizeof(std::uint32_t) + crashed_placed_.size() * 8 + sizeof state, '\0');
    char* out = key.data();
    for (const Process& p : processes_) {
      std::memcpy(out, &p.placed, sizeof p.placed);
      out += sizeof p.placed;
    }
    if (!crashed_placed_.empty()) std::memcpy(out, crashed_placed_.data(), crashed_placed_.size() * 8);
    out += crashed_placed_.size() * 8;
    std::memcpy(out, &state, sizeof state);
    return key;
  }

  // Enters the configuration reached in `state`: places the observers that fit,
  // checks the memo table and pushes a frame with the moves to try. False when the
  // configuration is known to fail (nothing is then pushed, observers undone).
  bool enter(StateId state) {
    std::vector<std::uint32_t> observers;
    bool placed_one = true;
    while (placed_one) {
      placed_one = false;
      for (Process& p : processes_) {
        while (p.placed < p.completed.size() && observer_[p.completed[p.placed]]) {
          const std::uint32_t op = p.completed[p.placed];
          next_.clear();
          compiled_->step(state, op, next_);
          ++steps_;
          if (std::find(next_.begin(), next_.end(), state) == next_.end()) break;
          place(op);  // an observer writes nothing, so no value dies
          observers.push_back(op);
          placed_one = true;
        }
      }
    }
    if (required_left_ == 0) {
      found_ = order_;
      done_ = true;
      return true;
    }
    std::string key = configuration(state);
    if (failed_.contains(key)) {
      for (auto it = observers.rbegin(); it != observers.rend(); ++it) unplace(*it);
      return false;
    }
    Frame frame;
    frame.state = state;
    frame.observers = std::move(observers);
    // Completed candidates first: those whose written value some process's next op
    // reads, then by call (the order the history suggests). Then the crashed ones
    // that may matter.
    std::vector<std::uint32_t> candidates;
    next_ops_.clear();
    for (const Process& p : processes_) {
      next_ops_.push_back(p.placed < p.completed.size() ? p.completed[p.placed] : RegisterFacts::kNoNext);
      if (p.placed < p.completed.size()) candidates.push_back(p.completed[p.placed]);
    }
    std::ranges::sort(candidates);
    if (registers_.enabled()) {
      std::vector<std::pair<std::uint32_t, std::uint32_t>> ranked;  // (wanted by, op)
      for (const std::uint32_t op : candidates) ranked.emplace_back(registers_.wanted_by(op, next_ops_), op);
      std::ranges::stable_sort(ranked, [](const auto& a, const auto& b) { return a.first > b.first; });
      for (std::size_t k = 0; k < ranked.size(); ++k) candidates[k] = ranked[k].second;
    }
    for (const Crashed& c : crashed_) {
      const std::uint32_t ordinal = crashed_ordinal_[c.op];
      if ((crashed_placed_[ordinal / 64] >> (ordinal % 64)) & 1) continue;
      if (processes_[c.process].placed < c.after || registers_.irrelevant(c.op)) continue;
      if (registers_.just_in_time(c.op) && registers_.wanted_by(c.op, next_ops_) == 0) continue;
      candidates.push_back(c.op);
    }
    for (const std::uint32_t op : candidates) {
      next_.clear();
      compiled_->step(state, op, next_);
      ++steps_;
      std::ranges::sort(next_);
      next_.erase(std::unique(next_.begin(), next_.end()), next_.end());
      // A crashed op that leaves the state as it is would only be used up.
      for (const StateId s : next_) {
        if (crashed_ordinal_[op] != kNotCrashed && s == state) continue;
        frame.moves.push_back(Move{op, s});
      }
    }
    pending_keys_.push_back(std::move(key));
    frames_.push_back(std::move(frame));
    return true;
  }

  // The top frame failed: remember its configuration, undo its observers and the
  // move that led to it.
  void leave() {
    Frame& frame = frames_.back();
    std::string key = std::move(pending_keys_.back());
    pending_keys_.pop_back();
    const auto bytes = static_cast<std::int64_t>(key.size()) + kBytesPerMemoEntry;
    memo_bytes_ += bytes;
    if (!share_.would_fit(memo_bytes_ + compiled_bytes())) {
      out_of_memory_ = true;
    } else {
      failed_.insert(std::move(key));
      share_.report(memo_bytes_ + compiled_bytes());
    }
    for (auto it = frame.observers.rbegin(); it != frame.observers.rend(); ++it) unplace(*it);
    frames_.pop_back();
    if (!frames_.empty()) unplace(order_.back());
  }

  std::int64_t compiled_bytes() const { return static_cast<std::int64_t>(compiled_->memory_bytes()); }

  const StopSignal& stop_;
  MemoryBudget& memory_;
  MemoryShare share_{memory_};
  std::unique_ptr<CompiledModel> compiled_;
  std::vector<Process> processes_;
  std::vector<Crashed> crashed_;
  std::vector<std::uint32_t> crashed_ordinal_;  // per op: its index in crashed_, or kNotCrashed
  std::vector<std::uint32_t> process_of_;       // per op: its index in processes_
  std::vector<bool> observer_;
  std::vector<std::uint64_t> crashed_placed_;
  std::size_t required_left_ = 0;
  std::vector<std::uint32_t> order_;
  std::vector<Frame> frames_;
  std::vector<std::string> pending_keys_;  // the configuration of each frame
  std::unordered_set<std::string> failed_;
  std::int64_t memo_bytes_ = 0;
  std::vector<StateId> next_;
  std::vector<std::uint32_t> next_ops_;  // each process's next completed op, for ranking moves
  RegisterFacts registers_;              // enabled for the register family without appends
  std::vector<std::uint32_t> found_;
  bool started_ = false;
  bool done_ = false;
  bool out_of_memory_ = false;
  std::uint64_t steps_ = 0;
  std::uint64_t polls_ = 0;
  StopSignal::Why stop_reason_ = StopSignal::Why::none;
};

}  // namespace

std::unique_ptr<SearchEngine> make_program_order_search(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                                        const StopSignal& stop) {
  return std::make_unique<ProgramOrderSearch>(sub, model, memory, stop);
}

}  // namespace ariadne::search
