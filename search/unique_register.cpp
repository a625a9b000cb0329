// Gibbons and Korach's test for a register whose written values are unique
// [GibbonsKorach97: P. B. Gibbons and E. Korach, "Testing Shared Memories", SIAM J.
// Comput. 26(4), 1997], extended to compare-and-set, in O(n log n), with an explicit
// linearization or the few ops that refute it.
//
// Every value is produced once: by a write, by a cas's new value, or as the initial
// value. So each value is current for one contiguous period of any linearization,
// from its producer to the next op that changes the register, and its reads lie in
// that period. A cas(v -> w) ends v's period and starts w's at the same instant, so
// it is at once the last op of v's period and the first of w's. Values linked by cas
// form *chains*: a head value (written by a write, or the initial value), the value a
// cas makes from it, the value a cas makes from that, and so on. A chain's periods are
// contiguous, so its ops form one block of the linearization (no other value can be
// current in between) with a forced internal order: the head's write, the head's
// reads (in any order), the cas from the head, the next value's reads, the next cas,
// and so on. Without cas, a chain is GK's cluster: a write and its reads.
//
// Each chain is a GK block. Let f be the earliest completion and s the latest
// invocation among its ops (the initial value's chain: f before time). Then the
// history is linearizable iff
//   (1) inside each chain, no op completes before an op it must follow is invoked;
//   (2) no two chains A, B have f(A) < s(B) and f(B) < s(A).
// Necessary: (1) is real time against the forced order. For (2): the op completing at
// f(A) takes effect before f(A), the one invoked at s(A) after s(A), and from the
// first to the second (in the forced order, the first is never later when (1) holds
// and f(A) < s(A)) some value of A is current throughout; if s(A) < f(A), a value of A
// is current at some moment of [s(A), f(A)]. Two chains' values cannot be current at
// once, and the two spans of (2) meet. As in GK, (2) reads as zones: a chain is
// *forward* if f < s, with zone [f, s], else *backward* with zone [s, f]; (2) says no
// two forward zones meet and no backward zone lies inside a forward one (two backward
// zones never violate it). Sufficient: every op gets a point strictly inside its
// interval, so real time holds whatever the points' order. A forward chain's ops go,
// in its forced order, each at max(its call, the previous point), starting just
// before f: by (1) every point precedes its op's completion, and all lie in
// [f, s] but for the start, so forward chains' spans are disjoint by (2). A backward
// chain's ops all go to one point of its zone outside every forward span (one exists
// by (2)), ties broken by the forced order. Sorted by point, the chains come out one
// block each, in their forced order, which the register allows: each starts with its
// write (the initial value's chain first, its span starting at 0), and each cas finds
// the value its chain left.
//
// What is refuted, and with what ops (each set is refuted on its own, with every
// other op relaxed as the minimal core understands it, refute/relaxed_history.hpp):
// a read, or a cas, of a value no op produces (the op); two cas from one value (the
// two, and what forces each); values produced by a cycle of cas and no write (an op
// needing one); a violation of (1) (the two ops: the later in the forced order needs
// a value only the earlier, or the chain of cas after it, can bring, or ends the value
// the earlier needs); a violation of (2) (each chain's write, the op completing at f,
// the op invoked at s and what forces it).
//
// Crashed ops. A crashed read may never take effect, so it is dropped. A crashed
// producer (write or cas) is kept when a completed op observes its value (reads it,
// or is a cas from it), directly or through a chain of crashed cas each kept in turn:
// values being produced once, the observer needs it, so it took effect, with no
// completion. Every other crashed producer is dropped, which is always at least as
// permissive: take any linearization and remove the dropped ops; every remaining op
// that observes a value observes one made by a kept producer, and removing ops does
// not change which producer is the last before it, so every remaining op still sees
// what it saw. (A dropped cas would only have replaced v by a value nobody observes.)
//
// Declined with a reason, at once (the test never guesses): a value produced twice or
// also the initial value, an etcd failed cas (it observes "not v", which is not a
// value's period), an append, an op reading or writing the register twice, several
// keys.
#include "search/unique_values.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

namespace ariadne::search {

namespace {

using models::Effect;
using models::RegisterAccess;
constexpr std::uint32_t kNoOp = kNoUniqueOp;
constexpr std::uint32_t kNoValue = 0xffffffffu;

// A point of time strictly between event positions: pos + eighths / 8.
struct TimePoint {
  std::uint64_t pos = 0;
  std::uint8_t eighths = 0;
  auto operator<=>(const TimePoint&) const = default;
};

// What an op does to the one register.
enum class Role : std::uint8_t { ignored, anywhere, read, write, cas };

struct OpRole {
  Role role = Role::ignored;
  std::uint32_t observed = kNoValue;  // read: the value read; cas: its old value
  std::uint32_t produced = kNoValue;  // write: the value written; cas: its new value
};

struct ChainOp {
  std::uint32_t op = kNoOp;
  // Position in the forced order; the reads of one value share one.
  std::uint32_t layer = 0;
};

// A head value and the values cas make from it in turn: one GK block (see the header).
struct Chain {
  std::uint32_t head = kNoOp;  // the head's write; kNoOp: the initial value, written before time
  std::uint32_t begin = 0;     // its ops, in forced order: chain_ops_[begin, end)
  std::uint32_t end = 0;
  std::uint32_t first_return = kNoOp;  // the op completing first (kNoOp: the initial value's chain)
  std::uint32_t last_call = kNoOp;     // the op invoked last
  bool forward = false;
  TimePoint start, finish;  // forward: the span its ops' points take
  TimePoint at;             // backward: the one point of all its ops
};

class Analysis {
 public:
  Analysis(std::span<const Operation* const> ops, const models::Semantics& semantics, const UniqueStopPoll& should_stop)
      : ops_(ops), semantics_(semantics), answer_(should_stop) {}

  UniqueValueAnalysis run() {
    if (!classify()) return answer_.take();
    if (!keep_forced()) return answer_.take();
    if (!link_cas()) return answer_.take();
    if (!build_chains()) return answer_.take();
    if (!place_forward()) return answer_.take();
    if (!place_backward()) return answer_.take();
    order();
    return answer_.take();
  }

 private:
  bool stopping(std::uint32_t i) { return answer_.stopping(i); }
  bool decline(std::string why) { return answer_.decline(std::move(why)); }
  bool refute(std::vector<std::uint32_t> ops, std::string why) {
    return answer_.refute(std::move(ops), std::move(why));
  }

  std::string value_name(std::uint32_t v) const { return semantics_.value_name(v); }
  std::uint64_t call(std::uint32_t i) const { return ops_[i]->call; }
  std::uint64_t ret(std::uint32_t i) const { return ops_[i]->ret; }  // kNever if crashed
  bool kept(std::uint32_t i) const { return forcer_[i] != kNoOp; }

  // Sorts every op into a read, a write or a cas of one value (or one that observes
  // and changes nothing), drops crashed reads, and declines what the test does not
  // cover.
  bool classify() {
    if (semantics_.theory != models::Theory::registers) return decline("not a register");
    roles_.assign(ops_.size(), {});
    producer_.assign(semantics_.value_count, kNoOp);
    std::optional<std::uint32_t> key;
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (stopping(i)) return false;
      const models::OpMeaning& m = semantics_.ops[i];
      if (m.effect == Effect::none || m.effect == Effect::impossible) {
        if (!answer_.inert(i, m, anywhere_)) return false;
        if (m.effect == Effect::none && m.must_take_effect) roles_[i].role = Role::anywhere;
        continue;
      }
      if (m.effect != Effect::registers) return decline("not a register op");
      OpRole r;
      for (const RegisterAccess& access : m.accesses) {
        if (key && *key != access.key) return decline("ops on several registers");
        key = access.key;
        switch (access.kind) {
          case RegisterAccess::Kind::read:
            if (r.observed != kNoValue) return decline("an op reading the register twice");
            r.observed = access.value;
            break;
          case RegisterAccess::Kind::write:
            if (r.produced != kNoValue) return decline("an op writing the register twice");
            r.produced = access.value;
            break;
          case RegisterAccess::Kind::read_other_than: return decline("a failed compare-and-set");
          case RegisterAccess::Kind::append: return decline("an append");
        }
      }
      if (r.produced == kNoValue && r.observed == kNoValue) {
        r.role = Role::anywhere;  // no access at all: as an op of no effect
        if (m.must_take_effect) anywhere_.push_back(i);
      } else if (r.produced == kNoValue) {
        if (!m.must_take_effect) continue;  // a crashed read may never take effect
        r.role = Role::read;
      } else {
        if (producer_[r.produced] != kNoOp) return decline("value " + value_name(r.produced) + " is written twice");
        producer_[r.produced] = i;
        r.role = r.observed == kNoValue ? Role::write : Role::cas;
      }
      roles_[i] = r;
    }
    initial_ = key && *key < semantics_.initial.size() ? semantics_.initial[*key]
                                                       : (semantics_.initial.empty() ? kNoOp : semantics_.initial[0]);
    if (initial_ != kNoOp && initial_ < producer_.size() && producer_[initial_] != kNoOp) {
      return decline("value " + value_name(initial_) + " is written and is the initial value");
    }
    return true;
  }

  // Which crashed producers took effect (see the header): walking back from each
  // completed observer through the producers of what it observes, each crashed one
  // met is kept, remembering the completed op that forces it. Each producer is
  // visited once, so this is linear.
  bool keep_forced() {
    forcer_.assign(ops_.size(), kNoOp);
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      const Role role = roles_[i].role;
      if ((role == Role::read || role == Role::write || role == Role::cas) && ops_[i]->must_take_effect()) {
        forcer_[i] = i;
      }
    }
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (stopping(i)) return false;
      const Role role = roles_[i].role;
      if ((role != Role::read && role != Role::cas) || !ops_[i]->must_take_effect()) continue;
      std::uint32_t producer = producer_[roles_[i].observed];
      while (producer != kNoOp && !kept(producer)) {
        forcer_[producer] = i;
        if (roles_[producer].role != Role::cas) break;
        producer = producer_[roles_[producer].observed];
      }
    }
    return true;
  }

  // Links each value to the one kept cas from it (two cannot both take effect: the
  // first ends the value's only period), and lists each value's completed reads.
  bool link_cas() {
    successor_.assign(semantics_.value_count, kNoOp);
    read_begin_.assign(semantics_.value_count + 1, 0);
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (stopping(i)) return false;
      const OpRole& r = roles_[i];
      if (r.role == Role::read) ++read_begin_[r.observed + 1];
      if (r.role != Role::cas || !kept(i)) continue;
      const std::uint32_t other = successor_[r.observed];
      if (other != kNoOp) {
        return refute({other, forcer_[other], i, forcer_[i]},
                      "two compare-and-sets from value " + value_name(r.observed) + ", which is current only once");
      }
      successor_[r.observed] = i;
    }
    for (std::size_t v = 0; v < semantics_.value_count; ++v) read_begin_[v + 1] += read_begin_[v];
    read_ops_.resize(read_begin_.back());
    std::vector<std::uint32_t> filled(read_begin_.begin(), read_begin_.end() - 1);
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (roles_[i].role == Role::read) read_ops_[filled[roles_[i].observed]++] = i;
    }
    return true;
  }

  bool has_reads(std::uint32_t v) const { return read_begin_[v + 1] > read_begin_[v]; }

  // Walks each chain from its head, in forced order, checking condition (1) on the
  // way; then refutes what no head reaches (values only a cycle of cas produces).
  bool build_chains() {
    std::vector<bool> reached(semantics_.value_count, false);
    for (std::uint32_t v = 0; v < semantics_.value_count; ++v) {
      if (stopping(v)) return false;
      const std::uint32_t producer = producer_[v];
      if (producer == kNoOp) {
        if (!has_reads(v) && successor_[v] == kNoOp) continue;
        if (v != initial_) {
          if (has_reads(v)) return refute({read_ops_[read_begin_[v]]}, "a read of a value no op writes");
          const std::uint32_t cas = successor_[v];
          return refute({cas, forcer_[cas]}, "a compare-and-set from a value no op writes");
        }
      } else if (roles_[producer].role != Role::write || !kept(producer)) {
        continue;  // not a head: a cas's value, or a dropped crashed write's
      }
      if (!walk_chain(v, reached)) return false;
    }
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (stopping(i)) return false;
      if (roles_[i].role == Role::cas && kept(i) && !reached[roles_[i].observed]) {
        return refute({i, forcer_[i]}, "an op needing a value that only a cycle of compare-and-sets produces");
      }
    }
    return true;
  }

  bool walk_chain(std::uint32_t head_value, std::vector<bool>& reached) {
    Chain c;
    c.head = producer_[head_value];
    c.begin = static_cast<std::uint32_t>(chain_ops_.size());
    std::uint32_t layer = 0;
    if (c.head != kNoOp) chain_ops_.push_back({c.head, layer});
    // A head has no cas before it and each value has one producer, so the walk
    // cannot enter a cycle.
    for (std::uint32_t value = head_value;;) {
      reached[value] = true;
      ++layer;
      for (std::uint32_t k = read_begin_[value]; k < read_begin_[value + 1]; ++k)
        chain_ops_.push_back({read_ops_[k], layer});
      const std::uint32_t cas = successor_[value];
      if (cas == kNoOp) break;
      chain_ops_.push_back({cas, ++layer});
      value = roles_[cas].produced;
    }
    c.end = static_cast<std::uint32_t>(chain_ops_.size());

    // Condition (1): the op invoked last among the earlier layers must be invoked
    // before each op completes.
    std::uint32_t latest_before = kNoOp;    // among the layers before the current one
    std::uint32_t latest_in_layer = kNoOp;  // among the current layer's ops so far
    std::uint32_t current_layer = 0;
    for (std::uint32_t k = c.begin; k < c.end; ++k) {
      const auto [op, op_layer] = chain_ops_[k];
      if (op_layer != current_layer) {
        if (latest_in_layer != kNoOp && (latest_before == kNoOp || call(latest_in_layer) > call(latest_before))) {
          latest_before = latest_in_layer;
        }
        latest_in_layer = kNoOp;
        current_layer = op_layer;
      }
      if (latest_before != kNoOp && call(latest_before) > ret(op)) {
        const bool read_of_write =
            roles_[op].role == Role::read && roles_[latest_before].produced == roles_[op].observed;
        return refute({latest_before, op}, read_of_write ? "a read that completed before its value's write was invoked"
                                                         : "an op that completed before the invocation of one it "
                                                           "must follow (compare-and-sets chain their values)");
      }
      if (latest_in_layer == kNoOp || call(op) > call(latest_in_layer)) latest_in_layer = op;
      if (c.first_return == kNoOp || ret(op) < ret(c.first_return)) c.first_return = op;
      if (c.last_call == kNoOp || call(op) > call(c.last_call)) c.last_call = op;
    }
    // The initial value's chain is current from before every op: it completes an op
    // first, so it is forward whenever it has an op.
    if (c.head == kNoOp) c.first_return = kNoOp;
    c.forward = c.head == kNoOp || ret(c.first_return) < call(c.last_call);
    chains_.push_back(c);
    return true;
  }

  std::uint64_t f(const Chain& c) const { return c.first_return == kNoOp ? 0 : ret(c.first_return); }
  std::uint64_t s(const Chain& c) const { return call(c.last_call); }
  // The ops that fix a chain's zone: the op invoked at s may be a crashed producer,
  // taking effect only because its forcer does.
  std::vector<std::uint32_t> defining(const Chain& c) const {
    return {c.head, c.first_return, c.last_call, forcer_[c.last_call]};
  }

  // Forward zones: their spans, which must not meet (condition 2).
  bool place_forward() {
    for (std::uint32_t k = 0; k < chains_.size(); ++k) {
      Chain& c = chains_[k];
      if (!c.forward) continue;
      c.start = c.head == kNoOp ? TimePoint{0, 0} : TimePoint{f(c) - 1, 4};
      c.finish = TimePoint{s(c), 2};
      forward_.push_back(k);
    }
    std::sort(forward_.begin(), forward_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return chains_[a].start < chains_[b].start; });
    for (std::size_t k = 1; k < forward_.size(); ++k) {
      const Chain& before = chains_[forward_[k - 1]];
      const Chain& after = chains_[forward_[k]];
      if (!(before.finish < after.start)) {
        std::vector<std::uint32_t> ops = defining(before);
        for (const std::uint32_t i : defining(after)) ops.push_back(i);
        return refute(std::move(ops), "two values that must each be current over overlapping spans of time");
      }
    }
    return true;
  }

  // Backward zones: a point of the zone outside every forward span (condition 2).
  bool place_backward() {
    for (Chain& c : chains_) {
      if (c.forward) continue;
      TimePoint at{s(c), 2};
      const auto after = std::upper_bound(forward_.begin(), forward_.end(), at,
                                          [&](const TimePoint& p, std::uint32_t k) { return p < chains_[k].start; });
      std::optional<std::uint32_t> around;
      if (after != forward_.begin() && at <= chains_[*(after - 1)].finish) {
        around = *(after - 1);
        at = TimePoint{s(chains_[*around]), 3};
      }
      if (!(at < TimePoint{f(c), 0})) {
        std::vector<std::uint32_t> ops = defining(c);
        for (const std::uint32_t i : defining(chains_[*around])) ops.push_back(i);
        return refute(std::move(ops),
                      "a value that must be current at some moment while another one must be, throughout");
      }
      c.at = at;
    }
    return true;
  }

  void order() {
    // (point, chain, place in the chain's forced order, op)
    std::vector<std::tuple<TimePoint, std::uint32_t, std::uint32_t, std::uint32_t>> points;
    points.reserve(chain_ops_.size() + anywhere_.size());
    for (std::uint32_t k = 0; k < chains_.size(); ++k) {
      const Chain& c = chains_[k];
      if (!c.forward) {
        for (std::uint32_t j = c.begin; j < c.end; ++j) points.emplace_back(c.at, k, j, chain_ops_[j].op);
        continue;
      }
      // Greedy, layer by layer: each op at max(its call, the previous layer's latest
      // point), which condition (1) puts before its completion.
      TimePoint previous = c.start;
      TimePoint latest = c.start;
      std::uint32_t current_layer = c.begin < c.end ? chain_ops_[c.begin].layer : 0;
      for (std::uint32_t j = c.begin; j < c.end; ++j) {
        const auto [op, layer] = chain_ops_[j];
        if (layer != current_layer) {
          previous = latest;
          current_layer = layer;
        }
        const TimePoint point = std::max(previous, TimePoint{call(op), 2});
        latest = std::max(latest, point);
        points.emplace_back(point, k, j, op);
      }
    }
    for (const std::uint32_t i : anywhere_) points.emplace_back(TimePoint{call(i), 1}, kNoOp, 0, i);
    answer_.linearizable_by_points(std::move(points));
  }

  std::span<const Operation* const> ops_;
  const models::Semantics& semantics_;
  std::vector<OpRole> roles_;          // per op
  std::vector<std::uint32_t> forcer_;  // per op: the completed op that forces it (itself if completed); kNoOp: dropped
  std::vector<std::uint32_t> producer_;    // per value id: its write or cas, crashed or not
  std::vector<std::uint32_t> successor_;   // per value id: the kept cas from it
  std::vector<std::uint32_t> read_begin_;  // per value id: its completed reads, read_ops_[begin[v], begin[v + 1])
  std::vector<std::uint32_t> read_ops_;
  std::uint32_t initial_ = kNoOp;
  std::vector<ChainOp> chain_ops_;  // every chain's ops, chain after chain
  std::vector<Chain> chains_;
  std::vector<std::uint32_t> forward_;   // forward chains, by start
  std::vector<std::uint32_t> anywhere_;  // completed ops that observe and change nothing
  UniqueAnswer answer_;
};

}  // namespace

UniqueValueAnalysis analyse_unique_register(std::span<const Operation* const> ops, const models::Semantics& semantics,
                                            const UniqueStopPoll& should_stop) {
  return Analysis(ops, semantics, should_stop).run();
}

}  // namespace ariadne::search
