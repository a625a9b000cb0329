// Queues, stacks and priority queues as matchings: every present removal is matched
// to the insert whose element it took, and an axiom on the order of matched pairs
// says which element the container hands out. The idea follows the matching-and-order
// view of queue histories in [HenzingerSezginVafeiadis13] and of stack histories in
// [DoddsHaasKirsch15], stated here over the total order being searched for instead
// of over real time, so that it is exact and needs no unique values.
//
// The initial elements are virtual inserts, always present, placed before every op in
// the order of the initial vector (front of a queue, bottom of a stack first).
//
// Variables: matches(d, i) for each removal d and insert i of a compatible element
// (any element for a crashed removal, whose result is unknown) not invoked after d
// returned; removed_before(x, d), "insert x was removed by a removal before
// d", only where an axiom needs it. Constraints, guarded by presence:
//   matching: a present removal is matched to exactly one present insert before it,
//   and an insert is matched by at most one removal;
//   FIFO:     matches(d2, e2), e1 present and e1 < e2  =>  removed_before(e1, d2);
//   LIFO:     matches(p, u), x present and u < x < p   =>  removed_before(x, p);
//   empty:    o present, x present and x < o          =>  removed_before(x, o),
// where o is a removal that returned :empty (Effect::remove_empty), which is matched
// to nothing and the initial elements precede.
//
// The priority queue adds urgencies (Semantics::initial_urgency: the larger, the
// sooner out) and peeks. Each insert carries its entry's urgency u(i), and
//   priority: matches(d, i), x present, x < d and u(x) > u(i)  =>  removed_before(x, d)
// for removals, equal urgencies constraining nothing (any of them may go first). A
// completed peek k (Effect::peek) is matched, by peeks(k, i), to exactly one present
// insert i of its element before it that no removal before k took:
//   peek:     peeks(k, i), matches(d, i)                     =>  k < d,
// and the priority axiom holds at k with peeks(k, i) for matches(d, i). A peek removes
// nothing: it is in no insert's removed_by, so it neither counts towards "removed at
// most once" nor makes any removed_before true.
//
// Why every order respecting them is legal. Follow the order, tracking which insert
// put each element into the container. When removal d comes, the insert i it is
// matched to precedes it and has not been removed yet (only d may remove it), so i's
// element is in the container. The unordered queue may hand out any element: done.
// For a queue, an element ahead of i's is an insert e1 < i not yet removed at d, which
// the FIFO axiom rules out, so i's element is at the front. For a stack, an element
// above i's is an insert x with i < x < d not yet removed at d, which the LIFO axiom
// rules out, so i's element is on top. In every case d returns i's element, which is
// its recorded result, or any element for a crashed removal, which the models allow
// (a crashed removal takes whatever is at the removal end). For a priority queue, an
// entry more urgent than i's is an insert x < d with u(x) > u(i) not yet removed at
// d, which the priority axiom rules out, so i's entry has the top urgency: a poll of
// its element may take it (taking an entry equal to it, which leaves the same
// multiset), and a crashed poll, which takes one of the top entries, may too. So the
// container holds, at each point of the order, exactly the elements of the present
// inserts before that point not matched to a removal before it (peeks match no
// removal and change nothing). A peek k of a priority queue finds, by the same
// argument, the entry of its insert i in the queue (i < k, and the peek axiom puts
// every removal that took i after k) with nothing more urgent, so its element has the
// top urgency, which is what the peek observed. An empty observation o finds the
// container empty exactly when every present insert before o (every initial element
// among them) is matched to a removal before o, which is the empty axiom.
//
// Conversely, take a legal order. Match each removal to the insert that put in the
// element it took (for a priority queue, whose state is a multiset of entries, any
// insert of that entry not taken yet; a crashed poll of an empty queue is the same
// as one that took no effect, so it is absent), and each peek to an insert of a
// top-urgency entry of its element still in the queue. The matching holds, and each
// axiom holds because its conclusion is what legality says: an element ahead (FIFO),
// above (LIFO) or more urgent (priority) than the one handed out would have been
// handed out instead, and an empty observation finds nothing. So no linearizable
// history is lost.
//
// Size, for I inserts, D removals, M candidate pairs (M <= I*D, about D when
// elements are unique) and concurrency c: M matching variables and O(M) matching
// clauses (sequential-counter at-most-ones). The FIFO axiom takes O(M*c) clauses
// thanks to real time (see fifo_axiom); the LIFO axiom one clause per candidate pair
// and insert inside its window, O(M*I) in the worst case; each removed_before literal
// they use costs one clause per removal that may take its insert. The priority axiom
// takes one clause per candidate pair (of a removal or a peek) and more urgent insert,
// O((M + P)*I) for P candidate pairs of peeks, but none for an insert that real time
// shows taken already (see priority_axiom), which leaves about the elements in the
// queue at the removal; the peek axiom one per peek candidate pair and removal that
// may take its insert, O(P*D).
#include "encoder/theories.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace ariadne::encoder {

namespace {

// An insert: an op of the history, or one of the initial elements.
struct Insert {
  bool initial = false;
  std::uint32_t index = 0;  // op index, or position in the initial elements
  std::uint32_t element = 0;
  std::int64_t urgency = 0;                                   // priority queues: the larger, the sooner out
  std::vector<std::pair<std::uint32_t, Literal>> removed_by;  // (removal slot, matches literal)
};

// A removal, or a priority queue's peek: an op matched to the insert whose element it
// returned. A peek's matches are not removals and appear in no removed_by.
struct Removal {
  std::uint32_t op = 0;
  std::vector<std::pair<std::uint32_t, Literal>> candidates;  // (insert slot, matches literal)
};

class ContainerEncoding {
 public:
  ContainerEncoding(FormulaBuilder& builder, const models::Semantics& semantics)
      : builder_(builder), semantics_(semantics) {
    for (std::uint32_t k = 0; k < semantics.initial.size(); ++k) {
      const std::int64_t urgency = k < semantics.initial_urgency.size() ? semantics.initial_urgency[k] : 0;
      inserts_.push_back(
          {.initial = true, .index = k, .element = semantics.initial[k], .urgency = urgency, .removed_by = {}});
    }
    initial_count_ = static_cast<std::uint32_t>(semantics.initial.size());
    for (std::uint32_t i = 0; i < builder.op_count(); ++i) {
      if (builder.presence(i) == kFalse) continue;
      const models::OpMeaning& meaning = semantics.ops[i];
      if (meaning.effect == models::Effect::insert) {
        inserts_.push_back(
            {.initial = false, .index = i, .element = meaning.element, .urgency = meaning.urgency, .removed_by = {}});
      }
      if (meaning.effect == models::Effect::remove || meaning.effect == models::Effect::remove_any) {
        removals_.push_back({.op = i, .candidates = {}});
      }
      if (meaning.effect == models::Effect::remove_empty) observations_.push_back(i);
      if (meaning.effect == models::Effect::peek) peeks_.push_back({.op = i, .candidates = {}});
    }
  }

  void encode() {
    for (std::uint32_t d = 0; d < removals_.size(); ++d) match_removal(d);
    for (Insert& insert : inserts_) remove_at_most_once(insert);
    if (semantics_.theory == models::Theory::fifo_queue) {
      find_fifo_cutoffs();
      for (std::uint32_t d = 0; d < removals_.size(); ++d) fifo_axiom(d);
    }
    if (semantics_.theory == models::Theory::stack) {
      for (std::uint32_t d = 0; d < removals_.size(); ++d) lifo_axiom(d);
    }
    if (semantics_.theory == models::Theory::priority_queue) {
      find_sole_takers();
      for (const Removal& removal : removals_) priority_axiom(removal, "takes");
      // Peeks need every removal's matches, which their axiom reads.
      for (Removal& peek : peeks_) {
        match_peek(peek);
        peek_axiom(peek);
        priority_axiom(peek, "sees");
      }
    }
    for (const std::uint32_t o : observations_) empty_axiom(o);
  }

 private:
  Literal presence(const Insert& insert) const { return insert.initial ? kTrue : builder_.presence(insert.index); }

  // Initial elements come before every op, in the order of the initial vector.
  Literal inserted_before(const Insert& first, const Insert& second) {
    if (first.initial && second.initial) return first.index < second.index ? kTrue : kFalse;
    if (first.initial) return kTrue;
    if (second.initial) return kFalse;
    return builder_.order(first.index, second.index);
  }

  Literal inserted_before(const Insert& insert, const Removal& removal) {
    return insert.initial ? kTrue : builder_.order(insert.index, removal.op);
  }

  std::string name(std::uint32_t op) const { return builder_.op(op).f + " " + std::to_string(builder_.op(op).id); }

  std::string name(const Insert& insert) const {
    return insert.initial ? "initial element " + std::to_string(insert.index) : name(insert.index);
  }

  void match_removal(std::uint32_t slot) {
    builder_.poll();
    Removal& removal = removals_[slot];
    const bool any_element = semantics_.ops[removal.op].effect == models::Effect::remove_any;
    std::vector<std::uint32_t> group_ops = find_candidates(removal, any_element);
    for (const auto& [k, m] : removal.candidates) inserts_[k].removed_by.emplace_back(slot, m);
    builder_.begin_group(name(removal.op) + " removes an element inserted before it", std::move(group_ops));
    match_exactly_one(removal);
    builder_.end_group();
  }

  // A peek returns an element some present insert before it put in; the peek axiom
  // says that element is still there.
  void match_peek(Removal& peek) {
    builder_.poll();
    std::vector<std::uint32_t> group_ops = find_candidates(peek, false);
    builder_.begin_group(name(peek.op) + " sees an element inserted before it", std::move(group_ops));
    match_exactly_one(peek);
    builder_.end_group();
  }

  // Fills removal.candidates, a fresh matching literal per insert that may have
  // supplied its element (any element when `any_element`), and returns the ops they
  // concern, for the group.
  std::vector<std::uint32_t> find_candidates(Removal& removal, bool any_element) {
    const std::uint32_t element = semantics_.ops[removal.op].element;
    std::vector<std::uint32_t> group_ops{removal.op};
    for (std::uint32_t k = 0; k < inserts_.size(); ++k) {
      const Insert& insert = inserts_[k];
      if (!any_element && insert.element != element) continue;
      // An insert invoked after the removal returned cannot have supplied its element.
      if (after_in_real_time(insert, removal)) continue;
      removal.candidates.emplace_back(k, builder_.new_variable());
      if (!insert.initial) group_ops.push_back(insert.index);
    }
    return group_ops;
  }

  // In the open group: a present removal (or peek) is matched to exactly one of its
  // candidates, which is present and before it.
  void match_exactly_one(const Removal& removal) {
    std::vector<Literal> choice{-builder_.presence(removal.op)};
    std::vector<Literal> matches;
    for (const auto& [k, m] : removal.candidates) {
      const Insert& insert = inserts_[k];
      choice.push_back(m);
      matches.push_back(m);
      const Literal needs[] = {builder_.presence(removal.op), presence(insert), inserted_before(insert, removal)};
      builder_.add_implications(m, needs);
    }
    builder_.add_clause(choice);
    builder_.add_at_most_one(matches);
  }

  void remove_at_most_once(const Insert& insert) {
    if (insert.removed_by.size() < 2) return;
    builder_.poll();
    std::vector<std::uint32_t> group_ops;
    if (!insert.initial) group_ops.push_back(insert.index);
    std::vector<Literal> matches;
    for (const auto& [slot, m] : insert.removed_by) {
      group_ops.push_back(removals_[slot].op);
      matches.push_back(m);
    }
    builder_.begin_group(name(insert) + " is removed at most once", std::move(group_ops));
    builder_.add_at_most_one(matches);
    builder_.end_group();
  }

  // removed_before(x, d): x's element was taken by a removal linearized before d.
  // Only its truth is ever demanded, so it implies that some removal other than d
  // matched x and that this removal (unique, by the matching) precedes d. These
  // clauses constrain nothing when the literal is false, so they belong to no group;
  // callers create the literals before opening their own group.
  // `removal` is the op index of a removal, or of an empty observation or a peek
  // (matched to no removal, so every removal that took x is another op).
  Literal removed_before(std::uint32_t insert_slot, std::uint32_t removal) {
    const std::uint64_t key = (std::uint64_t{insert_slot} << 32) | removal;
    if (auto it = removed_before_.find(key); it != removed_before_.end()) return it->second;
    std::vector<Literal> some_earlier_removal;
    for (const auto& [slot, m] : inserts_[insert_slot].removed_by) {
      const std::uint32_t other = removals_[slot].op;
      if (other != removal && !builder_.precedes(removal, other)) some_earlier_removal.push_back(m);
    }
    Literal gone = kFalse;
    if (!some_earlier_removal.empty()) {
      gone = builder_.new_variable();
      some_earlier_removal.insert(some_earlier_removal.begin(), -gone);
      builder_.add_clause(some_earlier_removal);
      for (const auto& [slot, m] : inserts_[insert_slot].removed_by) {
        const std::uint32_t other = removals_[slot].op;
        const Literal earlier = other == removal ? kFalse : builder_.order(other, removal);
        builder_.add_clause({-gone, -m, earlier});
      }
    }
    removed_before_.emplace(key, gone);
    return gone;
  }

  // FIFO: when the removal takes insert e2's element, every present insert e1 < e2
  // was removed before it.
  //
  // Real time makes most of these clauses redundant. Say a completed insert e0 has
  // e1 <rt e0 <rt e2. Then e0 < e2 in every order, so e0 was removed by some d0 before
  // the removal, and, by the FIFO property at d0 (an earlier removal: induction along
  // the order), e1 < e0 was removed before d0. Taking as e0 the completed insert
  // invoked last among those that returned before e2 was invoked, whose own clause is
  // never skipped, e1 needs no clause when it returned before that invocation.
  // The initial elements are the same argument with the order of the initial vector:
  // only the last one before e2 needs a clause, and none does when some completed
  // insert precedes e2 in real time.
  void fifo_axiom(std::uint32_t slot) {
    const Removal& removal = removals_[slot];
    std::vector<std::vector<Literal>> clauses;
    std::vector<std::uint32_t> ops{removal.op};
    for (const auto& [k, m] : removal.candidates) {
      const Insert& newer = inserts_[k];
      const std::optional<std::uint64_t> cutoff = fifo_cutoffs_[k];
      for (std::uint32_t older = 0; older < inserts_.size(); ++older) {
        const Insert& e1 = inserts_[older];
        if (older == k || after_in_real_time(e1, removal)) continue;
        const Literal before = inserted_before(e1, newer);
        if (before == kFalse) continue;
        if (e1.initial && (cutoff || (newer.initial ? e1.index + 1 != newer.index : e1.index + 1 != initial_count_))) {
          continue;
        }
        if (!e1.initial && cutoff && builder_.real_time().ret(e1.index) < *cutoff) continue;
        clauses.push_back({-m, -presence(e1), -before, removed_before(older, removal.op)});
        if (!e1.initial) ops.push_back(e1.index);
      }
    }
    add_group(name(removal.op) + " takes the oldest element", std::move(ops), clauses);
  }

  // Per insert: the latest invocation among the completed inserts that returned
  // before it was invoked, if any. One sweep over the completed inserts sorted by
  // return, keeping the latest invocation so far.
  void find_fifo_cutoffs() {
    std::vector<std::uint32_t> completed;
    for (const Insert& insert : inserts_) {
      if (!insert.initial && builder_.presence(insert.index) == kTrue) completed.push_back(insert.index);
    }
    const RealTimeOrder& real_time = builder_.real_time();
    std::ranges::sort(completed, {}, [&](std::uint32_t op) { return real_time.ret(op); });
    std::vector<std::uint64_t> latest_call(completed.size());
    for (std::size_t i = 0; i < completed.size(); ++i) {
      latest_call[i] = std::max(i == 0 ? 0 : latest_call[i - 1], real_time.call(completed[i]));
    }
    fifo_cutoffs_.assign(inserts_.size(), std::nullopt);
    for (std::uint32_t k = 0; k < inserts_.size(); ++k) {
      if (inserts_[k].initial) continue;
      const std::uint64_t call = real_time.call(inserts_[k].index);
      const auto returned_before =
          std::ranges::partition_point(completed, [&](std::uint32_t op) { return real_time.ret(op) < call; });
      const auto count = static_cast<std::size_t>(returned_before - completed.begin());
      if (count > 0) fifo_cutoffs_[k] = latest_call[count - 1];
    }
  }

  // LIFO: when the removal takes insert u's element, every present insert x with
  // u < x < removal was removed before it.
  void lifo_axiom(std::uint32_t slot) {
    const Removal& removal = removals_[slot];
    std::vector<std::vector<Literal>> clauses;
    std::vector<std::uint32_t> ops{removal.op};
    for (const auto& [k, m] : removal.candidates) {
      for (std::uint32_t above = 0; above < inserts_.size(); ++above) {
        const Insert& x = inserts_[above];
        if (above == k || after_in_real_time(x, removal)) continue;
        const Literal after_taken = inserted_before(inserts_[k], x);
        if (after_taken == kFalse) continue;
        const Literal before_removal = inserted_before(x, removal);
        if (before_removal == kFalse) continue;
        clauses.push_back({-m, -presence(x), -after_taken, -before_removal, removed_before(above, removal.op)});
        if (!x.initial) ops.push_back(x.index);
      }
    }
    add_group(name(removal.op) + " takes the top element", std::move(ops), clauses);
  }

  // Priority: when the removal (or peek) `verb`s insert i's element, every present
  // insert x before it with a larger urgency was removed before it. Equal urgencies
  // need no clause: any of the top entries may be handed out.
  //
  // Real time spares most clauses: when x's sole taker (find_sole_takers) returned
  // before the removal was invoked, x was removed before it in every assignment, and
  // the clause holds. Without this, a long history asks at each removal about every
  // more urgent insert before it, and each such question costs a clause per removal
  // that may take x, crashed polls included.
  void priority_axiom(const Removal& removal, const std::string& verb) {
    std::vector<std::vector<Literal>> clauses;
    std::vector<std::uint32_t> ops{removal.op};
    for (const auto& [k, m] : removal.candidates) {
      const std::int64_t urgency = inserts_[k].urgency;
      for (std::uint32_t more_urgent = 0; more_urgent < inserts_.size(); ++more_urgent) {
        const Insert& x = inserts_[more_urgent];
        if (more_urgent == k || x.urgency <= urgency || after_in_real_time(x, removal)) continue;
        const Literal before = inserted_before(x, removal);
        if (before == kFalse) continue;
        if (!x.initial) ops.push_back(x.index);
        if (const std::optional<std::uint32_t> taker = sole_takers_[more_urgent];
            taker && builder_.precedes(*taker, removal.op)) {
          ops.push_back(*taker);  // the clause holds by its matching and real time
          continue;
        }
        clauses.push_back({-m, -presence(x), -before, removed_before(more_urgent, removal.op)});
      }
    }
    add_group(name(removal.op) + " " + verb + " an element of the top priority", std::move(ops), clauses);
  }

  // Per insert: a removal that took effect in every assignment (a completed one,
  // without selectors) and can take nothing but this insert's element, so that it is
  // matched to this insert; the one that returned first, if several (which the
  // matching refutes anyway).
  void find_sole_takers() {
    sole_takers_.assign(inserts_.size(), std::nullopt);
    for (const Removal& removal : removals_) {
      if (removal.candidates.size() != 1 || builder_.presence(removal.op) != kTrue) continue;
      std::optional<std::uint32_t>& taker = sole_takers_[removal.candidates.front().first];
      const RealTimeOrder& real_time = builder_.real_time();
      if (!taker || real_time.ret(removal.op) < real_time.ret(*taker)) taker = removal.op;
    }
  }

  // Peek: the insert a peek is matched to was not taken before the peek, so every
  // removal that takes it comes after the peek.
  void peek_axiom(const Removal& peek) {
    std::vector<std::vector<Literal>> clauses;
    std::vector<std::uint32_t> ops{peek.op};
    for (const auto& [k, m] : peek.candidates) {
      for (const auto& [slot, taken] : inserts_[k].removed_by) {
        const Literal later = builder_.order(peek.op, removals_[slot].op);
        if (later == kTrue) continue;
        clauses.push_back({-m, -taken, later});
        ops.push_back(removals_[slot].op);
        if (!inserts_[k].initial) ops.push_back(inserts_[k].index);
      }
    }
    add_group(name(peek.op) + " sees an element still there", std::move(ops), clauses);
  }

  // Empty: where observation o is linearized, every present insert before it (every
  // initial element, which precedes every op) was removed before it. Inserts invoked
  // after o returned come after it in every order and need no clause.
  void empty_axiom(std::uint32_t o) {
    std::vector<std::vector<Literal>> clauses;
    std::vector<std::uint32_t> ops{o};
    for (std::uint32_t k = 0; k < inserts_.size(); ++k) {
      const Insert& x = inserts_[k];
      if (!x.initial && builder_.precedes(o, x.index)) continue;
      const Literal before = x.initial ? kTrue : builder_.order(x.index, o);
      clauses.push_back({-builder_.presence(o), -presence(x), -before, removed_before(k, o)});
      if (!x.initial) ops.push_back(x.index);
    }
    add_group(name(o) + " finds the " + container_name() + " empty", std::move(ops), clauses);
  }

  std::string container_name() const {
    switch (semantics_.theory) {
      case models::Theory::fifo_queue:
      case models::Theory::unordered_queue: return "queue";
      case models::Theory::stack: return "stack";
      case models::Theory::priority_queue: return "priority queue";
      default: return "container";
    }
  }

  void add_group(std::string group_name, std::vector<std::uint32_t> ops,
                 const std::vector<std::vector<Literal>>& clauses) {
    if (clauses.empty()) return;
    builder_.poll();
    std::ranges::sort(ops);
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    builder_.begin_group(std::move(group_name), std::move(ops));
    for (const auto& clause : clauses) builder_.add_clause(clause);
    builder_.end_group();
  }

  // An insert invoked after the removal returned is after it in every order, so no
  // axiom about what precedes the removal concerns it.
  bool after_in_real_time(const Insert& insert, const Removal& removal) const {
    return !insert.initial && builder_.precedes(removal.op, insert.index);
  }

  FormulaBuilder& builder_;
  const models::Semantics& semantics_;
  std::vector<Insert> inserts_;  // the initial elements first
  std::uint32_t initial_count_ = 0;
  std::vector<Removal> removals_;
  std::vector<std::uint32_t> observations_;  // the ops of the empty observations
  std::vector<Removal> peeks_;               // a priority queue's completed peeks
  std::unordered_map<std::uint64_t, Literal> removed_before_;
  std::vector<std::optional<std::uint64_t>> fifo_cutoffs_;  // per insert slot
  std::vector<std::optional<std::uint32_t>> sole_takers_;   // per insert slot (find_sole_takers)
};

}  // namespace

void encode_container(FormulaBuilder& builder, const models::Semantics& semantics) {
  ContainerEncoding(builder, semantics).encode();
}

}  // namespace ariadne::encoder
