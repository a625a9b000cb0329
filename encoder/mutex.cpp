// The mutex as a matching problem: a lock history is legal exactly when, in the
// linearization, acquires and releases alternate A R A R ... from an unlocked start.
// Instead of encoding the lock state at every position, each present release picks
// the acquire it ends, as a register read picks the write it reads from in the
// reads-from encodings of [GibbonsKorach97]; the order constraints below then force
// the alternation.
//
// Variables: matches(r, a) for each release r and acquire a that r might end. The
// constraints, all guarded by the presence of the ops they speak about:
//   (1) a present release is matched to exactly one present acquire before it;
//   (2) an acquire is matched by at most one release;
//   (3) an acquire followed by another present acquire c is matched, and
//   (4) if r matches a and a present acquire c follows a, then r precedes c
//       (equivalently: no present acquire lies between a and r).
//
// Why every order that respects them alternates. Take any prefix P of such an order
// and let a_1 < ... < a_k be its acquires. Each a_i with i < k is followed by a_k, so
// by (3) and (4) it is matched by a release that precedes a_k, hence lies in P; by (1)
// these k - 1 releases are distinct. Conversely each release in P is matched by (1) to
// an acquire before it, hence in P, and by (2) to a different one for each release.
// So every prefix holds k - 1 or k releases for its k acquires: the number of holders
// never leaves {0, 1}, which is the alternation, and every acquire then finds the lock
// free and every release finds it held. Conversely, a legal order alternates, and
// matching each release to the acquire just before it satisfies (1)-(4), so the
// encoding loses no linearizable history.
//
// Real time prunes candidates: a release cannot end an acquire invoked after it
// returned, nor one that a completed acquire follows in real time while preceding the
// release (that acquire would sit between them in every order).
//
// Size, for A acquires and R releases: one variable per candidate pair (at most A*R,
// in practice the acquires concurrent with the release), constraint (4) one clause per
// candidate pair and acquire, (3) one clause per pair of acquires that real time
// leaves unordered. O(A*R*A) clauses in the worst case, O(n * c^2) for concurrency c.
#include "encoder/theories.hpp"

#include <algorithm>
#include <optional>

namespace ariadne::encoder {

namespace {

struct Candidate {
  std::uint32_t acquire = 0;  // index into the list of acquires
  Literal matches = 0;
};

std::string op_name(const FormulaBuilder& builder, std::uint32_t op) { return std::to_string(builder.op(op).id); }

}  // namespace

void encode_mutex(FormulaBuilder& builder, const models::Semantics& semantics) {
  std::vector<std::uint32_t> acquires;
  std::vector<std::uint32_t> releases;
  for (std::uint32_t i = 0; i < builder.op_count(); ++i) {
    if (builder.presence(i) == kFalse) continue;
    if (semantics.ops[i].effect == models::Effect::acquire) acquires.push_back(i);
    if (semantics.ops[i].effect == models::Effect::release) releases.push_back(i);
  }
  std::vector<std::vector<Literal>> ended_by(acquires.size());  // matches(r, a) per acquire

  // (1) and (4): each present release ends exactly one present acquire before it,
  // and comes before every present acquire that follows that one.
  for (const std::uint32_t release : releases) {
    builder.poll();
    // Every completed acquire that returned before the release was invoked precedes it;
    // the latest invocation among them bounds which acquires can still be the last one
    // before the release.
    std::uint64_t latest_completed_call = 0;
    bool any_completed_before = false;
    for (const std::uint32_t c : acquires) {
      if (builder.presence(c) == kTrue && builder.precedes(c, release)) {
        latest_completed_call = std::max(latest_completed_call, builder.real_time().call(c));
        any_completed_before = true;
      }
    }
    std::vector<Candidate> candidates;
    std::vector<std::uint32_t> group_ops{release};
    for (std::uint32_t k = 0; k < acquires.size(); ++k) {
      const std::uint32_t a = acquires[k];
      if (builder.precedes(release, a)) continue;
      if (any_completed_before && builder.real_time().ret(a) < latest_completed_call) continue;
      candidates.push_back({k, builder.new_variable()});
      group_ops.push_back(a);
    }
    builder.begin_group("release " + op_name(builder, release) + " ends the acquire just before it",
                        std::move(group_ops));
    std::vector<Literal> choice{-builder.presence(release)};
    std::vector<Literal> matches;
    for (const Candidate& candidate : candidates) {
      const std::uint32_t a = acquires[candidate.acquire];
      const Literal m = candidate.matches;
      choice.push_back(m);
      matches.push_back(m);
      ended_by[candidate.acquire].push_back(m);
      const Literal needs[] = {builder.presence(release), builder.presence(a), builder.order(a, release)};
      builder.add_implications(m, needs);
      // (4): a present acquire after a comes after the release too.
      for (const std::uint32_t c : acquires) {
        if (c == a || builder.precedes(c, a) || builder.precedes(release, c)) continue;
        builder.add_clause({-m, -builder.presence(c), -builder.order(a, c), builder.order(release, c)});
      }
    }
    builder.add_clause(choice);
    builder.add_at_most_one(matches);
    builder.end_group();
  }

  for (std::uint32_t k = 0; k < acquires.size(); ++k) {
    builder.poll();
    const std::uint32_t a = acquires[k];
    // "a is ended by some release": only ever needed true, so one direction suffices,
    // and it constrains nothing when false, so it belongs to no group.
    Literal ended = kFalse;
    if (!ended_by[k].empty()) {
      ended = builder.new_variable();
      std::vector<Literal> clause{-ended};
      clause.insert(clause.end(), ended_by[k].begin(), ended_by[k].end());
      builder.add_clause(clause);
    }
    // (3): one completed acquire after a in real time settles it for every later one;
    // otherwise every other acquire that real time does not put before a gets one.
    std::optional<std::uint32_t> surely_after;
    for (const std::uint32_t c : acquires) {
      if (c != a && builder.presence(c) == kTrue && builder.precedes(a, c)) {
        surely_after = c;
        break;
      }
    }
    std::vector<std::uint32_t> followers;
    if (surely_after) {
      followers.push_back(*surely_after);
    } else {
      for (const std::uint32_t c : acquires) {
        if (c != a && !builder.precedes(c, a)) followers.push_back(c);
      }
    }
    std::vector<std::uint32_t> group_ops{a};
    group_ops.insert(group_ops.end(), followers.begin(), followers.end());
    builder.begin_group("acquire " + op_name(builder, a) + " is released at most once, before the next acquire",
                        std::move(group_ops));
    // (2)
    builder.add_at_most_one(ended_by[k]);
    for (const std::uint32_t c : followers) {
      builder.add_clause({-builder.presence(a), -builder.presence(c), -builder.order(a, c), ended});
    }
    builder.end_group();
  }
}

}  // namespace ariadne::encoder
