// Checking a history: the one entry point engines, the command line and tests share.
#pragma once

#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ariadne {

enum class Verdict : std::uint8_t { linearizable, not_linearizable, unknown };
std::string_view verdict_name(Verdict v);  // "linearizable", "not-linearizable", "unknown"

// automatic: the race (native search first, then WGL, JIT, SAT and SMT side by side).
enum class Engine : std::uint8_t { automatic, wgl, jit, sat, smt, brute };
std::optional<Engine> parse_engine(std::string_view name);
std::string_view engine_name(Engine e);

struct CheckOptions {
  Engine engine = Engine::automatic;
  double timeout_seconds = 0;                      // 0: no limit
  std::uint64_t memory_limit = 2ULL << 30;         // bytes of search memory
  unsigned jobs = 0;                               // worker threads; 0: all cores
  const std::atomic<bool>* cancel = nullptr;       // set from outside to stop early
};

struct CheckResult {
  Verdict verdict = Verdict::unknown;
  std::string engine;       // the engine that produced the answer
  std::size_t operations = 0;
  double elapsed_ms = 0;
  // Not linearizable: when the verdict was known, before the search for failing_op.
  double verdict_ms = 0;
  // Linearizable: every :ok op and each crashed op that took effect, in order (op ids).
  std::vector<std::uint32_t> linearization;
  // Not linearizable: ops that explain why (for now, the failing partition's ops).
  std::vector<std::uint32_t> core;
  std::string explanation;
  std::string reason;        // why unknown
  std::string failing_partition;  // the key of the failing partition, as EDN
  // Not linearizable: the op whose completion is the first event after which no order
  // exists (Knossos' failing op), when the search for it finished within its budget.
  std::optional<std::uint32_t> failing_op;
  std::size_t partitions = 1;
  std::uint64_t steps = 0;   // model steps taken by the search, all partitions
  std::uint64_t peak_search_bytes = 0;
  // Set when some partition went to the race (--engine auto, or a solver engine run
  // alone): the engines that entered the race that decided the answer, how long the
  // losers of the slowest race took to stop once it had its answer, and the engines
  // that gave up on their own ("smt: unsupported: ...").
  std::vector<std::string> race_entrants;
  double losers_stopped_ms = 0;
  std::string slowest_loser;
  std::vector<std::string> withdrawals;
};

// Decides the history. Every linearizable answer has been replayed by the
// independent certificate checker before it is returned; a certificate that fails
// throws InternalError (a bug, never a wrong verdict).
CheckResult check(const History& history, const Model& model, const CheckOptions& options);

class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ariadne
