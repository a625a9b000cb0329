// Making one read of a register history stale, so that the history is not
// linearizable by construction. This is the classic anomaly a linearizability checker
// exists to catch (a replica serving an old value after a newer write was
// acknowledged), and with unique written values it is certain rather than likely.
#pragma once

#include "generators/seeded_random.hpp"

#include <ariadne/history.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ariadne::generators {

enum class RegisterOpKind : std::uint8_t { read, write, cas };

// One operation of a simulated register, as a generator recorded it. Positions are
// indices into the EventLog's events, so they are also op ids for invocations.
struct RecordedRegisterOp {
  RegisterOpKind kind = RegisterOpKind::read;
  std::size_t invoke_event = 0;
  std::size_t complete_event = 0;
  EventType completion = EventType::ok;  // :ok, :fail (a failed cas) or :info (crashed)
  // What a write or a successful cas put into the register.
  std::int64_t installed = 0;

  // Completed :ok writes and cas certainly took effect before they completed.
  bool certainly_wrote() const { return completion == EventType::ok && kind != RegisterOpKind::read; }
};

struct StaleRead {
  std::size_t read = 0;          // index into the recorded ops
  std::size_t stale_writer = 0;  // wrote the value the read now returns
  std::size_t overwriter = 0;    // wrote after it, completed before the read began
  std::int64_t value = 0;
};

// Changes one completed read's result to a value v written by a completed write or
// cas w, where another completed write or cas w2 was invoked after w completed and
// completed before the read was invoked. Since every written value is unique (the
// caller's promise), any order puts w, then w2, then the read, and nothing writes v
// again: no order explains the read. The read is drawn among those whose position in
// `ops` lies in [window_begin, window_end) as fractions of ops.size(); w among the
// few most recent candidates, so the value is only slightly stale, as real stale
// reads are. Returns nullopt, changing nothing, when no read in the window qualifies.
std::optional<StaleRead> make_one_read_stale(EventLog& log, const std::vector<RecordedRegisterOp>& ops,
                                             double window_begin, double window_end, SeededRandom& random);

}  // namespace ariadne::generators
