// One row's certificate. The answer is written first and then checked from the files
// alone, the way a reader of the certificate would: the witness is read back from its
// JSON and replayed against a freshly parsed history by the witness checker, and the
// proof directory is verified by verify-proof's own code (re-encoding its core, then
// our DRAT checker). Nothing the engines computed in memory is trusted by the replay.
#include "batch/row_certificate.hpp"

#include <ariadne/certificate.hpp>
#include "answer/check_report.hpp"
#include "answer/core_proof.hpp"
#include "answer/exit_status.hpp"
#include "answer/report_numbers.hpp"
#include "answer/text_files.hpp"
#include "batch/row_check.hpp"
#include "batch/witness_file.hpp"
#include "refute/proof_writer.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <algorithm>
#include <chrono>

namespace ariadne::batch {

using answer::CheckReport;
using answer::current_failure;
using answer::describe_written_proof;
using answer::format_check_json;
using answer::ms_since;
using answer::ReportClock;
using answer::SideOutput;
using answer::write_core_proof_files;
using answer::write_text_file;

namespace fs = std::filesystem;

namespace {

using Clock = ReportClock;

fs::path with_suffix(const fs::path& stem, const std::string& suffix) { return fs::path(stem.string() + suffix); }

// Replays the witness stored in `json` against the row's file, parsed again.
std::string replay_witness(const CorpusRow& row, const fs::path& json) {
  const auto model = make_model_from_spec(row.model);
  const History history = read_history(row.path.string(), *model);
  const std::vector<std::uint32_t> order = read_witness_file(json.string());
  if (const auto problem = verify_linearization(history, *model, order)) {
    return "the witness in " + json.string() + " does not replay: " + *problem;
  }
  return {};
}

void certify_checked_row(const CorpusRow& row, const CheckOptions& row_options, const fs::path& stem,
                         std::chrono::steady_clock::duration proof_budget, RowCertificate& certificate) {
  // The row's limits span everything done for it: reading, the check, the proof and
  // its verification. A proof cut short by them leaves the row uncertified, saying so.
  RowCheck row_check(row_options);
  const Limits& limits = row_check.limits;
  CheckOptions& options = row_check.options;
  // With a time limit, a core budget asked for may take half of it, so that the proof
  // and its check have the other half (the automatic budget is smaller than that
  // whenever the verdict took under a twentieth of the limit).
  if (options.timeout_seconds > 0 && options.core_seconds > 0) {
    options.core_seconds = std::min(options.core_seconds, options.timeout_seconds / 2);
  }
  const auto model = make_model_from_spec(row.model);
  limits.enter(Phase::reading);
  const History history = read_history(row.path.string(), *model, Format::auto_detect, limits);
  const auto check_start = Clock::now();
  const CheckResult result = check(history, *model, options);
  certificate.check_ms = ms_since(check_start);
  certificate.verdict = result.verdict;
  certificate.engine = result.engine;
  certificate.core_size = result.core.size();
  certificate.core_minimal = result.core_minimal;
  if (result.verdict == Verdict::unknown) {
    certificate.problem = "no certificate: the answer is unknown (" + result.reason + ")";
    certificate.stopped_by = result.limit;
    return;
  }

  const auto certify_start = Clock::now();
  fs::create_directories(stem.parent_path());
  CheckReport report;
  report.file = row.path.string();
  report.model_spec = model->spec();
  report.history = &history;
  report.result = &result;
  report.core_shrunk = options.minimal_core;
  if (result.verdict == Verdict::not_linearizable) {
    certificate.proof_dir = with_suffix(stem, ".proof");
    fs::remove_all(certificate.proof_dir);
    SideOutput proof;
    proof.path = certificate.proof_dir.string();
    limits.enter(Phase::proof);
    try {
      const refute::ProofWritten written =
          write_core_proof_files(proof.path, history, *model, result, limits, proof_budget);
      proof.written = true;
      proof.summary = describe_written_proof(proof.path, written);
      certificate.proof_covers_whole_partition = written.whole_partition;
    } catch (const refute::ProofBeyondEncoder& beyond) {
      proof.reason = "beyond-encoder";
      proof.summary = beyond.what();
      certificate.problem = beyond.what();
      certificate.proof_beyond_encoder = true;
    }
    report.proof = std::move(proof);
  }
  certificate.answer_json = with_suffix(stem, ".json");
  if (!write_text_file(certificate.answer_json, format_check_json(report))) {
    throw UsageError("cannot write " + certificate.answer_json.string());
  }

  if (result.verdict == Verdict::linearizable) {
    certificate.problem = replay_witness(row, certificate.answer_json);
  } else if (!certificate.proof_beyond_encoder) {
    const ProofCheck proof =
        verify_proof(certificate.proof_dir.string(), [&limits] { return limits.reached() != Limit::none; });
    if (proof.stopped) {
      certificate.problem = "no certificate: the proof's check was stopped, " + limits.describe();
      certificate.stopped_by = limits.first_reached();
    } else if (!proof.valid) {
      certificate.problem = "the proof in " + certificate.proof_dir.string() + " does not check: " + proof.failure;
    }
  }
  certificate.certified = certificate.problem.empty();
  certificate.certify_ms = ms_since(certify_start);
}

}  // namespace

RowCertificate certify_row(const CorpusRow& row, const CheckOptions& options, const fs::path& stem,
                           std::chrono::steady_clock::duration proof_budget) {
  RowCertificate certificate;
  if (!row.error.empty()) {
    certificate.problem = row.error;
    return certificate;
  }
  try {
    certify_checked_row(row, options, stem, proof_budget, certificate);
  } catch (const LimitReached& stopped) {
    certificate.problem = std::string("no certificate: ") + stopped.what();
    certificate.stopped_by = stopped.limit();
  } catch (...) {
    certificate.problem = current_failure().message;
  }
  return certificate;
}

}  // namespace ariadne::batch
