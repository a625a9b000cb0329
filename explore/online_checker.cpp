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

void OnlineChecker::remove_duplicates(std::vector<Config>& configs) const {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    bool duplicate = false;
    for (std::size_t j = 0; j < kept && !duplicate; ++j) duplicate = configs[j] == configs[i];
    if (!duplicate) configs[kept++] = configs[i];
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
  remove_duplicates(configs_);
}

void OnlineChecker::linearize_closure() {
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
      if (std::find(scratch_.begin(), scratch_.end(), next) == scratch_.end()) scratch_.push_back(next);
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
      if (open_[static_cast<std::size_t>(slot)].op == ClientOp::read)
        close_slot(slot);
      else
        open_[static_cast<std::size_t>(slot)].crashed = true;
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
