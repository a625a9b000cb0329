// The violation in one sentence, first thing a person reads: built from the core and
// the model's meaning, naming ops by description, id and process, and the real-time
// facts (or, under sequential consistency, the program order) that make the result
// impossible. "read 2 (op 84, process 11) has no write of 2 to read from: ops 3, 20
// and 43 wrote 2 but were overwritten by write 1 (op 73, process 0), which completed
// before the read began; ops 87 and 149 began after the read completed."
//
// Each model family has its own shapes (explain/why_registers.cpp,
// explain/why_collections.cpp): a register's stale read or a kv get missing its put,
// a queue dequeuing out of order, a stack popping under a later push, a set read
// missing a completed add or holding one never added, a lock acquired while held.
// Each shape is a complete argument from facts of the history alone, checked here
// before it is said: every op that could have helped is named and ruled out, and ops
// outside the core (which may take effect anywhere, or never) void the shape unless
// they cannot help. When no shape fits, the sentence says what the dead-end search
// found (explain/dead_ends.hpp); a core too large for that gets the failing op and the
// core's size.
#pragma once

#include <ariadne/consistency.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>
#include <ariadne/result.hpp>

#include "explain/explanation.hpp"

#include <string>
#include <vector>

namespace ariadne::explain {

struct Why {
  std::string sentence;  // one sentence, ending in '.'
  // Every op of the core, and the failing op, with its part in the sentence.
  std::vector<WhyOp> ops;
};

// `failing`: the failing op when it was found (it may lie outside the core); the
// condition decides which order the facts are stated in.
Why explain_why(const Model& model, const CoreSummary& summary, const Operation* failing, Consistency condition);

}  // namespace ariadne::explain
