// The cross-check report leads with the answer a referee is asked for (did anything
// disagree?) only after the tables that say how much was compared: a clean result
// over ten files and one over three hundred read the same otherwise.
#include "cli/cross_check_report.hpp"

#include "answer/json_writer.hpp"
#include "answer/report_numbers.hpp"
#include "answer/terminal.hpp"
#include "answer/text_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

namespace ariadne::cli {

using batch::ImportedResult;

using answer::format_number;
using answer::JsonWriter;
using answer::round_ms;
using answer::Style;
using answer::TextTable;

namespace {

struct EngineTally {
  std::size_t linearizable = 0, not_linearizable = 0, unknown = 0, not_applicable = 0, failed = 0, contradicts = 0;
  double ms = 0;
};

// One analyzer of the imported checker over the rows. `unknown` counts every result
// that did not decide; `timeout`, `threw` and `skipped` say why for some of them.
struct AnalyzerTally {
  std::size_t agree = 0, disagree = 0, unknown = 0, timeout = 0, threw = 0, skipped = 0, missing = 0;
  double ms = 0;
};

struct Totals {
  std::vector<EngineTally> engines;
  std::size_t problems = 0;   // rows with at least one problem
  std::size_t undecided = 0;  // rows no engine decided
  std::size_t witnesses_replayed = 0;
  std::size_t refutations_attempted = 0;
  std::size_t refutations_certified = 0;
  std::size_t refutations_beyond_encoder = 0;  // minimal core, no proof possible
  std::vector<std::size_t> core_sizes;
  std::size_t imported_agree = 0, imported_disagree = 0, imported_unknown = 0, imported_missing = 0;
  std::map<std::string, AnalyzerTally> analyzers;  // the imported checker's, by name
};

bool contradicts_expected(const CrossCheckRow& row, const EngineRun& run) {
  return run.verdict && *run.verdict != Verdict::unknown && row.row.expected && *row.row.expected != Verdict::unknown &&
         *run.verdict != *row.row.expected;
}

// The verdict the imported checker is judged against: the engines' agreed verdict,
// else the expected one.
std::optional<Verdict> reference_verdict(const CrossCheckRow& row) {
  if (row.agreed) return row.agreed;
  if (row.row.expected && *row.row.expected != Verdict::unknown) return row.row.expected;
  return std::nullopt;
}

Totals tally(const CrossCheckResult& result) {
  Totals totals;
  totals.engines.resize(result.engines.size());
  if (result.imported) {
    for (const std::string& analyzer : result.imported->analyzers) totals.analyzers[analyzer] = {};
  }
  for (const CrossCheckRow& row : result.rows) {
    totals.problems += row.problems.empty() ? 0 : 1;
    totals.undecided += row.error.empty() && !row.agreed && row.problems.empty() ? 1 : 0;
    for (std::size_t e = 0; e < row.runs.size(); ++e) {
      const EngineRun& run = row.runs[e];
      EngineTally& t = totals.engines[e];
      t.ms += run.ms;
      totals.witnesses_replayed += run.witness_replayed ? 1 : 0;
      if (!run.applicable) {
        ++t.not_applicable;
      } else if (!run.verdict) {
        ++t.failed;
      } else if (*run.verdict == Verdict::linearizable) {
        ++t.linearizable;
      } else if (*run.verdict == Verdict::not_linearizable) {
        ++t.not_linearizable;
      } else {
        ++t.unknown;
      }
      if (!run.error.empty() && run.verdict) ++t.failed;  // a witness that did not replay
      t.contradicts += contradicts_expected(row, run) ? 1 : 0;
    }
    if (row.refutation.attempted) {
      ++totals.refutations_attempted;
      if (row.refutation.certified) {
        ++totals.refutations_certified;
        totals.core_sizes.push_back(row.refutation.core_size);
      }
      totals.refutations_beyond_encoder += row.refutation.proof_beyond_encoder ? 1 : 0;
    }
    if (result.imported) {
      const auto reference = reference_verdict(row);
      if (row.imported_missing) {
        ++totals.imported_missing;
      } else if (*row.imported == Verdict::unknown) {
        ++totals.imported_unknown;
      } else if (reference && *reference != *row.imported) {
        ++totals.imported_disagree;
      } else {
        ++totals.imported_agree;
      }
      for (const std::string& analyzer : result.imported->analyzers) {
        AnalyzerTally& t = totals.analyzers[analyzer];
        const auto theirs = std::ranges::find(row.imported_results, analyzer, &ImportedResult::analyzer);
        if (theirs == row.imported_results.end()) {
          ++t.missing;
          continue;
        }
        t.ms += theirs->ms.value_or(0);
        if (theirs->verdict == Verdict::unknown) {
          ++t.unknown;
          t.timeout += theirs->cause == "timeout" ? 1 : 0;
          t.threw += theirs->error.empty() ? 0 : 1;
          t.skipped += theirs->skipped.empty() ? 0 : 1;
        } else if (reference && *reference != theirs->verdict) {
          ++t.disagree;
        } else {
          ++t.agree;
        }
      }
    }
  }
  return totals;
}

std::string row_label(const CrossCheckOptions& options, const CrossCheckRow& row) {
  return options.corpora.size() > 1 ? options.corpora[row.corpus] + ": " + row.row.name : row.row.name;
}

std::string median_text(std::vector<std::size_t> values) {
  if (values.empty()) return "-";
  std::sort(values.begin(), values.end());
  return std::to_string(values[values.size() / 2]);
}

std::string verdict_or_null(const std::optional<Verdict>& verdict) {
  return verdict ? std::string(verdict_name(*verdict)) : "-";
}

}  // namespace

std::string format_cross_check_text(const CrossCheckOptions& options, const CrossCheckResult& result,
                                    const Style& style) {
  using Align = TextTable::Align;
  const Totals totals = tally(result);
  std::string engines;
  for (const Engine engine : result.engines)
    engines += (engines.empty() ? "" : ", ") + std::string(engine_name(engine));
  std::string out =
      "cross-check: " + std::to_string(result.rows.size()) + " files from " + std::to_string(options.corpora.size()) +
      (options.corpora.size() == 1 ? " corpus" : " corpora") + "; engines " + engines + "; " +
      (options.timeout_seconds > 0 ? "at most " + format_number(options.timeout_seconds, 1) + " s" : "no time limit") +
      " per engine and file\n\n";

  TextTable by_engine;
  by_engine.add_column("engine");
  for (const char* header : {"linearizable", "not-linearizable", "unknown", "n/a", "failed", "contradicts"}) {
    by_engine.add_column(header, Align::right);
  }
  by_engine.add_column("time (s)", Align::right);
  for (std::size_t e = 0; e < result.engines.size(); ++e) {
    const EngineTally& t = totals.engines[e];
    by_engine.add_row({std::string(engine_name(result.engines[e])), std::to_string(t.linearizable),
                       std::to_string(t.not_linearizable), std::to_string(t.unknown), std::to_string(t.not_applicable),
                       std::to_string(t.failed), std::to_string(t.contradicts), format_number(t.ms / 1000, 2)});
  }
  out += by_engine.render() + "\n";

  TextTable by_corpus;
  by_corpus.add_column("corpus");
  for (const char* header : {"files", "agreed", "problems", "undecided"}) by_corpus.add_column(header, Align::right);
  for (std::size_t c = 0; c < options.corpora.size(); ++c) {
    std::size_t files = 0, agreed = 0, problems = 0, undecided = 0;
    for (const CrossCheckRow& row : result.rows) {
      if (row.corpus != c) continue;
      ++files;
      if (!row.problems.empty()) {
        ++problems;
      } else if (row.agreed) {
        ++agreed;
      } else {
        ++undecided;
      }
    }
    by_corpus.add_row({options.corpora[c], std::to_string(files), std::to_string(agreed), std::to_string(problems),
                       std::to_string(undecided)});
  }
  out += by_corpus.render() + "\n";

  out += "  certificates: " + std::to_string(totals.witnesses_replayed) + " witnesses replayed";
  if (options.proofs) {
    out += "; " + std::to_string(totals.refutations_certified) + " of " + std::to_string(totals.refutations_attempted) +
           " refuted files certified by a minimal core and a verified DRAT proof (median core " +
           median_text(totals.core_sizes) + " ops)";
    if (totals.refutations_beyond_encoder > 0) {
      out += "; " + std::to_string(totals.refutations_beyond_encoder) +
             " by a minimal core alone (their cores' histories are past what the encoder takes, so no proof)";
    }
  } else {
    out += "; refutations not certified (--no-proofs)";
  }
  out += "\n";
  if (result.imported) {
    out += "  " + result.imported->checker + " (" + result.imported->source +
           "): " + std::to_string(totals.imported_agree) + " agree, " + std::to_string(totals.imported_disagree) +
           " disagree, " + std::to_string(totals.imported_unknown) + " unknown, " +
           std::to_string(totals.imported_missing) + " missing\n";
    for (const std::string& analyzer : result.imported->analyzers) {
      const AnalyzerTally& t = totals.analyzers.at(analyzer);
      out += "    " + analyzer + ": " + std::to_string(t.agree) + " agree, " + std::to_string(t.disagree) +
             " disagree, " + std::to_string(t.unknown) + " unknown (" + std::to_string(t.timeout) + " timed out, " +
             std::to_string(t.threw) + " threw, " + std::to_string(t.skipped) + " not run), " +
             std::to_string(t.missing) + " missing; " + format_number(t.ms / 1000, 1) + " s in all\n";
    }
  }

  if (totals.problems != 0) {
    out += "\n" +
           style.red("problems in " + std::to_string(totals.problems) + " of " + std::to_string(result.rows.size()) +
                     " files:") +
           "\n";
    for (const CrossCheckRow& row : result.rows) {
      if (row.problems.empty()) continue;
      out += "  " + row_label(options, row) + " (" + row.row.model + ", expected " + verdict_or_null(row.row.expected) +
             ")\n";
      for (const std::string& problem : row.problems) out += "    - " + problem + "\n";
    }
  }
  if (totals.undecided != 0) {
    out += "\n" + style.yellow("undecided by every engine within the time limit:") + "\n";
    for (const CrossCheckRow& row : result.rows) {
      if (row.problems.empty() && row.error.empty() && !row.agreed) out += "  " + row_label(options, row) + "\n";
    }
  }
  out += "\n";
  if (totals.problems == 0) {
    out += style.green(std::string("no disagreements: every decided answer agrees with the others and the expected "
                                   "verdict, and every ") +
                       (options.proofs ? "certificate replays" : "witness replays (refutations not certified)")) +
           "  wall " + format_number(result.wall_ms / 1000, 1) + " s\n";
  } else {
    out += style.red(std::to_string(totals.problems) + " files with problems") + "  wall " +
           format_number(result.wall_ms / 1000, 1) + " s\n";
  }
  return out;
}

std::string format_cross_check_json(const CrossCheckOptions& options, const CrossCheckResult& result) {
  const Totals totals = tally(result);
  JsonWriter json;
  json.begin_object();
  json.key("corpora").begin_array();
  for (const std::string& corpus : options.corpora) json.value(corpus);
  json.end_array();
  json.key("engines").begin_array();
  for (const Engine engine : result.engines) json.value(engine_name(engine));
  json.end_array();
  json.field("timeout_seconds", options.timeout_seconds);
  json.key("rows").begin_array();
  for (const CrossCheckRow& row : result.rows) {
    json.begin_object();
    json.field("corpus", options.corpora[row.corpus]);
    json.field("file", row.row.name);
    json.field("model", row.row.model);
    if (row.row.expected) {
      json.field("expected", verdict_name(*row.row.expected));
    } else {
      json.key("expected").null();
    }
    if (row.agreed) {
      json.field("agreed", verdict_name(*row.agreed));
    } else {
      json.key("agreed").null();
    }
    if (!row.error.empty()) json.field("error", row.error);
    json.key("runs").begin_array();
    for (const EngineRun& run : row.runs) {
      json.begin_object();
      json.field("engine", engine_name(run.engine));
      json.field("applicable", run.applicable);
      if (run.verdict) {
        json.field("verdict", verdict_name(*run.verdict));
      } else {
        json.key("verdict").null();
      }
      json.field("ms", round_ms(run.ms));
      if (!run.reason.empty()) json.field("reason", run.reason);
      if (!run.error.empty()) json.field("error", run.error);
      json.end_object();
    }
    json.end_array();
    if (row.refutation.attempted) {
      json.key("refutation").begin_object();
      json.field("certified", row.refutation.certified);
      json.field("core_size", static_cast<std::uint64_t>(row.refutation.core_size));
      json.field("core_minimal", row.refutation.core_minimal);
      json.field("ms", round_ms(row.refutation.ms));
      if (!row.refutation.problem.empty()) json.field("problem", row.refutation.problem);
      if (row.refutation.stopped_by_limit) json.field("stopped_by_limit", true);
      if (row.refutation.proof_beyond_encoder) json.field("proof_beyond_encoder", true);
      json.end_object();
    }
    if (result.imported) {
      if (row.imported) {
        json.field("imported", verdict_name(*row.imported));
      } else {
        json.key("imported").null();
      }
      if (!row.imported_results.empty()) {
        json.key("imported_results").begin_array();
        for (const ImportedResult& theirs : row.imported_results) {
          json.begin_object();
          if (!theirs.analyzer.empty()) json.field("analyzer", theirs.analyzer);
          json.field("verdict", verdict_name(theirs.verdict));
          if (theirs.ms) json.field("ms", round_ms(*theirs.ms));
          if (!theirs.error.empty()) json.field("error", theirs.error);
          if (!theirs.cause.empty()) json.field("cause", theirs.cause);
          if (!theirs.skipped.empty()) json.field("skipped", theirs.skipped);
          if (!theirs.model.empty()) json.field("model", theirs.model);
          json.end_object();
        }
        json.end_array();
      }
    }
    json.key("problems").begin_array();
    for (const std::string& problem : row.problems) json.value(problem);
    json.end_array();
    json.end_object();
  }
  json.end_array();

  json.key("totals").begin_object();
  json.field("files", static_cast<std::uint64_t>(result.rows.size()));
  json.field("problems", static_cast<std::uint64_t>(totals.problems));
  json.field("undecided", static_cast<std::uint64_t>(totals.undecided));
  json.field("witnesses_replayed", static_cast<std::uint64_t>(totals.witnesses_replayed));
  json.field("refutations_attempted", static_cast<std::uint64_t>(totals.refutations_attempted));
  json.field("refutations_certified", static_cast<std::uint64_t>(totals.refutations_certified));
  json.field("refutations_beyond_encoder", static_cast<std::uint64_t>(totals.refutations_beyond_encoder));
  json.key("engines").begin_object();
  for (std::size_t e = 0; e < result.engines.size(); ++e) {
    const EngineTally& t = totals.engines[e];
    json.key(engine_name(result.engines[e])).begin_object();
    json.field("linearizable", static_cast<std::uint64_t>(t.linearizable));
    json.field("not_linearizable", static_cast<std::uint64_t>(t.not_linearizable));
    json.field("unknown", static_cast<std::uint64_t>(t.unknown));
    json.field("not_applicable", static_cast<std::uint64_t>(t.not_applicable));
    json.field("failed", static_cast<std::uint64_t>(t.failed));
    json.field("contradicts_expected", static_cast<std::uint64_t>(t.contradicts));
    json.field("ms", round_ms(t.ms));
    json.end_object();
  }
  json.end_object();
  if (result.imported) {
    json.key("imported").begin_object();
    json.field("checker", result.imported->checker);
    json.field("source", result.imported->source);
    json.field("agree", static_cast<std::uint64_t>(totals.imported_agree));
    json.field("disagree", static_cast<std::uint64_t>(totals.imported_disagree));
    json.field("unknown", static_cast<std::uint64_t>(totals.imported_unknown));
    json.field("missing", static_cast<std::uint64_t>(totals.imported_missing));
    if (!totals.analyzers.empty()) {
      json.key("analyzers").begin_object();
      for (const std::string& analyzer : result.imported->analyzers) {
        const AnalyzerTally& t = totals.analyzers.at(analyzer);
        json.key(analyzer).begin_object();
        const std::pair<const char*, std::size_t> counts[] = {
            {"agree", t.agree}, {"disagree", t.disagree}, {"unknown", t.unknown}, {"timed_out", t.timeout},
            {"threw", t.threw}, {"not_run", t.skipped},   {"missing", t.missing}};
        for (const auto& [name, n] : counts) json.field(name, static_cast<std::uint64_t>(n));
        json.field("ms", round_ms(t.ms));
        json.end_object();
      }
      json.end_object();
    }
    json.end_object();
  }
  json.field("wall_ms", round_ms(result.wall_ms));
  json.end_object();
  json.end_object();
  return json.text() + "\n";
}

}  // namespace ariadne::cli
