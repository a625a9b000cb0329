// A file or folder a command writes beside its answer (`check --proof DIR`, `check
// --html FILE`): whether it was written and, when not, why. Such an output comes
// after the verdict, so it never changes the verdict or its exit status: one cut
// short by a limit or a failed write is a warning on stderr and says so in the
// answer (JSON: {"written": false, "reason": ...}).
#pragma once

#include <string>

namespace ariadne::answer {

struct SideOutput {
  std::string path;
  bool written = false;
  // Why not written: "timeout", "memory" or "cancelled" (a limit stopped it, as
  // limit_name() spells them), "not-refuted" (a proof is for a not-linearizable
  // answer), "beyond-encoder" (the core's relaxed history is past what the encoder
  // takes: the refutation stands on its minimal core, with no DRAT proof),
  // "write-failed" (the file system refused it) or "error" (a bug; the summary says
  // so).
  std::string reason;
  std::string summary;  // one line: what was written where, or why nothing was

  // Whether a reader should be warned: it was asked for and something went wrong.
  bool failed() const { return !written && reason != "not-refuted"; }
};

}  // namespace ariadne::answer
