// The SAT and SMT engines against the brute-force oracle on 400 random small histories
// per model (4,000 in all), through check(), so every linearizable answer is also replayed
// by the certificate checker. Each model is its own test case so ctest can spread
// them over cores.
//
// The same histories are also checked through a model that hides its semantics (a
// user-defined model, as far as the encoder can tell), which sends the solvers down
// the bounded-unrolling fallback instead of the model's direct encoding.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "encoder/encode.hpp"
#include "support/random_history.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace ariadne;

namespace {

// Delegates everything to a built-in model but is not one, so the encoder knows
// nothing about it but its step function.
class OpaqueModel final : public Model {
 public:
  explicit OpaqueModel(std::unique_ptr<Model> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  std::string spec() const override { return inner_->spec(); }
  std::optional<std::string> check_operation(const Operation& op) const override { return inner_->check_operation(op); }
  bool failed_is_observation(const Operation& op) const override { return inner_->failed_is_observation(op); }
  bool is_partitioned() const override { return inner_->is_partitioned(); }
  Value partition_key(const Operation& op) const override { return inner_->partition_key(op); }
  std::unique_ptr<CompiledModel> compile(std::span<const Operation* const> ops) const override {
    return inner_->compile(ops);
  }
  std::string describe_operation(const Operation& op) const override { return inner_->describe_operation(op); }

 private:
  std::unique_ptr<Model> inner_;
};

struct Tally {
  int linearizable = 0;
  int not_linearizable = 0;
};

Tally compare_with_oracle(const std::string& spec, int per_size, std::uint64_t seed, double empty_probability = 0) {
  auto model = make_model_from_spec(spec);
  OpaqueModel opaque(make_model_from_spec(spec));
  std::mt19937_64 rng(seed);
  Tally tally;
  const CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  const CheckOptions sat{.engine = Engine::sat, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  const CheckOptions smt{.engine = Engine::smt, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  int history = 0;
  int unrolled_histories = 0;
  for (int ops : {3, 5, 7, 9}) {
    testing::RandomHistoryShape shape;
    shape.operations = ops;
    shape.processes = ops <= 5 ? 3 : 5;
    shape.crash_probability = ops == 9 ? 0.4 : 0.15;
    shape.empty_probability = empty_probability;
    for (int i = 0; i < per_size; ++i, ++history) {
      EventLog log = testing::random_history(spec, shape, rng);
      History h = build_history(log, *model);
      const CheckResult expected = check(h, *model, brute);
      INFO("model ", spec, ", seed ", seed, ", history #", history, " (", ops, " ops)");
      REQUIRE(expected.verdict != Verdict::unknown);
      const CheckResult by_sat = check(h, *model, sat);
      REQUIRE(verdict_name(by_sat.verdict) == verdict_name(expected.verdict));
      const CheckResult by_smt = check(h, *model, smt);
      REQUIRE(verdict_name(by_smt.verdict) == verdict_name(expected.verdict));
      // The unrolling is exercised on the smaller half, where it is cheap, whenever the
      // model's reachable states are few enough for it.
      std::vector<const Operation*> all;
      for (const Operation& op : h.ops) all.push_back(&op);
      if (ops <= 7 && !opaque.is_partitioned() && encoder::supports(opaque, all)) {
        ++unrolled_histories;
        const CheckResult unrolled = check(h, opaque, i % 2 ? sat : smt);
        REQUIRE(verdict_name(unrolled.verdict) == verdict_name(expected.verdict));
      }
      (expected.verdict == Verdict::linearizable ? tally.linearizable : tally.not_linearizable)++;
    }
  }
  MESSAGE(spec, ": ", unrolled_histories, " histories also checked through the bounded unrolling");
  return tally;
}

void run_for(const std::string& spec, double empty_probability = 0) {
  const std::uint64_t seed = empty_probability > 0 ? 20261206 : 20261130;
  MESSAGE("solver differential test seed: ", seed);
  // 100 a size: 300 took 15-22 s a model, the suite's largest share of CI time, and
  // the fuzz targets cover more ground per second than more of the same.
  Tally t = compare_with_oracle(spec, empty_probability > 0 ? 250 : 100, seed, empty_probability);
  MESSAGE(spec, ": ", t.linearizable, " linearizable, ", t.not_linearizable, " not");
  CHECK(t.linearizable > 0);
  CHECK(t.not_linearizable > 0);
}

}  // namespace

const std::vector<std::string> kCovered{"register(0)",
                                        "cas-register(0)",
                                        "etcd",
                                        "mutex()",
                                        "set()",
                                        "unordered-queue()",
                                        "fifo-queue()",
                                        "stack()",
                                        "multi-register({:x 0 :y 0})",
                                        "kv"};

TEST_CASE("the solver differential test has a case for every model with a generator") {
  CHECK(testing::random_history_models() == kCovered);
}

TEST_SUITE("slow") {
  TEST_CASE("SAT and SMT agree with brute force on random register histories") { run_for("register(0)"); }
  TEST_CASE("SAT and SMT agree with brute force on random cas-register histories") { run_for("cas-register(0)"); }
  TEST_CASE("SAT and SMT agree with brute force on random etcd histories") { run_for("etcd"); }
  TEST_CASE("SAT and SMT agree with brute force on random mutex histories") { run_for("mutex()"); }
  TEST_CASE("SAT and SMT agree with brute force on random set histories") { run_for("set()"); }
  TEST_CASE("SAT and SMT agree with brute force on random unordered-queue histories") { run_for("unordered-queue()"); }
  TEST_CASE("SAT and SMT agree with brute force on random fifo-queue histories") { run_for("fifo-queue()"); }
  TEST_CASE("SAT and SMT agree with brute force on random stack histories") { run_for("stack()"); }
  TEST_CASE("SAT and SMT agree with brute force on random multi-register histories") {
    run_for("multi-register({:x 0 :y 0})");
  }
  TEST_CASE("SAT and SMT agree with brute force on random kv histories") { run_for("kv"); }
  // Removals that returned :empty (issue 49), a third of the removals.
  TEST_CASE("SAT and SMT agree with brute force on unordered-queue histories with empty observations") {
    run_for("unordered-queue()", 0.35);
  }
  TEST_CASE("SAT and SMT agree with brute force on fifo-queue histories with empty observations") {
    run_for("fifo-queue()", 0.35);
  }
  TEST_CASE("SAT and SMT agree with brute force on stack histories with empty observations") {
    run_for("stack()", 0.35);
  }
}
