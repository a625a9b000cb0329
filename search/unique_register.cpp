// Gibbons and Korach's test for a read/write register whose written values are
// unique [GibbonsKorach97: P. B. Gibbons and E. Korach, "Testing Shared Memories",
// SIAM J. Comput. 26(4), 1997], in O(n log n), with an explicit linearization or the
// few ops that refute it.
//
// Each value v has a cluster: its one write and the reads that return it (the initial
// value: its reads, written "before time"). Let f be the earliest completion and s
// the latest invocation among the cluster's ops. If f < s the cluster has a *forward
// zone* [f, s]: the write takes effect before f (the op completing at f is the write
// or a read needing it) and a read takes effect after s, and no other value can be
// written in between, so v is current throughout [f, s]. If s < f, a *backward zone*
// [s, f]: every op of the cluster is pending throughout it, and v must be current at
// some moment of it (the op invoked at s takes effect after s, the one completing at
// f before f, and v is current from its write to its last read). Hence the history is
// linearizable iff (1) no read completes before its value's write is invoked (or
// reads a value nobody writes), (2) no two forward zones intersect, and (3) no
// backward zone lies inside a forward zone. When they hold, an order is built by
// giving every op a point strictly inside its interval: a forward cluster's write
// just before f and each read inside [f, s] and its own interval; a backward cluster
// all at one point of its zone outside every forward zone (one exists by (3), the
// forward zones being disjoint by (2), and event positions distinct). Sorted by
// point, the clusters come out one block each, write first; real time holds because
// every point lies inside its op's interval.
//
// Crashed ops: a crashed read may never take effect, so it is dropped. A crashed
// write nobody reads is dropped too: taking effect would only put in the register a
// value no read returns, which can never let a read see what it saw. A crashed write
// that some read returns took effect (before that read): it stays, with no
// completion. Anything else (a value written twice or also the initial value, a cas,
// an etcd failed cas, an append, several keys) is declined with a reason, at once:
// the test never guesses.
#include "search/unique_values.hpp"


#include <algorithm>
#include <optional>
#include <tuple>

namespace ariadne::search {

namespace {

using models::Effect;
using models::RegisterAccess;
constexpr std::uint32_t kNoOp = kNoUniqueOp;

// A point of time strictly between event positions: pos + eighths / 8.
struct TimePoint {
  std::uint64_t pos = 0;
  std::uint8_t eighths = 0;
  auto operator<=>(const TimePoint&) const = default;
};

struct Cluster {
  std::uint32_t value = 0;
  std::uint32_t writer = kNoOp;  // kNoOp: the initial value's, written before time
  std::vector<std::uint32_t> reads;
  std::uint32_t first_return = kNoOp;  // the op completing first (kNoOp: the initial write)
  std::uint32_t last_call = kNoOp;     // the op invoked last
  bool forward = false;
  TimePoint start, end;  // forward: the span its ops' points take
  TimePoint at;          // backward: the one point of all its ops
};

class Analysis {
 public:
  Analysis(std::span<const Operation* const> ops, const models::Semantics& semantics,
           const UniqueStopPoll& should_stop)
      : ops_(ops), semantics_(semantics), answer_(should_stop) {}

  UniqueValueAnalysis run() {
    if (!classify()) return answer_.take();
    if (!build_clusters()) return answer_.take();
    if (!place_forward()) return answer_.take();
    if (!place_backward()) return answer_.take();
    order();
    return answer_.take();
  }

 private:
  bool stopping(std::uint32_t i) { return answer_.stopping(i); }
  bool decline(std::string why) { return answer_.decline(std::move(why)); }
  bool refute(std::vector<std::uint32_t> ops, std::string why) { return answer_.refute(std::move(ops), std::move(why)); }

  std::string value_name(std::uint32_t v) const {
    return v < semantics_.value_names.size() ? semantics_.value_names[v] : std::to_string(v);
  }

  // Sorts every op into a read or a write of one value, drops those that cannot
  // matter, and declines what the test does not cover.
  bool classify() {
    if (semantics_.theory != models::Theory::registers) return decline("not a register");
    writer_.assign(semantics_.value_count, kNoOp);
    reads_of_.assign(semantics_.value_count, {});
    std::optional<std::uint32_t> key;
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      if (stopping(i)) return false;
      const models::OpMeaning& m = semantics_.ops[i];
      if (m.effect == Effect::none) {
        // It observes and changes nothing (a read of nil, say), so it may go anywhere
        // in its interval, but a completed op must be in the order.
        if (m.must_take_effect) anywhere_.push_back(i);
        continue;
      }
      if (m.effect == Effect::impossible) {
        if (m.must_take_effect) return refute({i}, "an op that cannot take effect with its result");
        continue;
      }
      if (m.effect != Effect::registers) return decline("not a register op");
      if (m.accesses.size() != 1) {
        const bool one_key = std::all_of(m.accesses.begin(), m.accesses.end(),
                                         [&](const RegisterAccess& a) { return a.key == m.accesses.front().key; });
        return decline(one_key ? "a compare-and-set" : "ops on several registers");
      }
      const RegisterAccess& access = m.accesses.front();
      if (key && *key != access.key) return decline("ops on several registers");
      key = access.key;
      switch (access.kind) {
        case RegisterAccess::Kind::read:
          if (m.must_take_effect) reads_of_[access.value].push_back(i);
          break;
        case RegisterAccess::Kind::write:
          if (writer_[access.value] != kNoOp) return decline("value " + value_name(access.value) + " is written twice");
          writer_[access.value] = i;
          break;
        case RegisterAccess::Kind::read_other_than: return decline("a failed compare-and-set");
        case RegisterAccess::Kind::append: return decline("an append");
      }
    }
    initial_ = key && *key < semantics_.initial.size() ? semantics_.initial[*key]
                                                        : (semantics_.initial.empty() ? kNoOp : semantics_.initial[0]);
    if (initial_ != kNoOp && initial_ < writer_.size() && writer_[initial_] != kNoOp) {
      return decline("value " + value_name(initial_) + " is written and is the initial value");
    }
    return true;
  }

  bool build_clusters() {
    for (std::uint32_t v = 0; v < writer_.size(); ++v) {
      if (stopping(v)) return false;
      const std::uint32_t w = writer_[v];
      const std::vector<std::uint32_t>& reads = reads_of_[v];
      if (w == kNoOp && v != initial_) {
        if (!reads.empty()) return refute({reads.front()}, "a read of a value no op writes");
        continue;
      }
      // A crashed write nobody reads never needs to take effect (see the header).
      if (w != kNoOp && reads.empty() && !ops_[w]->must_take_effect()) continue;
      if (w == kNoOp && reads.empty()) continue;
      Cluster c;
      c.value = v;
      c.writer = w;
      c.reads = reads;
      for (const std::uint32_t r : reads) {
        if (w != kNoOp && ops_[r]->ret < ops_[w]->call) {
          return refute({w, r}, "a read that completed before its value's write was invoked");
        }
      }
      std::vector<std::uint32_t> members = reads;
      if (w != kNoOp) members.push_back(w);
      for (const std::uint32_t i : members) {
        if (c.first_return == kNoOp || ops_[i]->ret < ops_[c.first_return]->ret) c.first_return = i;
        if (c.last_call == kNoOp || ops_[i]->call > ops_[c.last_call]->call) c.last_call = i;
      }
      // The initial value's write is before everything: its cluster completes an op
      // first, so it is forward whenever it has a read.
      if (w == kNoOp) c.first_return = kNoOp;
      c.forward = w == kNoOp || ops_[c.first_return]->ret < ops_[c.last_call]->call;
      clusters_.push_back(std::move(c));
    }
    return true;
  }

  std::uint64_t f(const Cluster& c) const { return c.first_return == kNoOp ? 0 : ops_[c.first_return]->ret; }
  std::uint64_t s(const Cluster& c) const { return ops_[c.last_call]->call; }
  std::vector<std::uint32_t> defining(const Cluster& c) const { return {c.writer, c.first_return, c.last_call}; }

  // Forward zones: their spans, which must not meet (condition 2).
  bool place_forward() {
    for (std::uint32_t k = 0; k < clusters_.size(); ++k) {
      Cluster& c = clusters_[k];
      if (!c.forward) continue;
      c.start = c.writer == kNoOp ? TimePoint{0, 0} : TimePoint{f(c) - 1, 4};
      c.end = TimePoint{s(c), 2};
      forward_.push_back(k);
    }
    std::sort(forward_.begin(), forward_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return clusters_[a].start < clusters_[b].start; });
    for (std::size_t k = 1; k < forward_.size(); ++k) {
      const Cluster& before = clusters_[forward_[k - 1]];
      const Cluster& after = clusters_[forward_[k]];
      if (!(before.end < after.start)) {
        std::vector<std::uint32_t> ops = defining(before);
        for (const std::uint32_t i : defining(after)) ops.push_back(i);
        return refute(std::move(ops), "two values that must each be current over overlapping spans of time");
      }
    }
    return true;
  }

  // Backward zones: a point of the zone outside every forward span (condition 3).
  bool place_backward() {
    for (Cluster& c : clusters_) {
      if (c.forward) continue;
      TimePoint at{s(c), 2};
      const auto after = std::upper_bound(forward_.begin(), forward_.end(), at, [&](const TimePoint& p, std::uint32_t k) {
        return p < clusters_[k].start;
      });
      std::optional<std::uint32_t> around;
      if (after != forward_.begin() && at <= clusters_[*(after - 1)].end) {
        around = *(after - 1);
        at = TimePoint{s(clusters_[*around]), 3};
      }
      if (!(at < TimePoint{f(c), 0})) {
        std::vector<std::uint32_t> ops = defining(c);
        for (const std::uint32_t i : defining(clusters_[*around])) ops.push_back(i);
        return refute(std::move(ops), "a value that must be current at some moment while another one must be, throughout");
      }
      c.at = at;
    }
    return true;
  }

  void order() {
    // (point, cluster, write before reads, op)
    std::vector<std::tuple<TimePoint, std::uint32_t, std::uint8_t, std::uint32_t>> points;
    for (std::uint32_t k = 0; k < clusters_.size(); ++k) {
      const Cluster& c = clusters_[k];
      if (c.forward) {
        if (c.writer != kNoOp) points.emplace_back(c.start, k, 0, c.writer);
        for (const std::uint32_t r : c.reads) {
          const TimePoint inside = c.writer == kNoOp ? TimePoint{ops_[r]->call, 2}
                                                 : std::max(TimePoint{ops_[r]->call, 2}, TimePoint{f(c) - 1, 6});
          points.emplace_back(inside, k, 1, r);
        }
      } else {
        points.emplace_back(c.at, k, 0, c.writer);
        for (const std::uint32_t r : c.reads) points.emplace_back(c.at, k, 1, r);
      }
    }
    for (const std::uint32_t i : anywhere_) points.emplace_back(TimePoint{ops_[i]->call, 1}, kNoOp, 0, i);
    std::sort(points.begin(), points.end());
    std::vector<std::uint32_t> order;
    order.reserve(points.size());
    for (const auto& point : points) order.push_back(std::get<3>(point));
    answer_.linearizable(std::move(order));
  }

  std::span<const Operation* const> ops_;
  const models::Semantics& semantics_;
  std::vector<std::uint32_t> writer_;                // per value id
  std::vector<std::vector<std::uint32_t>> reads_of_;  // per value id: its completed reads
  std::uint32_t initial_ = kNoOp;
  std::vector<Cluster> clusters_;
  std::vector<std::uint32_t> forward_;  // forward clusters, by start
  std::vector<std::uint32_t> anywhere_;  // completed ops that observe and change nothing
  UniqueAnswer answer_;
};

}  // namespace

UniqueValueAnalysis analyse_unique_register(std::span<const Operation* const> ops,
                                               const models::Semantics& semantics,
                                               const UniqueStopPoll& should_stop) {
  return Analysis(ops, semantics, should_stop).run();
}

}  // namespace ariadne::search
