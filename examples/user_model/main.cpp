// A user-defined model checked through ariadne's public API: a counter with
// :increment and :read, and three histories of it. One comes as EDN text, as a
// Jepsen test would write it; one is recorded event by event, as a C++ test harness
// would; one holds an op the counter does not know.
//
// It is also a test of the installed package (tests/CMakeLists.txt, label install):
// each answer was worked out by hand (see the comments at each history), and the
// program exits 1 when check() says anything else.
#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// A counter: :increment adds one, :read returns the count.
struct Counter : ariadne::StepModel {
  Counter() : StepModel("counter", ariadne::Value::integer(0), {"increment", "read"}) {}
  std::optional<ariadne::Value> step(const ariadne::Value& count, const ariadne::Operation& op) const override {
    if (op.f == "increment") return ariadne::Value::integer(count.as_integer() + 1);
    if (op.value.is_nil() || op.value == count) return count;  // a read (nil: it crashed)
    return std::nullopt;
  }
};

// Process 1 reads while process 0 increments, and sees the increment; then process 0
// reads. Op ids are the positions of the invocations: 0, 1 and 4. Real time leaves
// one order: the increment, then process 1's read, then process 0's.
constexpr const char* kConcurrentRead = R"(
{:process 0 :type :invoke :f :increment}
{:process 1 :type :invoke :f :read}
{:process 0 :type :ok     :f :increment}
{:process 1 :type :ok     :f :read :value 1}
{:process 0 :type :invoke :f :read}
{:process 0 :type :ok     :f :read :value 1}
)";

// Process 1 reads 0 after process 0's increment (op 0) has completed: a stale read
// (op 2). Process 2's increment crashes, so it may or may not have happened, and the
// last read of 2 needs it to have. The stale read and the increment before it are the
// whole of the problem, so they are the minimal core: {0, 2}.
ariadne::EventLog recorded_stale_read() {
  using enum ariadne::EventType;
  ariadne::EventLog log{.source = "recorded stale read", .events = {}};
  const auto record = [&log](std::int64_t process, ariadne::EventType type, std::string f, ariadne::Value value = {}) {
    ariadne::Event& event = log.events.emplace_back();
    event.process = ariadne::Value::integer(process);
    event.type = type;
    event.f = std::move(f);
    event.value = std::move(value);
  };
  record(0, invoke, "increment");
  record(0, ok, "increment");
  record(1, invoke, "read");
  record(1, ok, "read", ariadne::Value::integer(0));
  record(2, invoke, "increment");
  record(2, info, "increment");
  record(1, invoke, "read");
  record(1, ok, "read", ariadne::Value::integer(2));
  return log;
}

// "increment (op 0, process 0)" for each op id.
std::string describe(const ariadne::History& history, const ariadne::Model& model,
                     const std::vector<std::uint32_t>& ids) {
  std::string text;
  for (std::uint32_t id : ids) {
    const auto op = std::ranges::find(history.ops, id, &ariadne::Operation::id);
    text += "\n    " + model.describe_operation(*op) + " (op " + std::to_string(id) + ", process " +
            std::to_string(op->process) + ")";
  }
  return text;
}

// Checks the history and prints the verdict with its witness or its core; false when
// the verdict, or the witness or core it comes with, is not the expected one.
bool check_and_report(const ariadne::History& history, const ariadne::Model& model, ariadne::Verdict expected,
                      const std::vector<std::uint32_t>& expected_ops) {
  const ariadne::CheckOptions options{.timeout_seconds = 10, .jobs = 1};
  const ariadne::CheckResult result = ariadne::check(history, model, options);
  std::cout << history.source << ": " << ariadne::verdict_name(result.verdict) << " (" << result.engine << ", "
            << result.elapsed_ms << " ms)\n";
  switch (result.verdict) {
    case ariadne::Verdict::linearizable:
      std::cout << "  witness, in order:" << describe(history, model, result.linearization) << "\n";
      return expected == ariadne::Verdict::linearizable && result.linearization == expected_ops;
    case ariadne::Verdict::not_linearizable:
      std::cout << "  minimal core:" << describe(history, model, result.core) << "\n" << result.explanation << "\n";
      return expected == ariadne::Verdict::not_linearizable && result.core == expected_ops && result.core_minimal;
    case ariadne::Verdict::unknown: std::cout << "  " << result.reason << "\n"; return false;
  }
  return false;
}

// A model rejects ops it does not know as bad input, at the place they were written:
// here the completion on line 3 (the text starts with a newline).
bool rejects_unknown_operation(const ariadne::Model& model) {
  const char* text = "\n{:process 0 :type :invoke :f :decrement}\n{:process 0 :type :ok :f :decrement}\n";
  try {
    ariadne::build_history(ariadne::parse_events(text, "typo.edn", ariadne::Format::edn), model);
  } catch (const ariadne::InputError& e) {
    std::cout << "typo.edn: rejected: " << e.what() << "\n";
    return e.pos().line == 3 && e.message() == "counter: unknown operation :decrement (expected :increment or :read)";
  }
  std::cout << "typo.edn: accepted an unknown operation\n";
  return false;
}

}  // namespace

int main() {
  try {
    const Counter counter;
    const ariadne::History concurrent_read = ariadne::build_history(
        ariadne::parse_events(kConcurrentRead, "concurrent read", ariadne::Format::edn), counter);
    const ariadne::History stale_read = ariadne::build_history(recorded_stale_read(), counter);

    bool as_expected = check_and_report(concurrent_read, counter, ariadne::Verdict::linearizable, {0, 1, 4});
    as_expected &= check_and_report(stale_read, counter, ariadne::Verdict::not_linearizable, {0, 2});
    as_expected &= rejects_unknown_operation(counter);
    std::cout << (as_expected ? "all as expected\n" : "UNEXPECTED ANSWER\n");
    return as_expected ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n";
    return 1;
  }
}
