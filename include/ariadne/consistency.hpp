// Which correctness condition a check decides, and the order each one imposes.
//
// linearizable [HerlihyWing90]: one legal total order of the operations that keeps
// real time: an op that completed before another was invoked comes first.
//
// sequential [Lamport79]: one legal total order that keeps each process's own order
// (program order) and nothing else: real time between processes does not bind. A
// Jepsen process is one logical thread, so its ops are its program. A crashed op may
// take effect later in the order, or never: it follows its process's earlier ops, and
// nothing has to follow it (Jepsen retires a process after a crash; a process that
// goes on anyway does not wait for its crashed op).
//
// Sequential consistency is not local (Herlihy & Wing 1990, section 3.3, history H8:
// each queue alone is sequentially consistent, the two together are not), so a keyed
// history is decided whole under `sequential`, never key by key. `sequential_per_key`
// decides each key on its own, as Elle's :sequential-keys? does: cheaper, and weaker.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ariadne {

enum class Consistency : std::uint8_t { linearizable, sequential, sequential_per_key };

// "linearizable", "sequential", "sequential-per-key"; parse_consistency takes these.
std::string_view consistency_name(Consistency c);
std::optional<Consistency> parse_consistency(std::string_view name);
// "linearizable, sequential or sequential-per-key", for messages.
std::string consistency_names_listed();

// Whether the condition keeps real time (linearizable) or only program order.
inline bool keeps_real_time(Consistency c) { return c == Consistency::linearizable; }

// The order each condition imposes between two operations is must_precede(), in
// history.hpp beside Operation.

}  // namespace ariadne
