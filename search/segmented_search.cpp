// WGL over a long history in pieces, split at its quiescent points.
//
// A quiescent point is a moment at which no operation is open, crashed operations
// aside: every operation that completed before it precedes, in real time, every
// operation invoked after it. A linearization of the whole history is therefore a
// linearization of the operations before the point followed by one of those after it,
// with each crashed operation wherever it took effect (or nowhere). Searching the
// pieces one after another, each from the state the one before ended in, keeps WGL's
// memo table (whose keys are bitsets as long as the piece, not the history) and its
// backtracking local: a long, low-concurrency history, such as hours of a Jepsen run
// on one key, is decided in time about linear in its length.
//
// The piece before may have several linearizations ending in different states, and
// the one found first may not be one the next piece can continue from. Then pieces
// are merged backward, doubling (the failing piece with the one before it, then with
// the three before those ...), and searched again from the state before the earliest;
// only a failure of a run that starts at the beginning of the history is a
// refutation, or, asked once when the search has taken long, WGL's lookahead from
// the history's root (refuted_at_root: a stale read, which the pieces' runs would
// search around when crashed ops abound). The answer is always the one the whole
// history would get; splitting changes only how fast it comes. Crashed operations a
// piece did not use are carried into the next one, still pending.
#include "search/search_engine.hpp"

#include <algorithm>

namespace ariadne::search {

namespace {

// Steps, at least, and per op, after which a search not yet decided asks WGL's
// lookahead from the whole history's root once (refuted_at_root): a search this long
// is not one that goes straight through, and the walk costs what a few steps per op
// do (60-70 ms on 10^5 ops of one kv key: 55% of a search of 8 steps per op, 14% of
// one of 48).
constexpr std::uint64_t kStepsBeforeRootCheck = std::uint64_t{1} << 17;
constexpr std::uint64_t kStepsPerOpBeforeRootCheck = 64;

// Indices into sub.ops at which a piece begins, the first being 0. A separate search
// per piece costs an allocation or two, so pieces are at least min_piece_ops long
// (kMinPieceOps by default; the last piece may be shorter).
std::vector<std::uint32_t> quiescent_starts(const SubHistory& sub, std::size_t min_piece_ops) {
  std::vector<std::uint32_t> starts{0};
  std::uint64_t latest_return = 0;
  for (std::uint32_t i = 0; i < sub.ops.size(); ++i) {
    const Operation& op = *sub.ops[i];
    if (i - starts.back() >= min_piece_ops && latest_return < op.call) starts.push_back(i);
    if (op.must_take_effect()) latest_return = std::max(latest_return, op.ret);
  }
  return starts;
}

class SegmentedWgl final : public SearchEngine {
 public:
  SegmentedWgl(const SubHistory& sub, const Model& model, MemoryBudget& memory, const StopSignal& stop,
               std::vector<std::uint32_t> starts)
      : sub_(sub),
        memory_(memory),
        stop_(stop),
        starts_(std::move(starts)),
        compiled_(model.compile(sub.ops)),
        observers_(std::make_shared<ObserverTable>(sub, model)) {
    starts_.push_back(static_cast<std::uint32_t>(sub.ops.size()));
    boundaries_.resize(starts_.size());
    boundaries_[0].state = compiled_->initial();
  }

  Engine id() const override { return Engine::wgl; }
  std::uint64_t steps() const override { return finished_steps_ + (engine_ ? engine_->steps() : 0); }
  StopSignal::Why stop_reason() const override { return stop_reason_; }

  std::vector<std::uint32_t> linearization() const override {
    std::vector<std::uint32_t> order;
    for (const Piece& piece : pieces_) order.insert(order.end(), piece.order.begin(), piece.order.end());
    return order;
  }

  Outcome run(std::uint64_t step_budget) override {
    if (finished_) return outcome_;
    const std::uint64_t begun = steps();
    while (true) {
      // A piece's root is not the history's: a search that has not found its way
      // within root_check_at_ steps asks the lookahead from the whole history's root
      // (a stale read in pieces that crashed ops make hard to search refutes the
      // history at once). Not when a piece fails: pieces fail and merge in
      // linearizable histories too, and the walk would cost them half again.
      if (!root_checked_ && steps() >= root_check_at_ && refuted_from_root()) {
        return finish(Outcome::not_linearizable);
      }
      if (!engine_) start_run();
      const std::uint64_t used = steps() - begun;
      const std::uint64_t left = step_budget > used ? step_budget - used : 1;
      const std::uint64_t until_check = root_checked_ ? left : root_check_at_ - std::min(steps(), root_check_at_) + 1;
      const Outcome o = engine_->run(std::min(left, until_check));
      switch (o) {
        case Outcome::undecided:
          if (steps() - begun >= step_budget) return o;
          break;  // only the slice before the root check ended
        case Outcome::stopped: stop_reason_ = engine_->stop_reason(); return o;
        case Outcome::out_of_memory:
        case Outcome::engine_failed: return finish(o);
        case Outcome::linearizable:
          if (accept_run()) return finish(Outcome::linearizable);
          break;
        case Outcome::not_linearizable:
          if (first_ == 0) return finish(Outcome::not_linearizable);
          merge_backward();
          break;
      }
      if (steps() - begun >= step_budget) return Outcome::undecided;
    }
  }

 private:
  // Where a piece starts: the state the pieces before it ended in, and the crashed
  // operations they left unused (indices into sub_.ops, ascending).
  struct Boundary {
    StateId state = 0;
    std::vector<std::uint32_t> carried;
  };
  // Pieces first..last searched as one, and the order found for them.
  struct Piece {
    std::size_t first;
    std::size_t last;
    std::vector<std::uint32_t> order;  // indices into sub_.ops
  };

  std::size_t piece_count() const { return starts_.size() - 1; }

  // refuted_at_root(), asked once.
  bool refuted_from_root() {
    root_checked_ = true;
    return refuted_at_root(sub_, SegmentStart{compiled_, {}, std::nullopt, observers_}, memory_, stop_);
  }

  // Starts a search of pieces first_..last_ from the boundary before first_.
  void start_run() {
    const Boundary& from = boundaries_[first_];
    run_ops_ = from.carried;  // crashed ops invoked earlier: they come first in call order
    for (std::uint32_t i = starts_[first_]; i < starts_[last_ + 1]; ++i) run_ops_.push_back(i);
    run_sub_.ops.clear();
    for (std::uint32_t i : run_ops_) run_sub_.ops.push_back(sub_.ops[i]);
    engine_ = make_wgl_segment(run_sub_, SegmentStart{compiled_, run_ops_, from.state, observers_}, memory_, stop_);
  }

  // Keeps the run's order and moves on; returns true when it was the last piece.
  bool accept_run() {
    Piece piece{first_, last_, {}};
    std::vector<bool> used(run_ops_.size(), false);
    for (std::uint32_t local : engine_->linearization()) {
      used[local] = true;
      piece.order.push_back(run_ops_[local]);
    }
    Boundary& next = boundaries_[last_ + 1];
    next.state = engine_->final_state();
    next.carried.clear();
    for (std::size_t local = 0; local < run_ops_.size(); ++local) {
      if (!used[local] && !sub_.ops[run_ops_[local]]->must_take_effect()) next.carried.push_back(run_ops_[local]);
    }
    pieces_.push_back(std::move(piece));
    end_run();
    if (last_ + 1 == piece_count()) return true;
    first_ = last_ = last_ + 1;
    width_ = 1;
    return false;
  }

  // The pieces before could not be continued: search again from further back, over
  // twice as many pieces as last time.
  void merge_backward() {
    end_run();
    const std::size_t target = first_ > width_ ? first_ - width_ : 0;
    while (!pieces_.empty() && pieces_.back().last >= target) {
      first_ = pieces_.back().first;
      pieces_.pop_back();
    }
    width_ *= 2;
  }

  void end_run() {
    finished_steps_ += engine_->steps();
    engine_.reset();
  }

  Outcome finish(Outcome o) {
    if (engine_) end_run();
    finished_ = true;
    outcome_ = o;
    return o;
  }

  const SubHistory& sub_;
  MemoryBudget& memory_;
  const StopSignal& stop_;
  std::vector<std::uint32_t> starts_;  // piece k is sub_.ops[starts_[k], starts_[k+1])
  std::shared_ptr<CompiledModel> compiled_;
  std::shared_ptr<ObserverTable> observers_;  // per op of sub_
  std::vector<Boundary> boundaries_;          // boundaries_[k]: where piece k starts
  std::vector<Piece> pieces_;                 // accepted, in order, covering pieces 0..first_-1
  std::size_t first_ = 0;
  std::size_t last_ = 0;
  std::size_t width_ = 1;
  std::vector<std::uint32_t> run_ops_;  // the running search's ops, as indices into sub_.ops
  SubHistory run_sub_;
  std::unique_ptr<SegmentSearch> engine_;
  std::uint64_t finished_steps_ = 0;
  bool finished_ = false;
  bool root_checked_ = false;  // refuted_at_root() asked
  // The steps after which it is asked, if nothing asked it first.
  std::uint64_t root_check_at_ = std::max(kStepsBeforeRootCheck, sub_.ops.size() * kStepsPerOpBeforeRootCheck);
  Outcome outcome_ = Outcome::undecided;
  StopSignal::Why stop_reason_ = StopSignal::Why::none;
};

}  // namespace

std::unique_ptr<SearchEngine> make_segmented_wgl(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                                 const StopSignal& stop, std::size_t min_piece_ops) {
  std::vector<std::uint32_t> starts = quiescent_starts(sub, std::max<std::size_t>(min_piece_ops, 1));
  if (starts.size() == 1) return make_wgl(sub, model, memory, stop);
  return std::make_unique<SegmentedWgl>(sub, model, memory, stop, std::move(starts));
}

}  // namespace ariadne::search
