// Wing and Gong's search for a linearization with Lowe's memoization [WingGong93,
// Lowe17], the algorithm of Knossos and Porcupine, iterative and resumable.
//
// The history is a doubly linked list of call and return entries in time order.
// Scanning from the head, every call met before the first return belongs to an op
// that may be linearized next: step the model; if the op fits and the configuration
// (linearized set, state) is new, lift the op's two entries out of the list and start
// again from the head. Meeting the return of an op not yet linearized means the last
// choice was wrong: put the most recent op back and try the next candidate after it.
// A crashed op's return lies after every real event, so reaching one means every op
// that had to take effect has; crashed ops left in the list simply never happened.
//
// Refinements over the textbook version, all about crashed ops, which stay pending to
// the end of the history and so multiply the configurations:
// - The linearized set is a bitset with a Zobrist hash kept incrementally, so a cache
//   probe costs O(1) amortised instead of hashing n bits.
// - The memo table stores the completed ops of a configuration as a frontier key, not
//   as their whole bitset: the first completed op p not linearized, and the bits of
//   the ops after it up to the last whose call comes before p's return. Every
//   completed op before p is linearized (p is the first that is not), and none after
//   that window can be: an op is linearized only when the scan from the head reaches
//   its call, and the scan stops at the return of the first op not linearized, p's
//   return or one before it. So the key names the set exactly, and two sets are equal
//   exactly when their keys are. A key is a word or two where the bitset of a
//   2*10^4-op history is 313 words: a probe compares, and an entry stores, that much
//   less (the table's bytes per configuration fall from 2.5 KB to about 40).
// - Subsumption in the memo table (see config_cache.hpp): having used up more crashed
//   ops to reach the same point is never better.
// - A configuration is memoised when the search leaves it, not when it enters it:
//   the ones on the stack are looked at directly (an_ancestor_subsumes), so the table
//   answers as one filled on entry would, and a search that never backtracks (most
//   small histories') stores nothing.
// - A crashed op whose step leaves the state unchanged is not linearized: doing so
//   would only use it up.
// - Symmetry of crashed ops: two crashed ops with the same operation (f, value, key)
//   that are both pending are interchangeable, since their returns are both at the end
//   of time. Only the earliest-invoked unlinearized member of such a class is tried,
//   which prunes the k! orders of k identical crashed writes (common in etcd
//   histories, where the values are 0-4) without losing any linearization. So the
//   crashed ops linearized are, class by class, the first members: the memo table
//   keys them by each class's count (ConfigCache::use_counts), a few words where a
//   bit per crashed op took 79 on a 10^5-op history with 5,000 crashed ops (where
//   counts are shorter), and the scan for crashed ops finds each class's first
//   pending member through a bitset (try_optional) instead of walking past every
//   pending one. A 10^5-op cas-register history of 40 processes with 5% crashed:
//   undecided in 60 s before both, 3.4 s after (docs/frontier.md).
//
// Symmetry of completed ops: B need not be tried while a twin A (the same status, f,
// value and key, so the same step from every state) that was invoked before B and
// returned before B is not linearized yet. Say some order from this configuration
// begins with B, A coming later. Exchange them: the states along the order are the
// same, since the two step alike. A may go first: B being enabled, every op that
// returned before B's call is linearized, and A, invoked earlier, needs nothing
// more. B may go where A was: every op between them in the order is one the order
// put before A, so it was invoked before A returned, hence before B returned, and
// needed not follow B. So an order beginning with A exists, and the search tries A.
// On a kv key with many writers appending the same few tokens, this prunes the
// orders of concurrent twin appends and puts, which the memo table cannot merge
// (their linearized sets differ). Only twins overlapping B's call can be pending when
// B is enabled: those are listed once, at most kMaxTwinsAhead per op, at the same
// dead end as the observers (a search that hardly backtracks never needs them).
//
// Required first, whenever the history has crashed ops: at each configuration, one
// scan tries the required ops up to the first blocking return, and only then a
// second scan the optional ones up to the same return. The two scans together try
// exactly the candidates of the one plain scan, so the search space and the answer
// are the same; only the order in which a witness is looked for changes, and with it
// how soon a linearizable history is decided. The plain order (call order, as
// Knossos and Porcupine scan) tries a crashed op invoked long ago before every op
// that must take effect, at every step: on histories where a fifth of the ops
// crashed it builds orders that use crashed ops nobody needed and backtracks out of
// them (a 5,000-op cas-register history of 40 processes and 3 values: undecided
// after 10 s; required first, 14 ms). Crashed ops are used only where the required
// ones are stuck, which is where some op needs one. For the relaxed histories of
// core questions, where nearly every op is optional, the difference is larger still.
// (The second scan finds its candidates a class of crashed twins at a time, see
// above, and tries them in call order, as the list would offer them: tried a class
// after another, a 5,000-op kv history of 5 processes with a fifth crashed went from
// 1.4 s to undecided.)
// make_wgl_in_call_order keeps the plain order, for the differential tests.
//
// Observers: a required op that can never change the state (a read; models::
// observes_only) and is enabled and legal at a configuration is taken at once, as
// the configuration's only move. If any order from the configuration exists, one
// begins with it: move the observer from its place in that order to the front. It
// is legal at the front (it is here), leaves the state as it was, so every op after
// it steps from the same state as before, and it left no change behind where it
// was. Real time allows it: every op whose return precedes the observer's call is
// linearized already (the scan met its call before any pending return), and ops it
// must precede come later anyway. Crashed ops change nothing in the argument. So if
// the observer fails, the configuration fails, and the other candidates need not be
// tried: on read-heavy histories with many processes that is most of the branching.
// The same reasoning as the program-order search's reads placed at once
// (program_order_search.cpp), there under program order.
//
// Lookahead: a configuration fails at once when a required op G cannot become legal
// before its return, whatever comes next. Every order from here puts G
// after some sequence σ of ops not yet linearized, each invoked before G returns (an
// op invoked after G's return must follow G). If σ holds no op that resets (the
// model's CompiledModel::resets: a put, a write, landing on one state from any), the
// state G meets was reached from this one by steps that do not reset, and the model's
// may_become_legal(state, G) must hold; if it does, let R be σ's last reset: the state
// G meets was reached from the state R lands on, and may_become_legal must hold
// there. So when neither this state nor the landing state of any reset not yet
// linearized and invoked before G's return can make G legal, no order exists. Crashed
// ops are in the argument like the others (a crashed reset counts as one that may
// rescue G; a crashed op that does not reset is one more step that does not reset),
// and twins change nothing: every member of a class is counted. On a kv key with many
// writers, the wrong orders of concurrent appends die here at the first append that
// no pending get's string allows, instead of after every order of the rest; on a
// register, a read whose value no pending write can give. Nothing in the argument
// needs G to be enabled: the ops looked at are those invoked before the first
// kLookaheadReturns returns of pending ops, which catches a get whose appends were
// used up in wrong places before its call comes (on a one-key kv history of 20
// writers, half the backtracking went). Real time narrows the candidates: a pending
// required reset R' that returns before G is invoked must come between now and G, so
// G cannot meet this state's lineage, nor that of a reset R that returns before R' is
// invoked (R precedes R', which lands after it). Worked out from the same dead end as
// the observers; and once, at the first dead end, from the root configuration over
// the whole history, which refutes a stale read (a get of what a put wrote, after a
// later put returned) at once, where the search would otherwise try every way to
// reach it: with a fifth of the ops crashed, they are beyond counting (a 1,000-op kv
// history of 5 processes: undecided in 60 s before, 10 ms after).
//
// Forgetting: once the state is one nothing ahead can read, it is replaced by one
// state that stands for all such (CompiledModel::forget), so that configurations
// differing only in it are one. Let P be the pending required reset (a put) that
// returns first. Every op invoked after P's return must follow P, so until the
// search steps a reset, it steps only crashed ops and the pending required ops
// invoked before P's return: the window. If no get of the window starts with a kv
// key's string, no get can be legal until a put (appends only lengthen it), appends
// and crashed ops are legal from any string, and a put lands where it lands from
// any: every continuation from this configuration is legal exactly when it is legal
// from the forgotten state, and reaches the same state at its first reset. Without
// a pending required reset nothing bounds the window, and nothing is forgotten. A
// crashed op (a crashed append) stepping the forgotten state to itself is not
// linearized, as above: the configuration without it subsumes the one with it. On a
// one-key kv history of 20 writers, appends that a later put erases unread can go
// anywhere in their intervals, and their orders made distinct strings, each a
// configuration of its own, though no get would ever tell them apart: forgotten,
// they are one, and 5,000 ops with 5% crashed went from 11 s to 0.5 s.
#include "base/hash.hpp"
#include "base/limits_ledger.hpp"
#include "models/semantics.hpp"
#include "search/config_cache.hpp"
#include "search/search_engine.hpp"
#include "search/twin_classes.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <unordered_map>
#include <utility>

namespace ariadne::search {

namespace {

constexpr std::int32_t kNone = -1;
constexpr std::uint32_t kNoClass = 0xffffffffu;
constexpr std::uint64_t kMaxEvictions = 16;
// Dead ends met before observers are worked out (see backtrack()).
constexpr std::uint32_t kDeadEndsBeforeObservers = 4096;
// Twins invoked and returned before an op, kept per op (see "Symmetry of completed ops").
constexpr std::size_t kMaxTwinsAhead = 8;
// Stack frames reserved up front (see the constructor).
constexpr std::size_t kReservedFrames = 1024;
// Histories up to this many ops try merge_points() before the counting sort; a larger
// one's many processes would mostly send it to the counting sort after all.
constexpr std::size_t kMergedPoints = 4096;
// The lookahead looks at required ops invoked before this many returns of pending
// ops, not only at the enabled ones (see "Lookahead").
constexpr std::uint32_t kLookaheadReturns = 8;
// Windows longer than this are not worked out for forgetting (see "Forgetting").
constexpr std::uint32_t kMaxForgetWindow = 1024;
// stuck_ahead(): the may_become_legal calls one walk may make on resets' landings.
constexpr std::uint64_t kMaxLandingChecks = std::uint64_t{1} << 22;
// awaited_after_ of an op not awaited (kNone is a value it takes).
constexpr std::int32_t kNotAwaited = -2;

struct Node {
  std::int32_t prev = kNone;
  std::int32_t next = kNone;
  // The list of required ops' entries alone (the head's too), which the scan for
  // required ops walks: it never meets a crashed op, however many are pending.
  std::int32_t required_prev = kNone;
  std::int32_t required_next = kNone;
  std::uint32_t op = 0;
  std::int32_t match = kNone;  // a call's return node
  bool is_call = false;
  bool required = false;  // its op must take effect: the entry is in both lists
};

struct Frame {
  std::int32_t call_node;
  StateId prev_state;
  std::uint32_t succ_begin;  // successors of this step in succ_pool_
  std::uint32_t succ_end;
  std::uint32_t succ_next;  // the next successor to try on backtracking
  // An observer taken at once (see "Observers" above): when it fails, the
  // configuration it was taken in fails with it.
  bool forced = false;
};

class Wgl final : public SegmentSearch {
 public:
  Wgl(const SubHistory& sub, const Model& model, MemoryBudget& memory, const StopSignal& stop)
      : Wgl(sub, SegmentStart{model.compile(sub.ops), {}, std::nullopt, std::make_shared<ObserverTable>(sub, model)},
            memory, stop) {}

  // make_wgl_in_call_order: every candidate in call order, crashed or not.
  void scan_in_call_order() {
    required_first_ = false;
    cursor_ = first_entry();
  }

  // make_wgl_eager: observers and lookahead from the first configuration.
  void load_eagerly() {
    loaded_ = true;
    if (observer_table_) load_observers();
    build_twins_ahead();
    lookahead_ = load_lookahead();
    // A model that forgets nothing, not even with nothing ahead: no windows to work out.
    forgetting_ = compiled_->forget(state_, {}).has_value();
  }

  // refuted_at_root(): the lookahead once from the root, as at the first dead end.
  bool stuck_at_root() {
    root_checked_ = true;
    // Without a reset there is no stale read to find: no tables built for nothing.
    return load_resets() && load_lookahead() && stuck_ahead(/*root=*/true);
  }

  // make_wgl_with_colliding_hashes: no op changes the hash of the completed set.
  void make_hashes_collide() { std::fill(zobrist_.begin(), zobrist_.end(), 0); }

  Wgl(const SubHistory& sub, SegmentStart start, MemoryBudget& memory, const StopSignal& stop)
      : sub_(sub),
        memory_(memory),
        stop_(stop),
        compiled_(std::move(start.compiled)),
        model_index_(std::move(start.model_index)),
        required_count_(count_required(sub)),
        required_words_((required_count_ + 63) / 64),
        bits_(required_words_ + (sub.ops.size() - required_count_ + 63) / 64, 0),
        cache_(required_words_, bits_.size() - required_words_) {
    // Without crashed ops there is nothing to put second, and a second scan at every
    // dead end would only cost time.
    required_first_ = required_count_ < sub.ops.size();
    build_list();
    build_symmetry_classes();
    count_crashed_by_class();
    observer_table_ = std::move(start.observers);
    // Completed ops take the first words of the bitset, crashed ops the rest; only the
    // completed ones feed the hash, so subsuming configurations share a probe run.
    // Zobrist keys: splitmix64's stream (base/hash.hpp), a few instructions a key where
    // seeding a Mersenne twister cost more than a small history's whole search.
    std::uint64_t zobrist_seed = 0x5eed;
    zobrist_.resize(sub.ops.size(), 0);
    bit_of_.resize(sub.ops.size());
    std::uint32_t next_required = 0, next_crashed = static_cast<std::uint32_t>(required_words_ * 64);
    for (std::uint32_t i = 0; i < sub.ops.size(); ++i) {
      if (sub.ops[i]->must_take_effect()) {
        bit_of_[i] = next_required++;
        zobrist_seed += base::kGoldenGamma;
        zobrist_[i] = base::splitmix64(zobrist_seed);
      } else {
        bit_of_[i] = next_crashed++;
      }
    }
    required_left_ = next_required;
    build_windows();
    state_ = start.initial ? *start.initial : compiled_->initial();
    root_state_ = state_;
    cursor_ = first_entry();
    // A linearizable history's stack holds every op at the end: room for a small one's
    // at once, not a doubling at every power of two (a large one's grows as needed).
    stack_.reserve(std::min<std::size_t>(sub.ops.size(), kReservedFrames));
    succ_pool_.reserve(std::min<std::size_t>(2 * sub.ops.size(), 2 * kReservedFrames));
    account_memory();
  }

  Engine id() const override { return Engine::wgl; }
  StateId final_state() const override { return state_; }
  std::uint64_t steps() const override { return steps_; }
  StopSignal::Why stop_reason() const override { return stop_reason_; }

  std::vector<std::uint32_t> linearization() const override {
    std::vector<std::uint32_t> order;
    order.reserve(stack_.size());
    for (const Frame& f : stack_) order.push_back(nodes_[f.call_node].op);
    return order;
  }

  Outcome run(std::uint64_t step_budget) override {
    if (finished_) return outcome_;
    // Saturating: a resumed search given UINT64_MAX (the race) must not wrap around.
    const std::uint64_t step_limit = step_budget > UINT64_MAX - steps_ ? UINT64_MAX : steps_ + step_budget;
    std::uint32_t iterations = 0;
    while (true) {
      if (required_left_ == 0) return finish(Outcome::linearizable);
      if ((++iterations & 1023) == 0) {
        if (auto why = stop_.check(); why != StopSignal::Why::none) {
          stop_reason_ = why;
          return Outcome::stopped;  // resumable: nothing is lost
        }
        // Eviction keeps the search correct, but a table emptied over and over means the
        // limit is far too small for this history: say so rather than crawl on.
        if (!account_memory() || cache_.evictions() > kMaxEvictions) return finish(Outcome::out_of_memory);
        if (steps_ >= step_limit) return Outcome::undecided;
      }
      if (fresh_config_) {
        fresh_config_ = false;
        const Observed observed = take_observer();
        if (observed == Observed::taken) continue;
        if (observed == Observed::dead || (lookahead_ && stuck_ahead())) {
          if (!backtrack()) return finish(Outcome::not_linearizable);
          continue;
        }
      }
      if (optional_phase_) {
        if (!try_optional()) {
          if (!backtrack()) return finish(Outcome::not_linearizable);
        }
        continue;
      }
      if (cursor_ == kNone) return finish(Outcome::linearizable);
      const Node& node = nodes_[cursor_];
      const Operation& op = *sub_.ops[node.op];
      if (node.is_call) {
        // In call order, optional ones come in the same scan; else try_optional().
        if (!is_first_of_class(node.op) || twin_goes_first(node.op)) {
          cursor_ = after(cursor_);
          continue;
        }
        auto begin = static_cast<std::uint32_t>(succ_pool_.size());
        compiled_->step(state_, model_index_.empty() ? node.op : model_index_[node.op], succ_pool_);
        ++steps_;
        if (!try_successors(cursor_, begin, static_cast<std::uint32_t>(succ_pool_.size()), begin)) {
          succ_pool_.resize(begin);
          cursor_ = after(cursor_);
        }
        continue;
      }
      if (!op.must_take_effect()) return finish(Outcome::linearizable);
      if (required_first_) {
        // The required ops are stuck here, at this return: now the optional ones.
        optional_phase_ = true;
        optional_limit_ = cursor_;
        optional_after_ = kNone;
        continue;
      }
      if (!backtrack()) return finish(Outcome::not_linearizable);
    }
  }

 private:
  Outcome finish(Outcome o) {
    finished_ = true;
    outcome_ = o;
    // The answer is known: give the memo table back now rather than at destruction.
    cache_.clear();
    account_memory();
    return o;
  }

  struct Point {
    std::uint64_t time;
    std::uint32_t op;
    bool is_call;
  };

  // Sorts `points` by time, ties in the order they are in. Times are event positions,
  // nearly dense over a history or a partition of it, so a counting sort places them
  // in one pass where they are (measured: the sort was a tenth of a 76-op history's
  // check); sparse ones (a key's partition of a long keyed history) are sorted.
  static void sort_points(std::vector<Point>& points) {
    std::uint64_t lo = kNever;
    std::uint64_t hi = 0;
    for (const Point& p : points) {
      if (p.time == kNever) continue;
      lo = std::min(lo, p.time);
      hi = std::max(hi, p.time);
    }
    if (lo == kNever || hi - lo > 8 * points.size() + 64) {
      std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.time < b.time; });
      return;
    }
    // starts[t - lo]: where the points at time t begin; the crashed returns go last.
    std::vector<std::uint32_t> starts(hi - lo + 2, 0);
    for (const Point& p : points) ++starts[p.time == kNever ? hi - lo + 1 : p.time - lo];
    std::uint32_t at = 0;
    for (std::uint32_t& start : starts) at += std::exchange(start, at);
    std::vector<Point> sorted(points.size());
    for (const Point& p : points) sorted[starts[p.time == kNever ? hi - lo + 1 : p.time - lo]++] = p;
    points.swap(sorted);
  }

  // The points of ops whose calls are in index order (a history's, or one partition's),
  // sorted as sort_points() sorts them: the returns, nearly in order already, by an
  // insertion sort, then merged with the calls. False when the calls are out of order
  // or the returns too far out of it; the caller clears `points` and sorts them then.
  // For a small history a sixth of WGL's set-up went to the counting sort's passes over
  // every event position in its span, measured.
  bool merge_points(std::vector<Point>& points) const {
    const std::size_t n = sub_.ops.size();
    for (std::size_t i = 1; i < n; ++i) {
      if (sub_.ops[i]->call < sub_.ops[i - 1]->call) return false;
    }
    // Crashed returns, all at kNever, go last in index order, as a stable sort puts them.
    std::vector<std::uint32_t> by_ret(n);
    std::size_t sorted = 0, shifts = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint64_t ret = sub_.ops[i]->ret;
      if (ret == kNever) continue;
      std::size_t k = sorted++;
      // Strictly later returns move up: equal ones keep index order, as a stable sort.
      for (; k > 0 && sub_.ops[by_ret[k - 1]]->ret > ret; --k) by_ret[k] = by_ret[k - 1];
      by_ret[k] = i;
      shifts += sorted - 1 - k;
      if (shifts > 8 * n + 64) return false;
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (sub_.ops[i]->ret == kNever) by_ret[sorted++] = i;
    }
    // Ties between a call and a return keep the order the points are made in, an op's
    // call (at 2i) before its return (at 2j + 1): the call first when i <= j. Each call
    // comes before its own op's return, so none is left when the returns are (were one,
    // the sort would place it).
    std::uint32_t call = 0;
    for (const std::uint32_t j : by_ret) {
      const std::uint64_t ret = sub_.ops[j]->ret;
      for (; call < n; ++call) {
        const std::uint64_t t = sub_.ops[call]->call;
        if (t > ret || (t == ret && call > j)) break;
        points.push_back({t, call, true});
      }
      points.push_back({ret, j, false});
    }
    return call == n;
  }

  void build_list() {
    const std::size_t n = sub_.ops.size();
    std::vector<Point> points;
    points.reserve(2 * n);
    if (n > kMergedPoints || !merge_points(points)) {
      points.clear();
      for (std::uint32_t i = 0; i < n; ++i) {
        points.push_back({sub_.ops[i]->call, i, true});
        points.push_back({sub_.ops[i]->ret, i, false});
      }
      // Crashed returns all sit at kNever; their relative order does not matter. Ties
      // keep the order the points were made in (an op's call before its return, ops
      // in index order), as a stable sort would.
      sort_points(points);
    }
    nodes_.resize(2 * n + 1);
    head_ = static_cast<std::int32_t>(2 * n);
    std::vector<std::int32_t>& call_node = call_entry_;
    call_node.assign(n, kNone);
    std::vector<std::int32_t> ret_node(n);
    std::int32_t prev = head_;
    std::int32_t required_prev = head_;
    for (std::size_t k = 0; k < points.size(); ++k) {
      auto idx = static_cast<std::int32_t>(k);
      nodes_[idx].op = points[k].op;
      nodes_[idx].is_call = points[k].is_call;
      nodes_[idx].prev = prev;
      nodes_[prev].next = idx;
      prev = idx;
      nodes_[idx].required = sub_.ops[points[k].op]->must_take_effect();
      if (nodes_[idx].required) {
        nodes_[idx].required_prev = required_prev;
        nodes_[required_prev].required_next = idx;
        required_prev = idx;
      }
      (points[k].is_call ? call_node : ret_node)[points[k].op] = idx;
    }
    nodes_[prev].next = kNone;
    nodes_[required_prev].required_next = kNone;
    for (std::size_t i = 0; i < n; ++i) nodes_[call_node[i]].match = ret_node[i];
  }

  // window_end_[j]: one past the last completed op (numbered as its bit) whose call
  // comes before the return of completed op j, in list order; the frontier key's
  // window for j is [j + 1, window_end_[j]).
  void build_windows() {
    // One walk of the list in time order: at each completed op's return, the largest
    // bit among the completed ops called so far ends its window.
    window_end_.assign(required_left_ + 1, 0);
    std::uint32_t largest_called = 0;
    for (std::int32_t i = nodes_[head_].next; i != kNone; i = nodes_[i].next) {
      if (!nodes_[i].required) continue;  // the node's copy: no trip to the op itself
      const std::uint32_t op = nodes_[i].op;
      const std::uint32_t bit = bit_of_[op];
      if (nodes_[i].is_call) {
        largest_called = std::max(largest_called, bit);
      } else {
        window_end_[bit] = std::max(bit, largest_called) + 1;
      }
    }
    window_end_[required_left_] = static_cast<std::uint32_t>(required_left_);
    key_.assign(1 + required_words_ + 1, 0);
  }

  // The frontier key of the completed ops linearized now (see the header) in key_;
  // returns its length in words.
  std::size_t frontier_key() {
    // The first completed op not linearized: on from where it was last seen, a word
    // at a time (bits past the completed ops in the last word are clear).
    const std::uint32_t total = required_left_total();
    while (frontier_ < total) {
      const std::uint64_t clear = ~bits_[frontier_ >> 6] >> (frontier_ & 63);
      if (clear != 0) {
        frontier_ += static_cast<std::uint32_t>(std::countr_zero(clear));
        break;
      }
      frontier_ = (frontier_ | 63) + 1;
    }
    frontier_ = std::min(frontier_, total);
    const std::uint32_t p = frontier_;
    key_[0] = p;
    if (p >= total) return 1;
    const std::uint32_t first = p + 1, end = window_end_[p];
    std::size_t words = 0;
    for (std::uint32_t b = first; b < end; b += 64) {
      const std::uint32_t w = b >> 6, shift = b & 63;
      std::uint64_t word = bits_[w] >> shift;
      if (shift != 0 && w + 1 < required_words_) word |= bits_[w + 1] << (64 - shift);
      if (end - b < 64) word &= (std::uint64_t{1} << (end - b)) - 1;
      key_[1 + words++] = word;
    }
    return 1 + words;
  }

  std::uint32_t required_left_total() const { return static_cast<std::uint32_t>(window_end_.size() - 1); }

  void build_symmetry_classes() {
    class_of_.assign(sub_.ops.size(), kNoClass);
    for (std::uint32_t i = 0; i < sub_.ops.size(); ++i) {
      if (!sub_.ops[i]->must_take_effect()) class_of_[i] = twins_.add(*sub_.ops[i], i);  // ascending call order
    }
    twins_.group();
    class_linearized_.assign(twins_.size(), 0);
    first_pending_.assign((nodes_.size() + 63) / 64, 0);
    for (std::uint32_t c = 0; c < twins_.size(); ++c) mark_first_pending(c, true);
  }

  // twins_ahead_[twins_ahead_begin_[op] ..]: the completed twins invoked before op and
  // returning between its call and its return (see "Symmetry of completed ops").
  void build_twins_ahead() {
    const std::vector<std::uint32_t>& class_of = step_classes();
    std::vector<std::uint32_t> required;
    for (std::uint32_t i = 0; i < sub_.ops.size(); ++i) {
      if (sub_.ops[i]->must_take_effect()) required.push_back(i);
    }
    // In call order, each class's members still open at the current call.
    std::sort(required.begin(), required.end(),
              [&](std::uint32_t a, std::uint32_t b) { return sub_.ops[a]->call < sub_.ops[b]->call; });
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> open;
    twins_ahead_begin_.assign(sub_.ops.size() + 1, 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (op, twin ahead)
    for (const std::uint32_t b : required) {
      const Operation& op = *sub_.ops[b];
      std::vector<std::uint32_t>& members = open[class_of[b]];
      std::erase_if(members, [&](std::uint32_t a) { return sub_.ops[a]->ret < op.call; });
      std::size_t kept = 0;
      for (const std::uint32_t a : members) {
        if (sub_.ops[a]->ret < op.ret && kept++ < kMaxTwinsAhead) pairs.emplace_back(b, a);
      }
      members.push_back(b);
    }
    std::sort(pairs.begin(), pairs.end());
    for (const auto& [b, a] : pairs) ++twins_ahead_begin_[b + 1];
    for (std::size_t i = 1; i < twins_ahead_begin_.size(); ++i) twins_ahead_begin_[i] += twins_ahead_begin_[i - 1];
    twins_ahead_.reserve(pairs.size());
    for (const auto& [b, a] : pairs) twins_ahead_.push_back(a);
  }

  // A twin invoked and returned before op is not linearized: try that one instead.
  bool twin_goes_first(std::uint32_t op) const {
    if (twins_ahead_begin_.empty()) return false;  // not worked out yet
    for (std::uint32_t k = twins_ahead_begin_[op]; k < twins_ahead_begin_[op + 1]; ++k) {
      const std::uint32_t bit = bit_of_[twins_ahead_[k]];
      if (((bits_[bit >> 6] >> (bit & 63)) & 1) == 0) return true;
    }
    return false;
  }

  // The memo table's crashed part as each class's count of linearized twins (see
  // ConfigCache::use_counts): twins are linearized in member order, so the counts
  // name the set. A history of 5,000 crashed ops in 30 classes: 8 words a
  // configuration where the bitset took 79, stored and compared at every probe.
  void count_crashed_by_class() {
    if (twins_.size() == 0) return;
    for (std::uint32_t c = 0; c < twins_.size(); ++c) {
      if (twins_.members(c).size() > 0xffff) return;  // past a lane: the bitset
    }
    // Counts only where they are shorter: in a core question's relaxed history nearly
    // every op is crashed, most in classes of their own, and a bit each is less.
    const std::size_t count_words = (twins_.size() + 3) / 4;
    if (count_words >= bits_.size() - required_words_) return;
    class_counts_.assign(count_words, 0);
    cache_.use_counts(class_counts_.size());
  }

  // One more (up) or one fewer of class c linearized.
  void count_class(std::uint32_t c, bool up) {
    mark_first_pending(c, false);
    class_linearized_[c] = up ? class_linearized_[c] + 1 : class_linearized_[c] - 1;
    mark_first_pending(c, true);
    if (class_counts_.empty()) return;
    const std::uint64_t lane = std::uint64_t{1} << (16 * (c % 4));
    class_counts_[c / 4] = up ? class_counts_[c / 4] + lane : class_counts_[c / 4] - lane;
  }

  const std::uint64_t* crashed_key() const {
    return class_counts_.empty() ? bits_.data() + required_words_ : class_counts_.data();
  }

  bool is_first_of_class(std::uint32_t op) const {
    std::uint32_t cls = class_of_[op];
    return cls == kNoClass || twins_.members(cls)[class_linearized_[cls]] == op;
  }

  static std::size_t count_required(const SubHistory& sub) {
    std::size_t n = 0;
    for (const Operation* op : sub.ops) n += op->must_take_effect() ? 1 : 0;
    return n;
  }

  void toggle(std::uint32_t op) {
    const std::uint32_t bit = bit_of_[op];
    bits_[bit >> 6] ^= std::uint64_t{1} << (bit & 63);
    bits_hash_ ^= zobrist_[op];
    // A crashed op's class count changes with its bit, before the configuration it
    // belongs to is looked up (the count is the memo's key for it).
    if (class_of_[op] != kNoClass) count_class(class_of_[op], ((bits_[bit >> 6] >> (bit & 63)) & 1) != 0);
    // A completed op put back before the frontier is the new frontier; one linearized
    // at it moves the frontier on when the next key is made.
    if (bit < frontier_) frontier_ = bit;
  }

  std::uint64_t config_hash(StateId s) const { return ConfigCache::hash(bits_hash_, s); }

  void load_observers() {
    // The table may be this search's alone: it goes only once read.
    const std::shared_ptr<ObserverTable> table = std::move(observer_table_);
    const std::vector<bool>& flags = table->flags();
    if (flags.empty()) return;
    observer_.assign(sub_.ops.size(), false);
    for (std::uint32_t i = 0; i < sub_.ops.size(); ++i) {
      const std::uint32_t at = model_index_.empty() ? i : model_index_[i];
      observer_[i] = sub_.ops[i]->must_take_effect() && flags[at];
      any_observer_ = any_observer_ || observer_[i];
    }
  }

  enum class Observed : std::uint8_t { none, taken, dead };

  std::uint32_t model_op(std::uint32_t op) const { return model_index_.empty() ? op : model_index_[op]; }

  // The lookahead's tables; false when the model claims nothing it could use.
  bool load_lookahead() {
    if (!awaited_after_.empty()) return lookahead_capable_;
    load_resets();
    reset_state_.assign(sub_.ops.size(), std::nullopt);
    awaited_after_.assign(sub_.ops.size(), kNotAwaited);
    std::uint32_t classes = 0;
    for (const std::uint32_t c : step_classes()) classes = std::max(classes, c + 1);
    available_at_.assign(classes, 0);
    // Each class of crashed twins by the list entries of its members' calls: a class's
    // pending members are its last ones (twins are linearized in member order), so
    // how many are pending before a return is a difference of two counts.
    class_calls_.assign(twins_.size(), {});
    for (std::uint32_t c = 0; c < twins_.size(); ++c) {
      for (const std::uint32_t member : twins_.members(c)) class_calls_[c].push_back(call_entry_[member]);
      // Members are added in call order; were they not, the counts would be wrong.
      if (!std::is_sorted(class_calls_[c].begin(), class_calls_[c].end())) return false;
    }
    lookahead_capable_ = true;
    return true;
  }

  // The model's resets() per op; true when some op resets.
  bool load_resets() {
    if (resets_.empty()) {
      resets_.assign(sub_.ops.size(), false);
      for (std::uint32_t i = 0; i < sub_.ops.size(); ++i) {
        resets_[i] = compiled_->resets(model_op(i));
        any_reset_ = any_reset_ || resets_[i];
      }
    }
    return any_reset_;
  }

  // Per op, its class of ops that step alike from every state (the same status, f,
  // value and key), worked out once: the twins ahead's classes, and the classes by
  // which the lookahead counts the ops available (CompiledModel::Available).
  const std::vector<std::uint32_t>& step_classes() {
    if (step_class_.empty() && !sub_.ops.empty()) {
      TwinClasses by_status[3];  // ok, crashed, failed (kept as an observation)
      step_class_.resize(sub_.ops.size());
      for (std::uint32_t i = 0; i < sub_.ops.size(); ++i) {
        const auto status = static_cast<std::uint32_t>(sub_.ops[i]->status);
        step_class_[i] = by_status[status].add(*sub_.ops[i], i) * 3 + status;
      }
    }
    return step_class_;
  }

  // Forgetting (see the header): the ops the search may step, crashed ones aside,
  // before it steps a reset, once the op at call node `call` is linearized: the
  // pending required ops invoked before the first return of a pending required reset,
  // which every op invoked after it must follow. False when no such reset is pending
  // (nothing bounds the window) or the window is too long to be worth it.
  bool unread_window(std::int32_t call) {
    window_.clear();
    const std::int32_t ret = nodes_[call].match;
    std::uint32_t walked = 0;
    for (std::int32_t i = nodes_[head_].required_next; i != kNone; i = nodes_[i].required_next) {
      if (i == call || i == ret) continue;
      if (++walked > kMaxForgetWindow) return false;
      const Node& node = nodes_[i];
      if (!resets_[node.op]) {
        if (node.is_call) window_.push_back(model_op(node.op));
      } else if (!node.is_call) {
        return true;
      }
    }
    return false;
  }

  // Where reset op `op` lands: the same from every state where it is legal, so
  // worked out once, from the first state met where it is.
  std::optional<StateId> reset_state(std::uint32_t op) {
    if (reset_state_[op]) return reset_state_[op];
    auto begin = static_cast<std::uint32_t>(succ_pool_.size());
    compiled_->step(state_, model_op(op), succ_pool_);
    if (succ_pool_.size() == begin + 1) reset_state_[op] = succ_pool_[begin];
    succ_pool_.resize(begin);
    return reset_state_[op];
  }

  // Lookahead (see the header): true when some required op invoked before the first
  // `horizon` returns cannot become legal before its return, from this state or from
  // where a reset invoked before that return lands, with the ops invoked before that
  // return. One walk of the required ops' list in time order (at a return, every call
  // met is of an op invoked before it); the crashed ops, pending by the thousand in a
  // long history, are counted by class at each return that matters (crashed_ahead).
  // Real time rules candidates out: a pending required reset R' that returns before G
  // is invoked comes between now and G, so this state is no candidate, and neither is
  // a reset that returns before R' is invoked. Idle: the walk ends at the first return
  // after which nothing is awaited (the root's walk goes on to the end).
  bool stuck_ahead(bool root = false) {
    const std::uint32_t horizon = root ? UINT32_MAX : kLookaheadReturns;
    const bool stop_when_idle = !root;
    const StateId from_state = root ? root_state_ : state_;
    landings_.clear();
    clear_available();
    std::uint32_t returns_met = 0;
    std::int32_t must_follow = kNone;  // the latest call of a pending required reset returned so far
    std::uint64_t checks = 0;
    const auto stuck = [&](bool answer) {
      for (const std::uint32_t op : awaited_) awaited_after_[op] = kNotAwaited;
      awaited_.clear();
      awaited_count_ = 0;
      return answer;
    };
    for (std::int32_t i = root ? next_required_entry(-1) : nodes_[head_].required_next; i != kNone;
         i = root ? next_required_entry(i) : nodes_[i].required_next) {
      // The root's walk covers the whole history: it too answers --timeout and Ctrl-C
      // (claiming nothing; the search then stops at its next check).
      if (root && (i & 4095) == 0 && stop_.check() != StopSignal::Why::none) return stuck(false);
      const Node& node = nodes_[i];
      const std::uint32_t op = model_op(node.op);
      if (node.is_call) {
        if (resets_[node.op]) {
          const std::optional<StateId> landed = reset_state(node.op);
          if (!landed) return stuck(false);  // not legal here: claim nothing
          landings_.push_back({*landed, node.match});
          continue;
        }
        add_available(node.op);
        // Not legal now (nothing stepped first): its return will tell.
        if (returns_met < horizon && !compiled_->may_become_legal(from_state, op, {})) {
          awaited_after_[node.op] = must_follow;
          awaited_.push_back(node.op);
          ++awaited_count_;
        }
        continue;
      }
      ++returns_met;
      if (resets_[node.op]) must_follow = std::max(must_follow, call_entry_[node.op]);
      if (awaited_after_[node.op] != kNotAwaited) {
        const std::int32_t after = awaited_after_[node.op];
        awaited_after_[node.op] = kNotAwaited;
        if (!crashed_ahead(i, root)) return stuck(false);  // a crashed reset not legal here: claim nothing
        auto may_from = [&](StateId from) { return compiled_->may_become_legal(from, op, with_crashed_); };
        bool may = (after == kNone && may_from(from_state)) ||
                   std::any_of(crashed_landings_.begin(), crashed_landings_.end(), may_from);
        // The latest resets first: the likeliest to be G's last, and to end the loop.
        for (auto it = landings_.rbegin(); !may && it != landings_.rend(); ++it) {
          if (it->second < after) continue;
          if (++checks > kMaxLandingChecks) return stuck(false);  // too long a walk: claim nothing
          if ((checks & 65535) == 0 && stop_.check() != StopSignal::Why::none) return stuck(false);
          may = may_from(it->first);
        }
        if (!may) return stuck(true);
        if (--awaited_count_ == 0 && stop_when_idle) return stuck(false);
      } else if (awaited_count_ == 0 && stop_when_idle) {
        return stuck(false);
      }
    }
    return stuck(false);
  }

  // The root's walk: the entry after `i` (from the start for -1) of a required op, in
  // the list as built, whatever has been lifted out since.
  std::int32_t next_required_entry(std::int32_t i) const {
    const auto end = static_cast<std::int32_t>(nodes_.size()) - 1;  // the head is last
    for (++i; i < end; ++i) {
      if (nodes_[i].required) return i;
    }
    return kNone;
  }

  // available_: the pending required ops met by stuck_ahead(), a count per class of
  // ops that step alike (step_class_).
  void clear_available() {
    for (const std::uint32_t c : available_classes_) available_at_[c] = 0;
    available_classes_.clear();
    available_.clear();
  }

  void add_available(std::uint32_t op) {
    const std::uint32_t c = step_class_[op];
    std::uint32_t& at = available_at_[c];
    if (at == 0) {
      available_.push_back({model_op(op), 1});
      available_classes_.push_back(c);
      at = static_cast<std::uint32_t>(available_.size());
    } else {
      ++available_[at - 1].count;
    }
  }

  // with_crashed_: available_ and the crashed ops pending and invoked before list
  // entry `entry`, a class at a time; crashed_landings_: where the crashed resets among
  // them land. False when one of those resets is not legal here (nothing is claimed).
  // At the root (no crashed op linearized) when `root`.
  bool crashed_ahead(std::int32_t entry, bool root) {
    with_crashed_.assign(available_.begin(), available_.end());
    crashed_landings_.clear();
    for (std::uint32_t c = 0; c < class_calls_.size(); ++c) {
      const std::vector<std::int32_t>& calls = class_calls_[c];
      const auto invoked =
          static_cast<std::uint32_t>(std::lower_bound(calls.begin(), calls.end(), entry) - calls.begin());
      const std::uint32_t linearized = root ? 0 : class_linearized_[c];
      if (invoked <= linearized) continue;
      const std::uint32_t first_pending = twins_.members(c)[linearized];
      if (resets_[first_pending]) {
        const std::optional<StateId> landed = reset_state(first_pending);
        if (!landed) return false;
        crashed_landings_.push_back(*landed);
      } else {
        with_crashed_.push_back({model_op(first_pending), invoked - linearized});
      }
    }
    return true;
  }

  // At a configuration first reached: the first enabled observer (a required op that
  // can never change the state) that is legal here, taken at once as the only move.
  // `dead` when its configuration is one already seen: the memo table holds only
  // configurations that failed, so this one fails too.
  Observed take_observer() {
    if (!any_observer_) return Observed::none;
    for (std::int32_t i = first_entry(); i != kNone; i = after(i)) {
      const Node& node = nodes_[i];
      if (!node.is_call) return Observed::none;  // a return: the candidates end here
      if (!observer_[node.op]) continue;
      auto begin = static_cast<std::uint32_t>(succ_pool_.size());
      compiled_->step(state_, model_index_.empty() ? node.op : model_index_[node.op], succ_pool_);
      ++steps_;
      const auto end = static_cast<std::uint32_t>(succ_pool_.size());
      if (end == begin + 1 && succ_pool_[begin] == state_) {
        if (try_successors(i, begin, end, begin, /*forced=*/true)) return Observed::taken;
        succ_pool_.resize(begin);
        return Observed::dead;
      }
      succ_pool_.resize(begin);
    }
    return Observed::none;
  }

  // The optional phase of a configuration (required first): the crashed ops invoked
  // before the return the required ops are stuck at (optional_limit_), in call order
  // after the last one tried (optional_after_), as the list scan would offer them;
  // but each class of crashed twins offers only its first pending member, so they
  // are found by a bitset over list entries that marks those members (kept as the
  // counts change), not by walking past thousands of pending ones. True when one is
  // linearized; false when none is left.
  bool try_optional() {
    while (true) {
      const std::int32_t call = next_first_pending(optional_after_ + 1, optional_limit_);
      if (call == kNone) return false;
      optional_after_ = call;
      auto begin = static_cast<std::uint32_t>(succ_pool_.size());
      compiled_->step(state_, model_op(nodes_[call].op), succ_pool_);
      ++steps_;
      if (try_successors(call, begin, static_cast<std::uint32_t>(succ_pool_.size()), begin)) return true;
      succ_pool_.resize(begin);
    }
  }

  // The first call entry in [from, limit) of a class's first pending member, or kNone.
  std::int32_t next_first_pending(std::int32_t from, std::int32_t limit) const {
    if (from >= limit) return kNone;
    auto w = static_cast<std::size_t>(from) >> 6;
    std::uint64_t word = first_pending_[w] & (~std::uint64_t{0} << (from & 63));
    while (true) {
      if (word != 0) {
        const auto entry = static_cast<std::int32_t>((w << 6) + static_cast<std::size_t>(std::countr_zero(word)));
        return entry < limit ? entry : kNone;
      }
      if (++w >= first_pending_.size() || static_cast<std::int32_t>(w << 6) >= limit) return kNone;
      word = first_pending_[w];
    }
  }

  // Marks (or unmarks) the call entry of class c's first pending member.
  void mark_first_pending(std::uint32_t c, bool mark) {
    const std::span<const std::uint32_t> members = twins_.members(c);
    if (class_linearized_[c] >= members.size()) return;
    const auto entry = static_cast<std::size_t>(call_entry_[members[class_linearized_[c]]]);
    const std::uint64_t bit = std::uint64_t{1} << (entry & 63);
    first_pending_[entry >> 6] = mark ? first_pending_[entry >> 6] | bit : first_pending_[entry >> 6] & ~bit;
  }

  // The return the required ops are stuck at in this configuration: the first return
  // in the list (crashed ops' returns all come last).
  std::int32_t first_return() const {
    std::int32_t i = nodes_[head_].required_next;
    while (i != kNone && nodes_[i].is_call) i = nodes_[i].required_next;
    return i;
  }

  // Tries the successors [next, end) of the step at call node `call`; on the first whose
  // configuration is new, linearizes the op and returns true.
  bool try_successors(std::int32_t call, std::uint32_t begin, std::uint32_t end, std::uint32_t next,
                      bool forced = false) {
    const std::uint32_t op = nodes_[call].op;
    const bool optional = !sub_.ops[op]->must_take_effect();
    toggle(op);
    // Every successor shares the set of linearized ops, so one key serves them all.
    const std::size_t key_words = frontier_key();
    int window = forgetting_ ? -1 : 0;  // -1: not worked out yet; 0: none; 1: window_
    for (std::uint32_t i = next; i < end; ++i) {
      StateId s = succ_pool_[i];
      if (optional && s == state_) continue;
      if (window != 0) {
        if (window < 0) window = unread_window(call) ? 1 : 0;
        if (window > 0) {
          if (const std::optional<StateId> forgotten = compiled_->forget(s, window_)) s = *forgotten;
        }
      }
      if (cache_.contains_keyed(config_hash(s), s, key_.data(), key_words, crashed_key()) ||
          (optional && an_ancestor_subsumes(s))) {
        continue;
      }
      stack_.push_back(Frame{call, state_, begin, end, i + 1, forced});
      state_ = s;
      lift(call);
      if (sub_.ops[op]->must_take_effect()) --required_left_;
      optional_phase_ = false;  // a new configuration: required ops first
      cursor_ = first_entry();
      fresh_config_ = true;
      return true;
    }
    toggle(op);
    return false;
  }

  // Undoes the last step and tries what comes after it; false when there is no step
  // left to undo (the history is not linearizable).
  bool backtrack() {
    // The search branches after all: observers, twins ahead and the lookahead cut that
    // down. Not at the first dead end: a 2·10^4-op history of 5 processes meets a few
    // hundred, and is decided in about 8 ms, of which the observers' table would take
    // 1.5 (and the twins ahead, listed up front, cost 3 ms more, 30%).
    if (!loaded_ && ++dead_ends_ >= kDeadEndsBeforeObservers) load_eagerly();
    // At the first dead end, the lookahead once from the root, over the whole history:
    // a read that no order can satisfy (a stale read) refutes at once, where the search
    // would otherwise try every way to reach it (see "Lookahead").
    if (!root_checked_ && stuck_at_root()) return false;
    Frame f;
    do {
      if (stack_.empty()) return false;
      f = stack_.back();
      stack_.pop_back();
      undo(f);
      // An observer taken at once was its configuration's only move: that one fails too.
      if (f.forced) succ_pool_.resize(f.succ_begin);
    } while (f.forced);
    // Back in the parent configuration, in the phase that had chosen this op.
    const std::uint32_t op = nodes_[f.call_node].op;
    optional_phase_ = required_first_ && !sub_.ops[op]->must_take_effect();
    succ_pool_.resize(f.succ_end);
    if (!try_successors(f.call_node, f.succ_begin, f.succ_end, f.succ_next)) {
      succ_pool_.resize(f.succ_begin);
      if (optional_phase_) {
        optional_limit_ = first_return();
        optional_after_ = f.call_node;
      } else {
        cursor_ = after(f.call_node);
      }
    }
    return true;
  }

  // Memoised when left, not when entered. A configuration on the stack cannot be met
  // again below itself but through crashed ops alone (the ops linearized only grow),
  // and an_ancestor_subsumes() looks at those; every other one met was left before.
  // So the table answers as one filled on entry would, and a search that never
  // backtracks (most of a small history's) stores nothing.
  //
  // Whether a configuration on the stack, with the completed ops of the one about to
  // be entered by a crashed op and the state s, subsumes it: the configurations whose
  // completed ops are these are the current one and those below it through crashed
  // ops only; their crashed ops are fewer, since the ops linearized only grow. The
  // root is left out, as the table never holds it.
  bool an_ancestor_subsumes(StateId s) const {
    for (std::size_t k = stack_.size(); k-- > 0;) {
      // The configuration frame k entered: the current one, or the one frame k + 1 left.
      const StateId entered = k + 1 == stack_.size() ? state_ : stack_[k + 1].prev_state;
      if (entered == s) return true;
      if (sub_.ops[nodes_[stack_[k].call_node].op]->must_take_effect()) return false;
    }
    return false;
  }

  // Takes back the step of frame f: the configuration it entered is left for good
  // (memoised, see an_ancestor_subsumes()), the op goes back into the list and out of
  // the linearized set, the state back to what it was.
  void undo(const Frame& f) {
    const std::size_t key_words = frontier_key();
    cache_.insert_keyed(config_hash(state_), state_, key_.data(), key_words, crashed_key());
    const std::uint32_t op = nodes_[f.call_node].op;
    unlift(f.call_node);
    state_ = f.prev_state;
    toggle(op);
    if (sub_.ops[op]->must_take_effect()) ++required_left_;
  }

  // Where the scan starts in a configuration: the first required entry when the
  // required ops go first, else the first entry.
  std::int32_t first_entry() const { return after(head_); }

  // The entry the scan visits after entry i: in the required ops' list while they go
  // first (the optional ones are offered by try_optional()), else in the whole list.
  std::int32_t after(std::int32_t i) const { return required_first_ ? nodes_[i].required_next : nodes_[i].next; }

  void unlink(std::int32_t i) {
    Node& n = nodes_[i];
    nodes_[n.prev].next = n.next;
    if (n.next != kNone) nodes_[n.next].prev = n.prev;
    if (!n.required) return;
    nodes_[n.required_prev].required_next = n.required_next;
    if (n.required_next != kNone) nodes_[n.required_next].required_prev = n.required_prev;
  }

  void relink(std::int32_t i) {
    Node& n = nodes_[i];
    nodes_[n.prev].next = i;
    if (n.next != kNone) nodes_[n.next].prev = i;
    if (!n.required) return;
    nodes_[n.required_prev].required_next = i;
    if (n.required_next != kNone) nodes_[n.required_next].required_prev = i;
  }

  void lift(std::int32_t call) {
    unlink(call);
    unlink(nodes_[call].match);
  }

  void unlift(std::int32_t call) {
    relink(nodes_[call].match);
    relink(call);
  }

  // Keeps the shared budget informed and tells the memo table how far it may grow:
  // what the limit leaves after everyone else's usage. Returns false if the memory
  // that cannot be given back (interned model states) alone is over the limit.
  bool account_memory() {
    const auto fixed = static_cast<std::int64_t>(
        compiled_->memory_bytes() + nodes_.capacity() * sizeof(Node) + stack_.capacity() * sizeof(Frame) +
        succ_pool_.capacity() * sizeof(StateId) + zobrist_.capacity() * sizeof(std::uint64_t) +
        bit_of_.capacity() * sizeof(std::uint32_t) + window_end_.capacity() * sizeof(std::uint32_t) +
        key_.capacity() * sizeof(std::uint64_t) + first_pending_.capacity() * sizeof(std::uint64_t));
    const auto usage = fixed + static_cast<std::int64_t>(cache_.bytes());
    const bool ok = memory_.report(usage);
    const std::int64_t others = memory_.budget().used() - usage;
    std::int64_t room = static_cast<std::int64_t>(memory_.budget().limit()) - others - fixed;
    // With the command's resident-memory measure, the table may also grow only into
    // what the whole process has left (the table itself is part of what it measured).
    if (const Limits* limits = memory_.budget().limits();
        limits && limits->memory_limit() > 0 && base::taken_bytes(*limits) > 0) {
      room = std::min(room, static_cast<std::int64_t>(limits->memory_limit()) -
                                static_cast<std::int64_t>(base::taken_bytes(*limits)) +
                                static_cast<std::int64_t>(cache_.bytes()));
    }
    // Keep a little headroom for the growth between two checks of the budget.
    cache_.set_byte_limit(room > 0 ? static_cast<std::size_t>(room) * 7 / 8 : 0);
    if (ok || finished_) return true;
    cache_.clear();
    const auto after = fixed + static_cast<std::int64_t>(cache_.bytes());
    return memory_.report(after);
  }

  const SubHistory& sub_;
  MemoryShare memory_;
  const StopSignal& stop_;
  std::shared_ptr<CompiledModel> compiled_;
  std::vector<std::uint32_t> model_index_;  // op -> index the model was compiled for; empty: the same
  std::size_t required_count_;              // ops that must take effect
  std::size_t required_words_;
  std::vector<std::uint64_t> bits_;
  std::uint64_t bits_hash_ = 0;
  std::vector<std::uint64_t> zobrist_;
  std::vector<std::uint32_t> bit_of_;
  std::vector<std::uint32_t> window_end_;  // per completed op's bit, see build_windows
  std::uint32_t frontier_ = 0;             // no completed op before it is unlinearized
  std::vector<std::uint64_t> key_;         // the frontier key, see frontier_key
  ConfigCache cache_;
  std::vector<Node> nodes_;
  std::int32_t head_ = 0;
  std::int32_t cursor_ = kNone;
  std::vector<Frame> stack_;
  std::vector<StateId> succ_pool_;
  StateId state_ = 0;
  std::size_t required_left_ = 0;
  std::vector<std::uint32_t> class_of_;
  TwinClasses twins_;
  std::vector<std::uint32_t> class_linearized_;
  std::vector<std::uint64_t> class_counts_;       // class_linearized_ in 16-bit lanes, the memo's crashed part
  std::vector<std::uint32_t> twins_ahead_begin_;  // see build_twins_ahead
  std::vector<std::uint32_t> twins_ahead_;
  std::uint64_t steps_ = 0;
  bool finished_ = false;
  bool forgetting_ = false;
  std::vector<std::uint32_t> window_;
  bool required_first_ = false;                    // see "Required first" above
  std::shared_ptr<ObserverTable> observer_table_;  // until enough dead ends load observer_
  std::vector<bool> observer_;                     // per op: see "Observers" above
  bool any_observer_ = false;
  std::uint32_t dead_ends_ = 0;                             // until observers and the lookahead are loaded
  bool loaded_ = false;                                     // observers, twins ahead and the lookahead: see backtrack()
  bool lookahead_ = false;                                  // see "Lookahead" above
  std::vector<bool> resets_;                                // per op: the model's resets()
  bool any_reset_ = false;                                  // load_resets(): some op resets
  std::vector<std::optional<StateId>> reset_state_;         // per reset op: where it lands, once known
  std::vector<std::uint32_t> awaited_;                      // stuck_ahead(): ops not legal now, awaited at their return
  std::vector<std::int32_t> awaited_after_;                 // per op: must_follow at its call, or kNotAwaited
  std::uint32_t awaited_count_ = 0;                         // awaited_ not yet returned
  std::vector<std::pair<StateId, std::int32_t>> landings_;  // stuck_ahead(): resets met, where they land and return
  std::vector<CompiledModel::Available>
      available_;  // stuck_ahead(): the other required ops met, as the model knows them, by step class
  std::vector<std::uint32_t> available_classes_;        // their classes, in available_'s order
  std::vector<std::uint32_t> available_at_;             // per step class: 1 + its index in available_, or 0
  std::vector<std::uint32_t> step_class_;               // per op: ops of one class step alike (twins)
  bool root_checked_ = false;                           // the lookahead at the root, over the whole history
  bool lookahead_capable_ = false;                      // load_lookahead(): its tables are loaded and usable
  StateId root_state_ = 0;                              // the state the search started from
  std::vector<CompiledModel::Available> with_crashed_;  // crashed_ahead(): and the crashed ops pending
  std::vector<StateId> crashed_landings_;               // crashed_ahead(): where the crashed resets land
  std::vector<std::vector<std::int32_t>> class_calls_;  // per class of crashed twins: its members' call entries
  bool fresh_config_ = true;                            // the scan is at a configuration not scanned before
  bool optional_phase_ = false;                         // required_first_: offering optional ops (try_optional)
  std::int32_t optional_limit_ = kNone;                 // the optional phase: the return the required ops are stuck at
  std::int32_t optional_after_ = kNone;       // the optional phase: the call entry of the last crashed op tried
  std::vector<std::int32_t> call_entry_;      // per op: its call's list entry
  std::vector<std::uint64_t> first_pending_;  // per list entry: the call of a class's first pending crashed twin
  Outcome outcome_ = Outcome::undecided;
  StopSignal::Why stop_reason_ = StopSignal::Why::none;
};

}  // namespace

const std::vector<bool>& ObserverTable::flags() {
  if (known_) return flags_;
  known_ = true;
  if (const std::optional<models::Semantics> semantics = models::semantics_of(model_, sub_.ops)) {
    flags_.assign(sub_.ops.size(), false);
    for (std::uint32_t i = 0; i < sub_.ops.size(); ++i) flags_[i] = models::observes_only(semantics->ops[i]);
  }
  return flags_;
}

std::unique_ptr<SearchEngine> make_wgl(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                       const StopSignal& stop) {
  return std::make_unique<Wgl>(sub, model, memory, stop);
}

std::unique_ptr<SearchEngine> make_wgl_in_call_order(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                                     const StopSignal& stop) {
  auto wgl = std::make_unique<Wgl>(sub, model, memory, stop);
  wgl->scan_in_call_order();
  return wgl;
}

std::unique_ptr<SearchEngine> make_wgl_with_colliding_hashes(const SubHistory& sub, const Model& model,
                                                             MemoryBudget& memory, const StopSignal& stop) {
  auto wgl = std::make_unique<Wgl>(sub, model, memory, stop);
  wgl->make_hashes_collide();
  return wgl;
}

std::unique_ptr<SearchEngine> make_wgl_eager(const SubHistory& sub, const Model& model, MemoryBudget& memory,
                                             const StopSignal& stop) {
  auto wgl = std::make_unique<Wgl>(sub, model, memory, stop);
  wgl->load_eagerly();
  return wgl;
}

std::unique_ptr<SegmentSearch> make_wgl_segment(const SubHistory& sub, SegmentStart start, MemoryBudget& memory,
                                                const StopSignal& stop) {
  return std::make_unique<Wgl>(sub, std::move(start), memory, stop);
}

bool refuted_at_root(const SubHistory& sub, SegmentStart start, MemoryBudget& memory, const StopSignal& stop) {
  return Wgl(sub, std::move(start), memory, stop).stuck_at_root();
}

}  // namespace ariadne::search
