// WGL split at quiescent points against WGL on the whole history: random histories
// made of blocks run one after another (so there are quiescent points between them,
// crashed operations aside), for every model. A piece's first linearization often
// ends in a state the next piece cannot continue from, so these runs exercise the
// backward merging too; the verdicts must always be the whole history's.
#include "certify/witness_checker.hpp"
#include "generators/atomic_history.hpp"
#include "search/search_engine.hpp"
#include "support/random_history.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <random>

using namespace ariadne;

namespace {

search::Outcome decide(search::SearchEngine& engine, std::uint64_t slice) {
  for (;;) {
    const search::Outcome o = engine.run(slice);
    if (o != search::Outcome::undecided) return o;
  }
}

search::Outcome whole_history_verdict(const EventLog& log, const Model& model) {
  const History history = build_history(log, model);
  search::SubHistory sub;
  for (const Operation& op : history.ops) sub.ops.push_back(&op);
  search::MemoryBudget memory(1ULL << 30);
  const search::StopSignal stop;
  return decide(*search::make_wgl(sub, model, memory, stop), UINT64_MAX);
}

// `blocks` random histories one after another, each with its own processes. Random
// blocks rarely chain into a linearizable whole, so each block but the last is the
// first of a few candidates that keeps the whole linearizable, when one does; the
// last is kept as drawn, so both verdicts come up.
EventLog blocks_in_sequence(const std::string& spec, const Model& model, int blocks, std::mt19937_64& rng) {
  EventLog log;
  testing::RandomHistoryShape shape;
  shape.operations = 5;
  shape.processes = 3;
  for (int b = 0; b < blocks; ++b) {
    EventLog candidate;
    for (int attempt = 0; attempt < 8; ++attempt) {
      candidate = log;
      for (Event& e : testing::random_history(spec, shape, rng).events) {
        if (e.process.is_integer()) e.process = Value::integer(e.process.as_integer() + 100 * b);
        candidate.events.push_back(std::move(e));
      }
      if (b == blocks - 1 || whole_history_verdict(candidate, model) == search::Outcome::linearizable) break;
    }
    log = std::move(candidate);
  }
  return log;
}

}  // namespace

TEST_CASE("WGL split at quiescent points gives the whole history's verdict, for every model") {
  const std::uint64_t seed = 7301;
  MESSAGE("seed ", seed);
  std::mt19937_64 rng(seed);
  search::MemoryBudget memory(1ULL << 30);
  const search::StopSignal stop;
  int linearizable = 0, refuted = 0;
  for (const std::string& spec : testing::random_history_models()) {
    const auto model = make_model_from_spec(spec);
    for (int trial = 0; trial < 60; ++trial) {
      const History history = build_history(blocks_in_sequence(spec, *model, 2 + trial % 6, rng), *model);
      search::SubHistory sub;
      for (const Operation& op : history.ops) sub.ops.push_back(&op);
      auto whole = search::make_wgl(sub, *model, memory, stop);
      auto pieces = search::make_segmented_wgl(sub, *model, memory, stop, /*min_piece_ops=*/1);
      // Small slices: the split search must resume where it stopped, mid-piece too.
      const search::Outcome expected = decide(*whole, UINT64_MAX);
      const search::Outcome got = decide(*pieces, 3);
      INFO(spec, " trial ", trial);
      REQUIRE(got == expected);
      if (got == search::Outcome::linearizable) {
        ++linearizable;
        std::vector<std::uint32_t> ids;
        for (std::uint32_t local : pieces->linearization()) ids.push_back(sub.ops[local]->id);
        const auto problem = certify::check_linearization(history, *model, ids);
        REQUIRE_MESSAGE(!problem, *problem);
      } else {
        ++refuted;
      }
    }
  }
  MESSAGE(linearizable, " linearizable, ", refuted, " refuted");
  CHECK(linearizable > 50);
  CHECK(refuted > 50);
}

TEST_CASE("a long sequential single-key history is split, so its search stays small") {
  // 200,000 writes and reads of one register by two processes taking turns: every
  // gap between operations is a quiescent point. Whole-history WGL keeps a memo
  // table keyed by 200,000-bit sets; the split search's pieces are 256 ops long.
  EventLog log;
  const int ops = 200'000;
  for (int i = 0; i < ops; ++i) {
    const std::int64_t p = i % 2;
    const bool write = i % 4 < 2;
    Event call;
    call.process = Value::integer(p);
    call.type = EventType::invoke;
    call.f = write ? "write" : "read";
    call.value = write ? Value::integer(i / 4) : Value();
    Event done = call;
    done.type = EventType::ok;
    done.value = Value::integer(i / 4);
    log.events.push_back(std::move(call));
    log.events.push_back(std::move(done));
  }
  const auto model = make_model_from_spec("register(0)");
  const History history = build_history(log, *model);
  const CheckResult r = check(history, *model, CheckOptions{.engine = Engine::wgl, .timeout_seconds = 60, .jobs = 1});
  CHECK(r.verdict == Verdict::linearizable);
  CHECK(r.linearization.size() == static_cast<std::size_t>(ops));
  CHECK(r.peak_search_bytes < (64u << 20));
  MESSAGE("200,000 sequential ops: ", r.elapsed_ms, " ms, peak search memory ", r.peak_search_bytes, " bytes");
}

TEST_CASE("a stale read among crashed ops in a long split history is refuted by the lookahead from its root") {
  // `generate atomic --model kv --keys 1 --values 5 --processes 5 --crash-rate 0.2
  // --ops 100000 --seed 1 --violation`: its pieces' runs, a fifth of their ops crashed,
  // searched on for more than 60 s before the split search asked WGL's lookahead from
  // the whole history's root (segmented_search.cpp); asked after 64 steps per op, it
  // refutes the history within a budget far below what the runs would have taken.
  const generators::AtomicShape shape{.model_spec = "kv",
                                      .operations = 100000,
                                      .processes = 5,
                                      .keys = 1,
                                      .values = 5,
                                      .crash_rate = 0.2,
                                      .violation = true,
                                      .seed = 1};
  const auto model = make_model_from_spec("kv");
  const History history = build_history(generators::generate_atomic_history(shape).log, *model);
  search::SubHistory sub;
  for (const Operation& op : history.ops) sub.ops.push_back(&op);
  search::MemoryBudget memory(1ULL << 30);
  const search::StopSignal stop;
  const auto engine = search::make_segmented_wgl(sub, *model, memory, stop);
  CHECK(engine->run(20'000'000) == search::Outcome::not_linearizable);
}
