// The relaxed history behind a core: the contract that makes a "minimal core" mean
// something even though removing an op from a history is not monotone (dropping a
// write can make a read impossible).
//
// Relaxing an op turns it into a crashed op invoked before every other op: it may
// take effect at any point, or never, with any result the model allows. Only its
// invocation (f and argument) is kept. Relaxing only adds linearizations, so if the
// history with every op outside S relaxed is still not linearizable, S alone proves
// the original history wrong, and the property is monotone in S: a smaller S relaxes
// more. A :fail op kept as an observation (the etcd model's failed cas) relaxes into
// a crashed cas; other :fail ops are not in a History at all.
#pragma once

#include <ariadne/history.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace ariadne::refute {

struct RelaxedHistory {
  // Relaxed ops first (invoked at times 0, 1, ...), then the kept ops with their
  // recorded intervals shifted after them; in ascending call order, as engines and
  // the encoder expect. An op's id is its invocation's position, as in a History read
  // from relaxed_events(), so ids ascend with calls.
  std::vector<Operation> ops;
  // Per op of `ops`: its index in the span it was relaxed from, and its id there.
  std::vector<std::uint32_t> source_index;
  std::vector<std::uint32_t> original_id;
  std::vector<bool> kept;  // per op of `ops`

  std::vector<const Operation*> pointers() const;
  // A History holding `ops`, for the certificate checker and for writing out.
  History as_history(std::string source) const;
};

// `ops` in ascending call order (one partition); keep[i] says whether ops[i] keeps its
// recorded interval and result. With `leave_out`, relaxed ops it marks are left out
// altogether (for callers that know they cannot matter). With
// `keep_crashed_processes`, a kept crashed op that is its process's last kept op keeps
// its process (program order binds it, under sequential consistency); otherwise every
// crashed op gets a process of its own.
RelaxedHistory relax(std::span<const Operation* const> ops, const std::vector<bool>& keep,
                     const std::vector<bool>* leave_out = nullptr, bool keep_crashed_processes = false);

// Both readings at once, for deciding many relaxed histories on one formula
// (switchable_check.hpp): a relaxed twin of every op not left out, then the ops
// `candidate` marks as recorded (times shifted after the twins, as relax() does).
// `kept` says which entry is which; an op of `candidate` appears twice, once each way.
RelaxedHistory relax_both_ways(std::span<const Operation* const> ops, const std::vector<bool>& candidate,
                               const std::vector<bool>& leave_out);

// The events of a relaxed history, as a file any checker can read: an invocation per
// relaxed op first, then the kept ops' events in real-time order, then an :info
// completion per relaxed op. (A crashed op's completion after everything else adds
// no real-time fact.)
EventLog relaxed_events(const RelaxedHistory& relaxed, const std::string& source);

}  // namespace ariadne::refute
