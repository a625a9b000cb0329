// The refuted rows of a corpus with their cores: what the core, explanation and proof
// tests run over.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "batch/corpus_rows.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ariadne::testing {

struct RefutedRow {
  std::string name;
  std::unique_ptr<Model> model;
  History history;
  CheckResult result;
};

// Every row of `corpus` expected not linearizable whose index is `shard` modulo
// `shards`, checked with default options (so with a minimal core), except that the
// core may take two minutes: the automatic budget (two seconds plus ten times the
// verdict) is a target for a quiet machine, and ctest runs suites side by side.
inline std::vector<RefutedRow> refuted_rows(const std::string& corpus, int shard = 0, int shards = 1) {
  std::vector<RefutedRow> rows;
  int index = 0;
  for (const batch::CorpusRow& row : batch::read_corpus_rows(corpus)) {
    if (row.expected != Verdict::not_linearizable) continue;
    if (index++ % shards != shard) continue;
    RefutedRow refuted;
    refuted.name = row.name;
    refuted.model = make_model_from_spec(row.model);
    refuted.history = build_history(read_events(row.path.string()), *refuted.model);
    refuted.result = check(refuted.history, *refuted.model, CheckOptions{.jobs = 1, .core_seconds = 120});
    rows.push_back(std::move(refuted));
  }
  return rows;
}

}  // namespace ariadne::testing
