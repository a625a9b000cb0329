// The violation in one sentence (explain/why.hpp): on every refuted row of our corpus
// and of the shared corpora, the sentence names only ops of the core (or the failing
// op), each by its own description and process, and what it says of time holds in the
// history; and each model family's shapes read as they should on small histories.
#include <ariadne/check.hpp>

#include "support/core_rows.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

using namespace ariadne;

namespace {

const std::string kSourceDir = ARIADNE_SOURCE_DIR;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const Operation* op_by_id(const History& history, std::uint32_t id) {
  for (const Operation& op : history.ops) {
    if (op.id == id) return &op;
  }
  return nullptr;
}

// The sentence against the history and the core: every op id it mentions ("op 84",
// "ops 3, 20 and 43", "(op 73, process 0)") is in the core or is the failing op; every
// "(op N, process P)" follows the op's own description and has its process; why_ops
// covers the core; and a "late" op began after the refused op completed.
void check_why(const History& history, const Model& model, const CheckResult& result) {
  const std::string& why = result.why;
  INFO("why: ", why);
  REQUIRE_FALSE(why.empty());
  CHECK(why.back() == '.');
  std::set<std::uint32_t> allowed(result.core.begin(), result.core.end());
  if (result.failing_op) allowed.insert(*result.failing_op);

  static const std::regex lists(R"(\bops? (\d+(?:(?:, | and )\d+)*))");
  std::size_t mentioned = 0;
  for (auto it = std::sregex_iterator(why.begin(), why.end(), lists); it != std::sregex_iterator(); ++it) {
    static const std::regex number(R"(\d+)");
    const std::string ids = (*it)[1].str();
    for (auto n = std::sregex_iterator(ids.begin(), ids.end(), number); n != std::sregex_iterator(); ++n) {
      const auto id = static_cast<std::uint32_t>(std::stoul(n->str()));
      CHECK_MESSAGE(allowed.count(id) == 1, "op ", id, " is neither in the core nor the failing op");
      ++mentioned;
    }
  }
  static const std::regex named(R"(\(op (\d+), process (-?\d+)(?:, failed|, crashed)?\))");
  for (auto it = std::sregex_iterator(why.begin(), why.end(), named); it != std::sregex_iterator(); ++it) {
    const auto id = static_cast<std::uint32_t>(std::stoul((*it)[1].str()));
    const Operation* op = op_by_id(history, id);
    REQUIRE(op != nullptr);
    CHECK(std::to_string(op->process) == (*it)[2].str());
    // The description just before "(op N": the op's own, with its own values.
    // An independent history's sentence speaks of the key's own ops: [k v] is v there.
    std::string description = shorten(model.describe_operation(*op), 80) + " ";
    const bool keyed = why.rfind("Key ", 0) == 0 && op->value.is_sequential() && op->value.elements().size() == 2;
    if (keyed) description = op->f + " " + shorten(op->value.elements()[1].to_edn(), 80) + " ";
    const auto at = static_cast<std::size_t>(it->position(0));
    REQUIRE(at >= description.size());
    std::string before = why.substr(at - description.size(), description.size());
    before[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(before[0])));  // a sentence's capital
    CHECK_MESSAGE(before == description, "op ", id, " is quoted as '", before, "'");
  }
  CHECK(mentioned > 0);

  std::set<std::uint32_t> covered;
  const Operation* refused = nullptr;
  for (const WhyOp& named_op : result.why_ops) {
    covered.insert(named_op.op);
    CHECK(allowed.count(named_op.op) == 1);
    if (named_op.role == WhyRole::refused) refused = op_by_id(history, named_op.op);
  }
  for (const std::uint32_t id : result.core) CHECK(covered.count(id) == 1);
  if (refused) {
    for (const WhyOp& named_op : result.why_ops) {
      if (named_op.role != WhyRole::late) continue;
      CHECK(must_precede(*refused, *op_by_id(history, named_op.op), result.consistency));
    }
  }
}

std::size_t check_corpus(const std::string& corpus) {
  std::size_t rows = 0;
  for (const testing::RefutedRow& row : testing::refuted_rows(corpus)) {
    INFO("row ", row.name);
    REQUIRE(row.result.verdict == Verdict::not_linearizable);
    check_why(row.history, *row.model, row.result);
    ++rows;
  }
  return rows;
}

// The check of a small history, with its core and sentence.
CheckResult checked(const testing::EventScript& script, const std::string& spec, History* out = nullptr) {
  const auto model = make_model_from_spec(spec);
  History history = script.build(*model);
  CheckResult result = check(history, *model, CheckOptions{.jobs = 1});
  REQUIRE(result.verdict == Verdict::not_linearizable);
  check_why(history, *model, result);
  if (out) *out = std::move(history);
  return result;
}

}  // namespace

TEST_SUITE("why") {
  TEST_CASE("every refuted history of corpus/ says why in one sentence the core bears out") {
    std::size_t rows = 0;
    for (const auto& family : std::filesystem::directory_iterator(kSourceDir + "/corpus")) {
      if (!family.is_directory()) continue;
      INFO("family ", family.path().filename().string());
      rows += check_corpus(family.path().string());
    }
    CHECK(rows >= 90);
  }

  TEST_CASE("every refuted row of the shared Knossos and Porcupine corpora says why") {
    for (const std::string name : {"knossos", "porcupine"}) {
      const std::string tsv = kSourceDir + "/../shared/corpus/" + name + "/expected.tsv";
      if (!std::filesystem::exists(tsv)) {
        MESSAGE("skipped: ", tsv, " is absent (a plain clone has no ../shared)");
        continue;
      }
      CHECK(check_corpus(tsv) == (name == "knossos" ? 15U : 82U));
    }
  }

  TEST_CASE("a stale read names the writes it could have read and the write that overwrote them") {
    testing::EventScript s;
    s.invoke(0, "write", Value::integer(2)).ok(0, "write", Value::integer(2));
    s.invoke(1, "write", Value::integer(1)).ok(1, "write", Value::integer(1));
    s.invoke(2, "read").ok(2, "read", Value::integer(2));
    s.invoke(0, "write", Value::integer(2)).ok(0, "write", Value::integer(2));
    const CheckResult r = checked(s, "register(0)");
    CHECK(r.why ==
          "Read 2 (op 4, process 2) has no write of 2 left to read from: op 0 wrote 2 but was overwritten by write 1 "
          "(op 2, process 1), which completed before the read began; write 2 (op 6, process 0) began after the read "
          "completed.");
  }

  TEST_CASE("a write is ruled out by a read that saw a value only later writes make") {
    // The lecture's example 3: read 2 completed before read 1 began, and 2 is written
    // only after write 1 completed, so write 1 was gone by then.
    const auto rows = testing::refuted_rows(kSourceDir + "/corpus/classic");
    const auto row =
        std::find_if(rows.begin(), rows.end(), [](const auto& r) { return contains(r.name, "example-3"); });
    REQUIRE(row != rows.end());
    CHECK(row->result.why ==
          "Read 1 (op 5, process 2) has no write of 1 left to read from: op 0 wrote 1 but read 2 (op 1, process 1), "
          "which completed before the read began, saw 2, which only write 2 (op 3, process 0) could write, and only "
          "after it.");
  }

  TEST_CASE("two reads that disagree on the order of two writes") {
    testing::EventScript s;
    s.invoke(0, "write", Value::integer(1)).invoke(1, "write", Value::integer(2));
    s.ok(0, "write", Value::integer(1)).invoke(2, "read").ok(1, "write", Value::integer(2));
    s.invoke(3, "read").ok(2, "read", Value::integer(2)).ok(3, "read", Value::integer(1));
    const CheckResult r = checked(s, "register(0)");
    CHECK(r.why ==
          "Read 1 (op 5, process 3) and read 2 (op 3, process 2) disagree on the order of the only writes of their "
          "values: write 2 (op 1, process 1) completed before op 5 began, so op 5 needs write 1 (op 0, process 0) "
          "after it, but op 0 completed before op 3 began, so op 3 needs op 1 after op 0.");
  }

  TEST_CASE("a value that comes back though written once") {
    // The writes never complete: each may take effect at any time, but once.
    testing::EventScript s;
    s.invoke(3, "write", Value::integer(1)).invoke(4, "write", Value::integer(2));
    s.invoke(0, "read").ok(0, "read", Value::integer(1));
    s.invoke(1, "read").ok(1, "read", Value::integer(2));
    s.invoke(2, "read").ok(2, "read", Value::integer(1));
    const CheckResult r = checked(s, "register(0)");
    CHECK(r.why ==
          "Read 1 (op 6, process 2) saw 1 come back: read 1 (op 2, process 0) had seen it, then read 2 (op 4, "
          "process 1) saw 2, each completing before the next began, and only one op writes 1, and it takes effect "
          "once.");
  }

  TEST_CASE("a failed cas whose expected value the register held") {
    testing::EventScript s;
    s.invoke(0, "write", Value::integer(1)).ok(0, "write", Value::integer(1));
    s.invoke(1, "cas", Value::vector({Value::integer(1), Value::integer(2)}));
    s.fail(1, "cas", Value::vector({Value::integer(1), Value::integer(2)}));
    const CheckResult r = checked(s, "etcd");
    CHECK(r.why ==
          "Cas 1->2 (op 2, process 1, failed) failed, so the register did not hold 1, but it did: write 1 (op 0, "
          "process 0) completed before the cas began, and no op could write another value between them.");
  }

  TEST_CASE("a read of a value nothing writes says so") {
    testing::EventScript s;
    s.invoke(0, "read").ok(0, "read", Value::integer(7));
    CHECK(checked(s, "register(0)").why ==
          "Read 7 (op 0, process 0) has no write of 7 left to read from: no op writes 7, and the register does not "
          "start with it.");
  }

  TEST_CASE("a queue dequeuing the later of two enqueues names the one ahead of it") {
    testing::EventScript s;
    s.invoke(0, "enqueue", Value::integer(1)).ok(0, "enqueue", Value::integer(1));
    s.invoke(0, "enqueue", Value::integer(2)).ok(0, "enqueue", Value::integer(2));
    s.invoke(1, "dequeue").ok(1, "dequeue", Value::integer(2));
    s.invoke(1, "dequeue").ok(1, "dequeue", Value::integer(1));
    const CheckResult r = checked(s, "fifo-queue");
    CHECK(r.why ==
          "Dequeue 2 (op 4, process 1) dequeued 2, but 1 was ahead of it in the queue: enqueue 1 (op 0, process 0) "
          "completed before enqueue 2 (op 2, process 0) began, and 1 could be dequeued only by dequeue 1 (op 6, "
          "process 1), which began after the dequeue completed.");
  }

  TEST_CASE("a priority queue's poll or peek under a higher element names the insert and the late poll") {
    testing::EventScript poll;
    poll.invoke(0, "insert", Value::integer(1)).ok(0, "insert", Value::integer(1));
    poll.invoke(0, "insert", Value::integer(3)).ok(0, "insert", Value::integer(3));
    poll.invoke(1, "poll").ok(1, "poll", Value::integer(1));
    poll.invoke(1, "poll").ok(1, "poll", Value::integer(3));
    CHECK(checked(poll, "max-priority-queue").why ==
          "Poll 1 (op 4, process 1) returned 1, but 3, of higher priority, was in the priority queue all the while: "
          "insert 3 (op 2, process 0) completed before the poll began, and 3 could be polled only by poll 3 (op 6, "
          "process 1), which began after the poll completed.");
    // Lowest first, a peek, and a crashed poll that could have taken the element.
    testing::EventScript peek;
    peek.invoke(0, "insert", Value::integer(2)).ok(0, "insert", Value::integer(2));
    peek.invoke(0, "insert", Value::integer(1)).ok(0, "insert", Value::integer(1));
    peek.invoke(1, "peek").ok(1, "peek", Value::integer(2));
    peek.invoke(2, "poll").info(2, "poll");
    CHECK(checked(peek, "priority-queue").why ==
          "Peek 2 (op 4, process 1) returned 2, but 1, of higher priority, was in the priority queue all the while: "
          "insert 1 (op 2, process 0) completed before the peek began, and 1 could be polled only by poll nil (op 6, "
          "process 2, crashed), which began after the peek completed.");
  }

  TEST_CASE("a stack popping under a later push names the push on top") {
    testing::EventScript s;
    s.invoke(0, "push", Value::integer(1)).ok(0, "push", Value::integer(1));
    s.invoke(0, "push", Value::integer(2)).ok(0, "push", Value::integer(2));
    s.invoke(1, "pop").ok(1, "pop", Value::integer(1));
    const CheckResult r = checked(s, "stack");
    CHECK(contains(r.why,
                   "Pop 1 (op 4, process 1) popped 1, but 2 lay on top of it: push 2 (op 2, process 0) began "
                   "after push 1 (op 0, process 0) completed and completed before the pop began, and no op "
                   "pops 2."));
  }

  TEST_CASE("a set read missing a completed add, or holding one never added") {
    testing::EventScript missing;
    missing.invoke(0, "add", Value::integer(1)).ok(0, "add", Value::integer(1));
    missing.invoke(1, "read").ok(1, "read", Value::set({}));
    CHECK(checked(missing, "set").why ==
          "Read #{} (op 2, process 1) read a set without 1, which add 1 (op 0, process 0) added: it completed "
          "before the read began, and a set only grows.");
    testing::EventScript extra;
    extra.invoke(1, "read").ok(1, "read", Value::set({Value::integer(3)}));
    extra.invoke(0, "add", Value::integer(3)).ok(0, "add", Value::integer(3));
    CHECK(contains(checked(extra, "set").why,
                   "read a set holding 3, but the only add of 3, add 3 (op 2, process 0), "
                   "began after the read completed."));
  }

  TEST_CASE("a mutex acquired while held, and released while free") {
    testing::EventScript twice;
    twice.invoke(0, "acquire").ok(0, "acquire");
    twice.invoke(1, "acquire").ok(1, "acquire");
    CHECK(contains(checked(twice, "mutex").why,
                   "took the lock while acquire (op 0, process 0) held it: op 0 completed before op 2 began, and no "
                   "release could come between them (no op releases the lock)."));
    testing::EventScript free;
    free.invoke(0, "release").ok(0, "release");
    CHECK(contains(checked(free, "mutex").why, "released a lock no one held: no op acquires it."));
  }

  TEST_CASE("a lock taken more often than it was released") {
    // Three acquires complete, one release never does: two releases are needed.
    testing::EventScript s;
    s.invoke(3, "release");
    s.invoke(0, "acquire").ok(0, "acquire");
    s.invoke(1, "acquire").invoke(2, "acquire").ok(1, "acquire").ok(2, "acquire");
    const CheckResult r = checked(s, "mutex");
    CHECK(r.why ==
          "The 3 acquires of the core (ops 1, 3 and 4) all took the lock, which starts free, so it was released 2 "
          "times between them, but the history has only 1 release.");
  }

  TEST_CASE("two reads that each need their own write, with one write to go round") {
    // The read of 1 needs a 1 after write 2, the second read of 1 another after write
    // 3: write 1 (op 1) came before both, and the other write of 1 never completes, so
    // it takes effect once, in one span at most.
    testing::EventScript s;
    s.invoke(9, "write", Value::integer(1));
    s.invoke(0, "write", Value::integer(1)).ok(0, "write", Value::integer(1));
    s.invoke(0, "write", Value::integer(2)).ok(0, "write", Value::integer(2));
    s.invoke(1, "read").ok(1, "read", Value::integer(1));
    s.invoke(0, "write", Value::integer(3)).ok(0, "write", Value::integer(3));
    s.invoke(2, "read").ok(2, "read", Value::integer(1));
    const CheckResult r = checked(s, "register(0)");
    CHECK(r.why ==
          "Read 1 (op 5, process 1) and read 1 (op 9, process 2) each need a write of 1 of their own: the first "
          "after write 2 (op 3, process 0) left another value and completed before the read began, the second after "
          "write 3 (op 7, process 0) left another value and completed before the read began; no write of 1 in the "
          "core falls in either span, and only one op outside it writes 1, once.");
  }

  TEST_CASE("under sequential consistency the sentence speaks of program order") {
    testing::EventScript s;
    s.invoke(0, "write", Value::integer(1)).ok(0, "write", Value::integer(1));
    s.invoke(0, "write", Value::integer(2)).ok(0, "write", Value::integer(2));
    s.invoke(0, "read").ok(0, "read", Value::integer(1));
    const auto model = make_model_from_spec("register(0)");
    const History history = s.build(*model);
    const CheckResult r = check(history, *model, CheckOptions{.consistency = Consistency::sequential, .jobs = 1});
    REQUIRE(r.verdict == Verdict::not_linearizable);
    check_why(history, *model, r);
    CHECK(contains(r.why, "came before the read in process 0"));
  }
}
