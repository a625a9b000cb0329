// What the program-order search (program_order_search.cpp) knows of a register
// history beyond the model's steps: which value each op reads and writes, read off the
// model's semantics (models/semantics.hpp) for the register family without appends.
//
// Three uses, each exact:
// - Dead configurations. A completed op that must read value v of register k can only
//   see it if k holds v when it is placed. Once k holds something else and no unplaced
//   op (completed or crashed) writes v to k, v never returns and that op can never be
//   placed: the configuration fails at once, however many ops are left. (Reads of
//   "anything but v", etcd's failed cas, are not counted: they need no particular
//   value.)
// - Irrelevant crashed writes. A crashed op that writes only values no op reads
//   (crashed ops included: a crashed cas may pass a value on), on registers no op
//   reads "anything but" of, is never worth placing: take any order that places it
//   and drop it; every op after it on its registers either writes without looking
//   or reads a value it did not write, which the register then still holds. So the
//   search never tries it. (The differential test against brute force found the
//   crashed cas case: counting completed readers only was unsound.) This is what keeps the relaxed
//   histories of core questions (refute/program_order_core.hpp), where every op
//   outside the core is a crashed one, from branching on all of them.
// - Crashed writes just in time. A crashed op writing one register, whose value only
//   completed ops read, is tried only where some process's next op reads that value.
//   Take any order that places it, at x: if no op reads its value it can be dropped
//   (as above); else let r be the first op that does. Between x and r nothing writes
//   that register (r reads x's value) and nothing reads it (r is the first), so x can
//   move to just before r, where r is its process's next op; and nothing must follow
//   a crashed op, so moving it later breaks no program order.
// - Which write to try first: one whose value some process's next op reads.
#pragma once

#include "models/semantics.hpp"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace ariadne::search {

class RegisterFacts {
 public:
  // Empty (enabled() false) unless `semantics` is of the register family without
  // appends.
  RegisterFacts(const models::Semantics& semantics, std::span<const Operation* const> ops);
  RegisterFacts() = default;

  bool enabled() const { return enabled_; }
  // Whether some completed op reads a value that no op writes and that is not its
  // register's initial value: then no order exists at all.
  bool unreadable_value() const { return unreadable_value_; }
  // Whether crashed op `op` may be left out of every search (see above).
  bool irrelevant(std::uint32_t op) const { return enabled_ && irrelevant_[op]; }
  // Whether crashed op `op` is tried only where some process's next op wants it.
  bool just_in_time(std::uint32_t op) const { return enabled_ && just_in_time_[op]; }
  // Records `op` placed (or undone). place() returns false when the configuration it
  // leads to is dead (see above); unplace() must still be called for it.
  bool place(std::uint32_t op);
  void unplace(std::uint32_t op);
  // How many of `next_ops` (each process's next completed op, or kNoNext) read a value
  // that `op` writes: the search tries such writes first.
  std::uint32_t wanted_by(std::uint32_t op, std::span<const std::uint32_t> next_ops) const;

  static constexpr std::uint32_t kNoNext = UINT32_MAX;

 private:
  struct Access {
    std::uint32_t key = 0;
    std::uint32_t value = 0;
  };
  static std::uint64_t slot(Access a) { return (std::uint64_t{a.key} << 32) | a.value; }

  bool enabled_ = false;
  bool unreadable_value_ = false;
  std::vector<std::vector<Access>> reads_;   // per op: the values it must read (completed ops only)
  std::vector<std::vector<Access>> writes_;  // per op: the values it writes
  std::vector<bool> irrelevant_;
  std::vector<bool> just_in_time_;
  std::unordered_map<std::uint64_t, std::uint32_t> unplaced_writers_;
  std::unordered_map<std::uint64_t, std::uint32_t> unplaced_readers_;
  std::vector<std::uint32_t> current_;  // per register: the value it holds
  std::vector<std::uint32_t> undo_;     // values overwritten, in placement order
};

}  // namespace ariadne::search
