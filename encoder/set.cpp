// The grow-only set by membership: a read of S is legal exactly when the elements
// added before it, together with the initial ones, make up S. Since adds only ever
// grow the set, what a read sees depends on which adds precede it and on nothing
// else, so each read is constrained on its own, by which adds precede it.
//
// For a present read r of S, guarded by its presence:
//   - an initial element missing from S makes the read impossible;
//   - every element of S that is not initial has a present add before r;
//   - every present add of an element outside S comes after r.
// Why every order respecting them is legal: at r the set is the initial elements plus
// those of the present adds before r. The first constraint keeps the initial ones
// inside S, the second puts each other element of S in, and the third keeps every
// element outside S out (outside S it cannot be initial, so only an add could bring
// it). Conversely a legal order satisfies all three, so none loses a linearizable
// history.
//
// Size, for R reads and A adds: one clause per read and element of the read's set
// (with one literal per add of that element), one per read and add outside its set,
// and at most one helper variable with two clauses per read and add inside it:
// O(R * A) clauses at worst; real time settles the adds that completed before the
// read began, so it is O(R * (c + k)) for concurrency c and k crashed adds.
#include "encoder/theories.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace ariadne::encoder {

namespace {

std::string op_name(const FormulaBuilder& builder, std::uint32_t op) { return std::to_string(builder.op(op).id); }

}  // namespace

void encode_set(FormulaBuilder& builder, const models::Semantics& semantics) {
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> adds_of;  // element -> add ops
  std::vector<std::uint32_t> adds;
  std::vector<std::uint32_t> reads;
  for (std::uint32_t i = 0; i < builder.op_count(); ++i) {
    if (builder.presence(i) == kFalse) continue;
    if (semantics.ops[i].effect == models::Effect::add) {
      adds.push_back(i);
      adds_of[semantics.ops[i].element].push_back(i);
    }
    if (semantics.ops[i].effect == models::Effect::read_set) reads.push_back(i);
  }
  const std::vector<std::uint32_t>& initial = semantics.initial;

  for (const std::uint32_t read : reads) {
    builder.poll();
    const std::vector<std::uint32_t>& seen = semantics.ops[read].elements;
    const Literal read_present = builder.presence(read);
    if (!std::ranges::includes(seen, initial)) {
      builder.begin_group("read " + op_name(builder, read) + " lacks an initial element", {read});
      builder.add_clause({-read_present});
      builder.end_group();
      continue;
    }
    // A completed add of an element outside S that returned before the read began
    // settles it at once; otherwise only the adds real time leaves open are looked at,
    // which keeps the clauses per read to the concurrent and crashed adds.
    std::optional<std::uint32_t> missed;
    for (const std::uint32_t add : adds) {
      if (builder.presence(add) == kTrue && builder.precedes(add, read) &&
          !std::ranges::binary_search(seen, semantics.ops[add].element)) {
        missed = add;
        break;
      }
    }
    if (missed) {
      builder.begin_group("read " + op_name(builder, read) + " misses the element of add " + op_name(builder, *missed),
                          {read, *missed});
      builder.add_clause({-read_present});
      builder.end_group();
      continue;
    }
    // Helper literals "add a is present and before the read", made before the group
    // opens: they are only ever demanded true, so their clauses constrain nothing on
    // their own and belong to no group.
    std::vector<std::vector<Literal>> supplied_by;  // per new element of `seen`
    std::vector<std::uint32_t> group_ops{read};
    for (const std::uint32_t element : seen) {
      if (std::ranges::binary_search(initial, element)) continue;
      std::vector<Literal>& choices = supplied_by.emplace_back();
      const auto it = adds_of.find(element);
      if (it == adds_of.end()) continue;
      bool surely_added = false;
      for (const std::uint32_t add : it->second) {
        if (builder.presence(add) == kTrue && builder.precedes(add, read)) surely_added = true;
      }
      if (surely_added) {
        supplied_by.pop_back();
        continue;
      }
      for (const std::uint32_t add : it->second) {
        if (builder.precedes(read, add)) continue;
        group_ops.push_back(add);
        const Literal present = builder.presence(add);
        const Literal before = builder.order(add, read);
        if (present == kTrue || before == kTrue) {
          choices.push_back(present == kTrue ? before : present);
          continue;
        }
        const Literal both = builder.new_variable();
        const Literal needs[] = {present, before};
        builder.add_implications(both, needs);
        choices.push_back(both);
      }
    }
    std::vector<std::uint32_t> unseen_adds;
    for (const std::uint32_t add : adds) {
      if (!builder.precedes(read, add) && !std::ranges::binary_search(seen, semantics.ops[add].element)) {
        unseen_adds.push_back(add);
      }
    }
    group_ops.insert(group_ops.end(), unseen_adds.begin(), unseen_adds.end());

    builder.begin_group("read " + op_name(builder, read) + " sees exactly the elements added before it",
                        std::move(group_ops));
    for (std::vector<Literal>& choices : supplied_by) {
      choices.insert(choices.begin(), -read_present);
      builder.add_clause(choices);
    }
    for (const std::uint32_t add : unseen_adds) {
      builder.add_clause({-read_present, -builder.presence(add), builder.order(read, add)});
    }
    builder.end_group();
  }
}

}  // namespace ariadne::encoder
