#include "search/unique_register.hpp"

#include "search/search_engine.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

namespace ariadne::search {

namespace {

using models::Effect;
using models::RegisterAccess;
constexpr std::uint32_t kNoOp = 0xffffffffu;

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
           const std::function<bool()>& should_stop)
      : ops_(ops), semantics_(semantics), should_stop_(should_stop) {}

  UniqueRegisterAnalysis run() {
    if (!classify()) return std::move(result_);
    if (!build_clusters()) return std::move(result_);
    if (!place_forward()) return std::move(result_);
    if (!place_backward()) return std::move(result_);
    order();
    return std::move(result_);
  }

 private:
  // Polled every 4,096 ops: a million-op history takes the analysis about 0.4 s.
  bool stopping(std::uint32_t i) {
    if ((i & 4095) != 0 || !should_stop_ || !should_stop_()) return false;
    result_.answer = UniqueRegisterAnalysis::Answer::stopped;
    result_.why = "stopped";
    return true;
  }

  bool decline(std::string why) {
    result_.answer = UniqueRegisterAnalysis::Answer::declined;
    result_.why = std::move(why);
    return false;
  }

  bool refute(std::vector<std::uint32_t> ops, std::string why) {
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    ops.erase(std::remove(ops.begin(), ops.end(), kNoOp), ops.end());
    result_.answer = UniqueRegisterAnalysis::Answer::not_linearizable;
    result_.violation = std::move(ops);
    result_.why = std::move(why);
    return false;
  }

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
    result_.answer = UniqueRegisterAnalysis::Answer::linearizable;
    result_.order.reserve(points.size());
    for (const auto& point : points) result_.order.push_back(std::get<3>(point));
  }

  std::span<const Operation* const> ops_;
  const models::Semantics& semantics_;
  const std::function<bool()>& should_stop_;
  std::vector<std::uint32_t> writer_;                // per value id
  std::vector<std::vector<std::uint32_t>> reads_of_;  // per value id: its completed reads
  std::uint32_t initial_ = kNoOp;
  std::vector<Cluster> clusters_;
  std::vector<std::uint32_t> forward_;  // forward clusters, by start
  std::vector<std::uint32_t> anywhere_;  // completed ops that observe and change nothing
  UniqueRegisterAnalysis result_;
};

// The engine: the analysis, once; declining is a withdrawal with its reason.
class UniqueRegisterEngine final : public SearchEngine {
 public:
  UniqueRegisterEngine(const SubHistory& sub, const Model& model, const StopSignal& stop)
      : sub_(sub), model_(model), stop_(stop) {}

  std::string name() const override { return "unique"; }
  std::vector<std::uint32_t> linearization() const override { return analysis_.order; }
  std::vector<std::uint32_t> refuting_ops() const override { return analysis_.violation; }
  std::uint64_t steps() const override { return sub_.ops.size(); }
  StopSignal::Why stop_reason() const override { return stop_reason_; }
  std::string withdrawal_reason() const override {
    return analysis_.answer == UniqueRegisterAnalysis::Answer::declined ? analysis_.why : std::string();
  }

  Outcome run(std::uint64_t) override {
    if (!ran_) {
      ran_ = true;
      const auto semantics = models::semantics_of(model_, sub_.ops);
      if (semantics) {
        analysis_ = analyse_unique_register(sub_.ops, *semantics, [this] {
          stop_reason_ = stop_.check();
          return stop_reason_ != StopSignal::Why::none;
        });
      } else {
        analysis_.why = "the model describes no semantics";
      }
    }
    switch (analysis_.answer) {
      case UniqueRegisterAnalysis::Answer::linearizable: return Outcome::linearizable;
      case UniqueRegisterAnalysis::Answer::not_linearizable: return Outcome::not_linearizable;
      case UniqueRegisterAnalysis::Answer::declined:
      case UniqueRegisterAnalysis::Answer::stopped: return Outcome::stopped;
    }
    return Outcome::stopped;
  }

 private:
  const SubHistory& sub_;
  const Model& model_;
  const StopSignal& stop_;
  StopSignal::Why stop_reason_ = StopSignal::Why::none;
  bool ran_ = false;
  UniqueRegisterAnalysis analysis_;
};

}  // namespace

UniqueRegisterAnalysis analyse_unique_register(std::span<const Operation* const> ops,
                                               const models::Semantics& semantics,
                                               const std::function<bool()>& should_stop) {
  return Analysis(ops, semantics, should_stop).run();
}

std::unique_ptr<SearchEngine> make_unique_register(const SubHistory& sub, const Model& model, const StopSignal& stop) {
  return std::make_unique<UniqueRegisterEngine>(sub, model, stop);
}

}  // namespace ariadne::search
