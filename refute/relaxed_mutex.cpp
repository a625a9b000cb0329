#include "refute/relaxed_mutex.hpp"

#include <ariadne/history.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ariadne::refute {

// Why the sweep misses no linearization. Take any linearization, as points inside
// the intervals, and make it latest: last op first, move each op's point to just
// before the earlier of its own return and the next op's point (a crashed op last
// in the order is dropped instead: the alternation before it stands). Points only
// move later and stay inside their intervals, so this is a linearization too, and
// its ops gather in runs, each ending just before the return of an op that must take
// effect, its anchor. Within a run, an acquire and a release next to each other
// before the anchor leave the lock as they found it: they can be dropped if both
// crashed, or else moved to just before the return of one that must take effect (in
// the order the lock there needs; both are called by then, and each is still before
// its own return), which moves points only later and so ends. What is left has at
// most one op before each anchor, and the lock before a run is fixed by the ops
// before it: none when the lock already suits the anchor, one of the other kind when
// it does not. That is the sweep's shape; what remains is which op comes first.
// Say a linearization agrees with the sweep so far and puts Y before the anchor
// where the sweep puts Q. If Q must take effect, it is pending, so the linearization
// places it later, before its return: swap Q and Y. Q is inside its interval here;
// Y, at Q's old point, is before Q's return, which is no later than Y's own when Y
// must take effect too (the sweep took the one that returns first), and after Y's
// call, which came before now. The kinds are equal, so the lock alternates as before.
// If the sweep takes a crashed Q, no pending op of that kind must take effect, so Y is
// crashed too, and crashed ops of one kind called by now are interchangeable (any
// point after now suits both). Either way a linearization agrees with the sweep one
// op further, so the sweep fails only when none exists. A :fail op changes nothing
// and is placed anywhere inside its interval (its return). The order found is
// replayed before it is returned.

namespace {

enum class Kind : std::uint8_t { acquire, release };

struct Pending {
  std::uint64_t ret;
  std::uint32_t op;  // index into relaxed.ops
  bool operator>(const Pending& other) const { return ret > other.ret; }
};

using EarliestReturnFirst = std::priority_queue<Pending, std::vector<Pending>, std::greater<>>;

// The order replays: acquires and releases alternate from the free lock, every op that
// must take effect is in it once, and no op comes after one that returned before its
// call.
bool replays(const RelaxedHistory& relaxed, const std::vector<std::uint32_t>& order,
             const std::vector<std::uint8_t>& kind_of, const std::vector<bool>& counts) {
  std::vector<bool> seen(relaxed.ops.size(), false);
  bool held = false;
  std::uint64_t latest_call = 0;
  bool any = false;
  for (const std::uint32_t r : order) {
    const Operation& op = relaxed.ops[r];
    if (seen[r]) return false;
    seen[r] = true;
    if (any && op.ret != kNever && op.ret < latest_call) return false;
    latest_call = any ? std::max(latest_call, op.call) : op.call;
    any = true;
    if (!counts[r]) continue;
    const bool acquire = kind_of[r] == static_cast<std::uint8_t>(Kind::acquire);
    if (acquire == held) return false;
    held = acquire;
  }
  for (std::uint32_t r = 0; r < relaxed.ops.size(); ++r) {
    if (relaxed.ops[r].must_take_effect() && !seen[r]) return false;
  }
  return true;
}

}  // namespace

RelaxedDecision decide_mutex_by_sweep(const RelaxedHistory& relaxed, const RelaxedRelevance& relevance) {
  const models::Semantics* semantics = relevance.semantics();
  if (!semantics || semantics->theory != models::Theory::mutex) return {};
  const std::size_t n = relaxed.ops.size();
  // Per op: its kind, whether it changes the lock at all (a :fail op does not), and
  // whether it must take effect (then its return is its deadline).
  std::vector<std::uint8_t> kind_of(n, 0);
  std::vector<bool> counts(n, false);
  std::vector<std::uint32_t> deadlines;  // ops that must take effect, by return
  for (std::uint32_t r = 0; r < n; ++r) {
    const Operation& op = relaxed.ops[r];
    const std::uint32_t i = relaxed.source_index[r];
    const models::OpMeaning& meaning = relaxed.kept[r] ? relevance.recorded(i) : relevance.relaxed(i);
    const bool required = op.must_take_effect();
    if (required && op.ret == kNever) return {};  // not a shape this reads
    switch (meaning.effect) {
      case models::Effect::acquire:
      case models::Effect::release:
        kind_of[r] =
            static_cast<std::uint8_t>(meaning.effect == models::Effect::acquire ? Kind::acquire : Kind::release);
        counts[r] = true;
        break;
      case models::Effect::none: break;
      case models::Effect::impossible:
        if (required) {
          RelaxedDecision refuted;
          refuted.verdict = RelaxedVerdict::not_linearizable;
          return refuted;
        }
        continue;  // a crashed op that cannot take effect never did
      default: return {};
    }
    if (required) deadlines.push_back(r);
  }
  std::sort(deadlines.begin(), deadlines.end(),
            [&](std::uint32_t a, std::uint32_t b) { return relaxed.ops[a].ret < relaxed.ops[b].ret; });

  // Ops are in ascending call order: `called` is how many have been called by now.
  std::uint32_t called = 0;
  EarliestReturnFirst pending[2];
  std::vector<std::uint32_t> crashed[2];  // crashed ops called by now, per kind
  std::vector<bool> placed(n, false);
  std::vector<std::uint32_t> order;
  order.reserve(n);
  bool held = false;
  const auto place = [&](std::uint32_t r) {
    order.push_back(r);
    placed[r] = true;
    if (counts[r]) held = !held;
  };
  for (const std::uint32_t x : deadlines) {
    const std::uint64_t now = relaxed.ops[x].ret;
    for (; called < n && relaxed.ops[called].call < now; ++called) {
      const Operation& op = relaxed.ops[called];
      if (!counts[called]) continue;
      if (op.must_take_effect()) {
        pending[kind_of[called]].push({op.ret, called});
      } else {
        crashed[kind_of[called]].push_back(called);
      }
    }
    if (placed[x]) continue;
    if (counts[x]) {
      const bool acquire = kind_of[x] == static_cast<std::uint8_t>(Kind::acquire);
      if (acquire == held) {
        // The other kind first: the pending op that must take effect and returns
        // soonest, else a crashed one (all alike).
        const auto other = static_cast<std::uint8_t>(acquire ? Kind::release : Kind::acquire);
        EarliestReturnFirst& queue = pending[other];
        while (!queue.empty() && placed[queue.top().op]) queue.pop();
        if (!queue.empty()) {
          place(queue.top().op);
          queue.pop();
        } else if (!crashed[other].empty()) {
          place(crashed[other].back());
          crashed[other].pop_back();
        } else {
          RelaxedDecision refuted;
          refuted.verdict = RelaxedVerdict::not_linearizable;
          return refuted;
        }
      }
    }
    place(x);
  }
  if (!replays(relaxed, order, kind_of, counts)) {
    throw std::logic_error("core: a mutex sweep's order that does not replay as a linearization");
  }
  return RelaxedDecision::ordered(order, relaxed);
}

}  // namespace ariadne::refute
