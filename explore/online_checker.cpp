#include "explore/online_checker.hpp"

#include <algorithm>
#include <stdexcept>

namespace ariadne::explore {

using systems::EventKind;
using systems::kNil;

void OnlineChecker::reset(Val initial) {
  used_ = 0;
  configs_.clear();
  configs_.push_back(Config{initial, 0, {}});
}

int OnlineChecker::slot_of(std::int32_t process) const {
  for (int slot = 0; slot < kMaxOpen; ++slot)
    if ((used_ >> slot & 1u) != 0 && !open_[static_cast<std::size_t>(slot)].crashed &&
        open_[static_cast<std::size_t>(slot)].process == process)
      return slot;
  return -1;
}

int OnlineChecker::free_slot() const {
  for (int slot = 0; slot < kMaxOpen; ++slot)
    if ((used_ >> slot & 1u) == 0) return slot;
  throw std::length_error("the design left more than 16 operations open at once");
}

std::uint16_t OnlineChecker::crashed_slots() const {
  std::uint16_t crashed = 0;
  for (int slot = 0; slot < kMaxOpen; ++slot)
    if ((used_ >> slot & 1u) != 0 && open_[static_cast<std::size_t>(slot)].crashed)
      crashed = static_cast<std::uint16_t>(crashed | 1u << slot);
  return crashed;
}

// `a` can do everything `b` can: the same state and the same ops taken effect, except
// that `a` has used up no crashed op that `b` has not. A crashed op still open may take
// effect at any later time or never, so keeping it open only adds options. This is
// the subsumption of WGL's memo table (search/wgl.cpp) applied to configurations; it
// keeps the set small when many crashed writes stay open.
bool OnlineChecker::subsumes(const Config& a, const Config& b, std::uint16_t crashed) {
  return a.state == b.state && (a.linearized & ~crashed) == (b.linearized & ~crashed) &&
         (a.linearized & crashed & ~b.linearized) == 0 && a.seen == b.seen;
}

void OnlineChecker::remove_subsumed(std::vector<Config>& configs) const {
  const std::uint16_t crashed = crashed_slots();
  std::size_t kept = 0;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const Config candidate = configs[i];
    bool redundant = false;
    for (std::size_t j = 0; j < kept && !redundant; ++j) redundant = subsumes(configs[j], candidate, crashed);
    if (redundant) continue;
    std::size_t still = 0;
    for (std::size_t j = 0; j < kept; ++j)
      if (!subsumes(candidate, configs[j], crashed)) configs[still++] = configs[j];
    kept = still;
    configs[kept++] = candidate;
  }
  configs.resize(kept);
}

void OnlineChecker::close_slot(int slot) {
  const auto bit = static_cast<std::uint16_t>(1u << slot);
  for (Config& config : configs_) {
    config.linearized = static_cast<std::uint16_t>(config.linearized & ~bit);
    config.seen[static_cast<std::size_t>(slot)] = kNil;
  }
  used_ = static_cast<std::uint16_t>(used_ & ~bit);
  remove_subsumed(configs_);
}

void OnlineChecker::linearize_closure() {
  const std::uint16_t crashed = crashed_slots();
  scratch_ = configs_;
  for (std::size_t i = 0; i < scratch_.size(); ++i) {
    for (int slot = 0; slot < kMaxOpen; ++slot) {
      const auto bit = static_cast<std::uint16_t>(1u << slot);
      if ((used_ & bit) == 0 || (scratch_[i].linearized & bit) != 0) continue;
      const OpenOp& op = open_[static_cast<std::size_t>(slot)];
      Config next = scratch_[i];
      next.linearized = static_cast<std::uint16_t>(next.linearized | bit);
      switch (op.op) {
        case ClientOp::read: next.seen[static_cast<std::size_t>(slot)] = next.state; break;
        case ClientOp::write: next.state = op.a; break;
        case ClientOp::cas:
          // A cas that would fail does not take effect: for an :ok cas that is not an
          // option, and a crashed one is then simply never linearized.
          if (next.state != op.a) continue;
          next.state = op.b;
          break;
      }
      // Breadth first, so configurations with fewer crashed ops used up come first and
      // subsume the rest: without this, k open crashed writes make 2^k configurations.
      const bool known =
          std::any_of(scratch_.begin(), scratch_.end(), [&](const Config& c) { return subsumes(c, next, crashed); });
      if (!known) scratch_.push_back(next);
    }
  }
}

bool OnlineChecker::complete_ok(int slot, Val result) {
  const bool is_read = open_[static_cast<std::size_t>(slot)].op == ClientOp::read;
  if (is_read && result == kNil) {
    // Knossos' register, which the designs are checked against, reads nil as "value
    // unknown": such a read fits anywhere, so it constrains nothing.
    close_slot(slot);
    return true;
  }
  linearize_closure();
  const auto bit = static_cast<std::uint16_t>(1u << slot);
  configs_.clear();
  for (const Config& config : scratch_) {
    if ((config.linearized & bit) == 0) continue;
    if (is_read && config.seen[static_cast<std::size_t>(slot)] != result) continue;
    configs_.push_back(config);
  }
  close_slot(slot);
  return !configs_.empty();
}

bool OnlineChecker::feed(const TraceEvent& event) {
  if (event.kind == EventKind::note) return true;
  if (event.kind == EventKind::invoke) {
    const int slot = free_slot();
    open_[static_cast<std::size_t>(slot)] =
        OpenOp{event.process, static_cast<ClientOp>(event.what), event.value, event.value2, false};
    used_ = static_cast<std::uint16_t>(used_ | 1u << slot);
    return true;
  }
  const int slot = slot_of(event.process);
  if (slot < 0) throw std::logic_error("a design completed an operation that is not open");
  const auto bit = static_cast<std::uint16_t>(1u << slot);
  switch (event.kind) {
    case EventKind::ok: return complete_ok(slot, event.value);
    case EventKind::fail:
      // It certainly did not happen: drop the configurations in which it did.
      std::erase_if(configs_, [bit](const Config& c) { return (c.linearized & bit) != 0; });
      close_slot(slot);
      return !configs_.empty();
    case EventKind::info:
      // A crashed read constrains nothing; a crashed write may still take effect later.
      if (open_[static_cast<std::size_t>(slot)].op == ClientOp::read) {
        close_slot(slot);
      } else {
        open_[static_cast<std::size_t>(slot)].crashed = true;
        remove_subsumed(configs_);
      }
      return true;
    default: return true;
  }
}

void OnlineChecker::canonical(CanonicalKey& key) const {
  key.raw(used_);
  for (int slot = 0; slot < kMaxOpen; ++slot) {
    if ((used_ >> slot & 1u) == 0) continue;
    const OpenOp& op = open_[static_cast<std::size_t>(slot)];
    key.raw(static_cast<std::uint32_t>(op.process));
    key.raw(static_cast<std::uint32_t>(op.op) | (op.crashed ? 0x100u : 0u));
    key.value(op.a);
    key.value(op.b);
  }
  // Configurations form a set: sort them by what the renaming so far makes of them, so
  // that their order in memory does not matter, then name their other values in that
  // order. Ties between configurations that differ only in values not yet named leave
  // the key injective, so equal keys still mean renamed-equal states.
  std::vector<std::pair<std::array<std::uint32_t, kMaxOpen + 2>, const Config*>> sorted;
  sorted.reserve(configs_.size());
  for (const Config& config : configs_) {
    std::array<std::uint32_t, kMaxOpen + 2> words{};
    words[0] = key.name_if_seen(config.state);
    words[1] = config.linearized;
    for (int slot = 0; slot < kMaxOpen; ++slot)
      words[static_cast<std::size_t>(slot) + 2] = key.name_if_seen(config.seen[static_cast<std::size_t>(slot)]);
    sorted.emplace_back(words, &config);
  }
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  key.raw(static_cast<std::uint32_t>(sorted.size()));
  for (const auto& entry : sorted) {
    const Config& config = *entry.second;
    key.value(config.state);
    key.raw(config.linearized);
    for (int slot = 0; slot < kMaxOpen; ++slot)
      if ((config.linearized >> slot & 1u) != 0) key.value(config.seen[static_cast<std::size_t>(slot)]);
  }
}

}  // namespace ariadne::explore
