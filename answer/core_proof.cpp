// See core_proof.hpp.
#include "answer/core_proof.hpp"

#include "refute/proof_writer.hpp"

#include "answer/exit_status.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <vector>

namespace ariadne::answer {

refute::ProofWritten write_core_proof_files(const std::string& dir, const History& history, const Model& model,
                                            const CheckResult& result, const Limits& limits,
                                            std::chrono::steady_clock::duration core_attempt) {
  if (result.verdict != Verdict::not_linearizable || result.core.empty()) {
    throw UsageError(
        "no proof written: a proof is for a not-linearizable answer (a linearizable one's is its witness)");
  }
  // The core lies in one partition, whose ops check() kept: the proof relaxes the
  // rest of that partition. Ops are in id order, which is call order.
  std::vector<const Operation*> partition;
  std::vector<std::uint32_t> core;
  partition.reserve(result.failing_partition_ops.size());
  for (const std::uint32_t id : result.failing_partition_ops) {
    const auto it = std::lower_bound(history.ops.begin(), history.ops.end(), id,
                                     [](const Operation& op, std::uint32_t wanted) { return op.id < wanted; });
    if (it == history.ops.end() || it->id != id) throw InternalError("--proof: the result names an unknown op");
    if (std::binary_search(result.core.begin(), result.core.end(), id)) {
      core.push_back(static_cast<std::uint32_t>(partition.size()));
    }
    partition.push_back(&*it);
  }
  if (core.size() != result.core.size()) throw InternalError("--proof: the core lies outside the failing partition");
  try {
    return refute::write_proof(dir, partition, core, model, limits, core_attempt, result.consistency);
  } catch (const LimitReached&) {
    throw;
  } catch (const refute::ProofBeyondEncoder& e) {
    throw refute::ProofBeyondEncoder(std::string("--proof: ") + e.what());
  } catch (const std::logic_error& e) {
    throw InternalError(std::string("--proof: ") + e.what());
  } catch (const std::exception& e) {
    throw UsageError(std::string("--proof: ") + e.what());
  }
}

std::string describe_written_proof(const std::string& dir, const refute::ProofWritten& written) {
  const std::string scope =
      written.whole_partition
          ? "the solver could not refute the minimal core's formula in time, so this proves the whole partition (" +
                std::to_string(written.core_ops) + " ops); "
          : "";
  return "proof written to " + dir + ": " + scope + std::to_string(written.base_clauses) + " clauses, " +
         std::to_string(written.lemmas) + " lemmas, DRAT " + std::to_string(written.proof_bytes) +
         " bytes; check it with: ariadne verify-proof " + dir;
}

SideOutput write_core_proof(const std::string& dir, const History& history, const Model& model,
                            const CheckResult& result, const Limits& limits) {
  SideOutput proof;
  proof.path = dir;
  if (result.verdict != Verdict::not_linearizable || result.core.empty()) {
    proof.reason = "not-refuted";
    proof.summary = "no proof written: a proof is for a not-linearizable answer (a linearizable one's is its witness)";
    return proof;
  }
  try {
    limits.enter(Phase::proof);
    if (const Limit limit = limits.reached(); limit != Limit::none) {
      throw LimitReached(limit, "no proof: " + limits.describe(limit));
    }
    proof.summary = describe_written_proof(dir, write_core_proof_files(dir, history, model, result, limits));
    proof.written = true;
  } catch (const LimitReached& stopped) {
    proof.reason = std::string(limit_name(stopped.limit()));
    proof.summary = stopped.what();
  } catch (const refute::ProofBeyondEncoder& beyond) {
    proof.reason = "beyond-encoder";
    proof.summary = beyond.what();
  } catch (const std::bad_alloc&) {
    // The allocator refused before the memory watch saw the limit passed.
    limits.note_memory_exceeded();
    proof.reason = std::string(limit_name(Limit::memory));
    proof.summary = "no proof: out of memory during the proof";
  } catch (...) {
    const Failure failure = current_failure();
    proof.reason = failure.exit_status == kExitInternal ? "error" : "write-failed";
    proof.summary = failure.message;
  }
  return proof;
}

}  // namespace ariadne::answer
