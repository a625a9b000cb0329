// Help text. The model list comes from the library's catalogue, so --help can never
// advertise a model the binary lacks or miss one it has.
#include "cli/help_text.hpp"

#include "answer/paragraph.hpp"

#include <ariadne/engine.hpp>
#include <ariadne/model.hpp>

#include <algorithm>

namespace ariadne::cli {

namespace {

std::string models_section() {
  std::string out = "Models (--model NAME, or a spec such as cas-register(0); --init EDN sets the initial state):\n";
  const auto catalogue = model_catalogue();
  std::size_t width = 0;
  for (const auto& [name, description] : catalogue) width = std::max(width, name.size());
  for (const auto& [name, description] : catalogue) {
    out += "  " + name + std::string(width - name.size() + 2, ' ') + description + "\n";
  }
  out +=
      "Jepsen's independent histories, whose values are [key value] tuples: --independent, or a spec\n"
      "such as independent(cas-register(0)); each key is checked as its own history of the model.\n";
  return out;
}

std::string engines_section() {
  // From the engine table, which declares every engine once; each entry's later
  // lines line up under its first.
  std::string out = "Engines (--engine):\n";
  auto entry = [&out](std::string_view name, std::string_view help) {
    out += "  " + std::string(name) + std::string(name.size() < 7 ? 7 - name.size() : 1, ' ');
    for (std::size_t at = 0; at <= help.size();) {
      const std::size_t end = std::min(help.find('\n', at), help.size());
      if (at > 0) out += "         ";
      out += std::string(help.substr(at, end - at)) + "\n";
      at = end + 1;
    }
  };
  for (std::size_t e = 0; e < kEngineCount; ++e) {
    entry(engine_name(static_cast<Engine>(e)), engine_help(static_cast<Engine>(e)));
  }
  return out;
}

// Words filled into lines of at most 80 columns, as the prose around them is.
std::string filled(const std::string& text) { return answer::fill_words(text, 80); }

// Names every command, from the command table, so a new one cannot be left out.
std::string command_help_pointer(const std::vector<std::string>& commands) {
  std::string names;
  for (const std::string& command : commands) names += (names.empty() ? "" : ", ") + command;
  return "Run 'ariadne COMMAND --help' (" + names + ") for each command's options.";
}

std::string check_exit_statuses() {
  return "Exit status:\n"
         "  0   linearizable\n"
         "  1   not linearizable\n"
         "  2   unknown (timeout, memory limit, or no engine could decide)\n"
         "  64  usage error (bad option, unknown model or format)\n"
         "  65  bad input (the file is missing or malformed; the message gives file:line:column)\n"
         "  70  internal error (a bug: please report it)\n"
         "  130 stopped by Ctrl-C (143: by SIGTERM), in any phase; the report says which it stopped\n";
}

std::string corpus_exit_statuses() {
  return "Exit status:\n"
         "  0   every row got its expected verdict\n"
         "  1   some row did not, or could not be checked\n"
         "  64  usage error\n"
         "  65  the corpus itself cannot be read (missing, malformed TSV line, no rows); with\n"
         "      --merge, a report is malformed or the reports are not all the shards of one run\n"
         "  70  internal error\n"
         "  130 stopped by Ctrl-C (143: by SIGTERM); the rows done so far are printed\n";
}

std::string generate_exit_statuses() {
  return "Exit status:\n"
         "  0   every file was written\n"
         "  64  usage error (bad option, a shape that cannot be generated, an output that cannot be written)\n"
         "  70  internal error\n";
}

}  // namespace

std::string program_description() {
  return "ariadne decides whether a concurrent history (Jepsen EDN, Jepsen logs, Porcupine\n"
         "key-value logs, JSON) is linearizable with respect to a sequential model. A\n"
         "linearizable answer comes with a witness order, replayed by an independent\n"
         "checker; a violation comes with a minimal core (the few operations that cannot\n"
         "be ordered whatever the others did), why in words, and on request a proof.";
}

std::string main_help_footer(const std::vector<std::string>& commands) {
  return "\nExamples:\n"
         "  ariadne check history.edn --model cas-register --init 0\n"
         "  ariadne check etcd_001.log --model etcd --json\n"
         "  ariadne check big.edn --model register --timeout 30 --memory-limit 4GiB\n"
         "  ariadne corpus ../shared/corpus/knossos/expected.tsv\n"
         "  ariadne corpus corpus/classic --jobs 4 --json\n"
         "  ariadne generate crash-storm --ops 200 --crashed-writes 10 -o storm.edn\n"
         "  ariadne check bad.edn --model register --explain --proof proof/; ariadne verify-proof proof/\n"
         "  ariadne convert history.edn --to jepsen-log -o history.log\n"
         "  ariadne cross-check corpus/ --import knossos knossos-results/\n"
         "  ariadne explore redis-wait --trajectories 40000 -o counterexample.edn\n"
         "\n" +
         filled(command_help_pointer(commands)) + "\n" + check_exit_statuses() + "\n" + models_section();
}

std::string check_help_footer() {
  return "\nExamples:\n"
         "  ariadne check history.edn --model cas-register --init 0\n"
         "  ariadne check history.edn --model 'cas-register(0)' --engine wgl --full\n"
         "  ariadne check etcd_001.log --model etcd --json\n"
         "  ariadne check c01-ok.txt --model kv --format porcupine-kv --timeout 2.5\n"
         "  ariadne check lecture-example-3.edn --model register --explain --proof proof/\n"
         "  ariadne check etcd_001.log --model etcd --html report.html\n"
         "\nNot linearizable: the answer comes with a minimal core, the ops that cannot be\n"
         "ordered however the others behaved (each other op counts as a crashed op that may\n"
         "have taken effect anywhere, or never). Shrinking it may take 2 s plus ten times\n"
         "what the verdict took; past that, the core so far is reported as not minimal.\n"
         "--core-budget SECONDS gives it longer, --no-core skips it.\n"
         "--explain says why in words: the real-time facts that bind the core and the dead\n"
         "end every order runs into. --prefix adds the longest linearizable prefix (Knossos'\n"
         "view, Porcupine's longest partial linearization). --proof DIR writes the core as a\n"
         "history, its CNF and a DRAT refutation: check them with 'ariadne verify-proof DIR'\n"
         "or 'drat-trim DIR/formula.cnf DIR/proof.drat'. A linearizable answer's proof is its\n"
         "witness: 'ariadne verify-witness FILE --model M --witness out.json' replays it.\n"
         "\nOperation ids are the 0-based positions of invocation events in the file, counting\n"
         "ignored events (e.g. :nemesis) too; call and ret are event positions as well.\n"
         "With --json, one object is printed: verdict, model, engine, operations, elapsed_ms,\n"
         "and linearization (linearizable), core and explanation (not linearizable, with\n"
         "core_minimal, core_ms, core_real_time and failing_op) or reason (unknown), and limit\n"
         "and limit_phase when a limit stopped some phase.\n"
         "\nSequential consistency: --consistency sequential asks for one legal order that keeps\n"
         "each process's own order, real time between processes ignored (Lamport). The verdict\n"
         "reads sequentially-consistent or not-sequentially-consistent (exit 0 or 1), JSON adds\n"
         "\"consistency\" and names the core's facts core_program_order; it is not local, so a\n"
         "kv or --independent history is checked whole. --consistency sequential-per-key checks\n"
         "each key alone (cheaper, weaker). Only program-order, sat, smt and brute decide it.\n"
         "  ariadne check h7.edn --model fifo-queue --consistency sequential --explain\n"
         "\nLimits: --timeout and --memory-limit are the whole command's: reading, the verdict,\n"
         "the core, the explanation and the proof all stop at them, and so does Ctrl-C. The\n"
         "memory limit counts what the command takes beyond the program itself, as resident\n"
         "memory (the Z3 child process of --engine smt included). An unknown answer names the\n"
         "limit and the phase it stopped; one reached after the verdict leaves the verdict and\n"
         "says what it cut short. A check that runs past 2 s on a terminal shows its phase and\n"
         "running engines on stderr; --progress prints those lines from the start.\n\n" +
         engines_section() + "\n" + check_exit_statuses() + "\n" + models_section();
}

std::string corpus_help_footer() {
  return "\nA corpus is an expected.tsv with lines path<TAB>verdict<TAB>model (paths relative\n"
         "to the TSV's folder; a model left out or '-' is the one the file's header names,\n"
         "as Violin, LiMo and fastlin files do), or a directory whose .edn files start with\n"
         "comment lines '; expected: <verdict>' and '; model: <spec>'. Verdicts:\n"
         "linearizable, not-linearizable, unknown. A file that cannot be read is an error row.\n"
         "\nExamples:\n"
         "  ariadne corpus ../shared/corpus/knossos/expected.tsv\n"
         "  ariadne corpus ../shared/corpus/porcupine/expected.tsv --jobs 2 --timeout 10\n"
         "  ariadne corpus corpus/classic --json\n"
         "  ariadne corpus corpus/generated/crash-storm --engine sat\n"
         "  ariadne corpus corpus/ --certify certificates/\n"
         "  ariadne corpus corpus/ --shard 0/3 --json > shard-0.json    # 1/3 and 2/3 on other machines\n"
         "  ariadne corpus --merge shard-0.json shard-1.json shard-2.json\n"
         "\nA directory's subfolders are read too, each through its own expected.tsv if it has\n"
         "one, so 'ariadne corpus corpus/' checks every family. With --certify DIR, each row's\n"
         "answer is certified and kept: DIR/<file>.json is its check --json (the witness, or the\n"
         "minimal core and explanation), DIR/<file>.proof/ the proof of a refutation; both are\n"
         "replayed from the files (verify-witness, verify-proof) before the row counts, and\n"
         "DIR/certificates.tsv lists them.\n"
         "\nWith --shard I/N, N machines share a corpus: shard I (0-based, 0 to N-1, as Slurm's\n"
         "SLURM_ARRAY_TASK_ID and Kubernetes' JOB_COMPLETION_INDEX count) checks rows I, I+N,\n"
         "I+2N, ... of the corpus's row order. --merge joins the shards' --json reports into the\n"
         "table, totals and exit status of one whole run (times summed); it refuses a missing\n"
         "or repeated shard, shards of another N, corpus, options or version, an interrupted\n"
         "shard and malformed JSON. See docs/batch-systems.md for Slurm and Kubernetes jobs.\n"
         "\nCtrl-C (or SIGTERM) cancels the running checks and prints the rows done so far\n"
         "with how many were not checked; a second Ctrl-C ends the process at once.\n\n" +
         engines_section() + "\n" + corpus_exit_statuses();
}

std::string convert_help_footer() {
  return "\nThe events keep their order, so op ids (invocation positions) and real time are kept;\n"
         "jepsen-log has no :key (a keyed history is an error) and drops :index; json has no keywords\n"
         "inside collections and no strings that are not UTF-8 (either is an error). Knossos reads edn;\n"
         "Porcupine's tests read jepsen-log (etcd) and porcupine-kv (kv).\n"
         "\nExamples:\n"
         "  ariadne convert history.edn --to json -o history.json\n"
         "  ariadne convert --corpus ../shared/corpus/knossos/expected.tsv --to jepsen-log --out-dir knossos-logs\n";
}

std::string cross_check_help_footer() {
  return "\nThe referee: every engine decides every file on its own, and a file is a problem when\n"
         "two engines give opposite verdicts, a verdict contradicts the expected one, an engine\n"
         "fails, a witness does not replay, or a refutation's certificate (minimal core and DRAT\n"
         "proof, written and verified from the files) does not check. Unknown is never a\n"
         "disagreement; brute force is n/a on partitions of more than 14 operations.\n"
         "--timeout bounds each engine's run on each file, and the refutation's certificate\n"
         "(check, core and proof) too: a certificate the limit cuts short is reported as not\n"
         "certified in time, which is no problem.\n"
         "\nOther checkers: write the corpus in their format with 'ariadne convert --corpus',\n"
         "run them, and import their verdicts: --import knossos RESULTS reads Knossos result\n"
         "maps ({:valid? true|false|:unknown}): a directory of <file>.edn, one EDN map from\n"
         "file name to result map, or a vector of maps with :file, such as the listing of\n"
         "docs/knossos-harness/ (one map per file and :analyzer, each judged on its own, with\n"
         ":time-ms, and :error, :cause or :skipped when it did not decide); --import porcupine\n"
         "RESULTS reads lines file<TAB>true|false|unknown (any checker can write those). Their\n"
         "verdicts are compared with the expected and the certified ones; an exception they\n"
         "threw is a problem too; see the README's 'Cross-checking other checkers'.\n"
         "\nExamples:\n"
         "  ariadne cross-check corpus/\n"
         "  ariadne cross-check corpus/ ../shared/corpus/knossos/expected.tsv ../shared/corpus/porcupine/expected.tsv\n"
         "  ariadne cross-check corpus/classic --engines wgl,sat --timeout 2 --json\n"
         "  ariadne cross-check knossos-copy/expected.tsv --engines auto --import knossos results/\n"
         "\nExit status:\n"
         "  0   no problems: the engines agree, with the expected verdicts and the imported ones\n"
         "  1   some file has a problem (listed)\n"
         "  64  usage error\n"
         "  65  a corpus or the imported results cannot be read\n"
         "  70  internal error\n"
         "  130 stopped by Ctrl-C (143: by SIGTERM); the files done so far are reported\n";
}

std::string generate_help_footer() {
  return "\nA generated history knows its verdict by construction. Each file starts with comment\n"
         "lines '; generated: <command>' (the exact command that prints this file again, byte\n"
         "for byte), '; expected: <verdict>' and '; model: <spec>', so a folder of generated\n"
         "files is a corpus that 'ariadne corpus DIR' checks. The same options and seed give\n"
         "the same bytes on every platform.\n"
         "\nFamilies ('ariadne generate FAMILY --help' says what each generates and why):\n"
         "  crash-storm  a cas-register history whose crashed writes stay open: hard for backtracking\n"
         "  atomic       one simulated atomic object of any model, linearizable or with --violation\n"
         "               not; every built-in model, for cross-validating checkers model by model\n"
         "  lagging-follower  a register read from followers that lag: sequentially consistent\n"
         "               and not linearizable, or with --violation neither\n"
         "\nExamples:\n"
         "  ariadne generate crash-storm --ops 200 --crashed-writes 10 --seed 7 -o storm.edn\n"
         "  ariadne generate crash-storm --stale-read --count 20 --out-dir storms\n"
         "  ariadne generate atomic --model fifo-queue --ops 100 --violation -o queue.edn\n"
         "  ariadne generate atomic --model 'register(0)' --values 2 --count 10 --out-dir registers\n\n" +
         generate_exit_statuses();
}

std::string crash_storm_help_footer() {
  return "\nA crash storm is a history of a compare-and-set register, cas-register(0), whose\n"
         "clients read, write fresh values and cas, while many writes crash: the client times\n"
         "out and records :info instead of :ok, and goes on as a new process. A crashed write\n"
         "may have taken effect at any point after its invocation, or never, so it stays open\n"
         "to the end of the history. A backtracking checker (Wing-Gong-Lowe search, Knossos,\n"
         "Porcupine) must decide, for each crashed write, whether and where it took effect,\n"
         "and reads that saw crashed writes' values stop it from simply dropping them: the\n"
         "choices multiply with every crash. With the defaults (2000 operations, 50 crashed\n"
         "writes, 12 clients) about 60 operations are open at once near the end.\n"
         "\nThe history is recorded from a simulated atomic register, every operation taking\n"
         "effect within its own interval, so it is linearizable by construction. With\n"
         "--stale-read, one completed read in the middle-to-late part instead returns a value\n"
         "that was overwritten before the read began; written values are unique, so no order\n"
         "explains it and the history is not linearizable by construction.\n"
         "\nWith --count N --out-dir DIR, N files with seeds S to S+N-1 are written to DIR as\n"
         "crash-storm-<ops>-<crashed-writes>-<seed>[-stale].edn, and their paths printed.\n"
         "\nExamples:\n"
         "  ariadne generate crash-storm --ops 200 --crashed-writes 10 --seed 7 -o storm.edn\n"
         "  ariadne check storm.edn --model 'cas-register(0)'\n"
         "  ariadne generate crash-storm --ops 500 --crashed-writes 20 --stale-read --count 10 --out-dir storms\n"
         "  ariadne corpus storms\n\n" +
         generate_exit_statuses();
}

std::string lagging_follower_help_footer() {
  return "\nA register, register(0), replicated by a leader and followers. Writer processes\n"
         "write fresh values through the leader, which appends each to its log as the write\n"
         "completes; reader processes read, each always from the same follower, which returns\n"
         "the value of the log entry it has applied. Followers apply the log in order, at\n"
         "random, never more than --max-lag entries behind: reads are stale, as reads from\n"
         "followers are. Reader i reads from follower i mod --followers.\n"
         "\nThe history is sequentially consistent by construction (the writes in log order,\n"
         "each read right after the write it saw keeps every process's own order) and not\n"
         "linearizable: the generator finds a read that returned a value overwritten by a\n"
         "write completed before it began, and fails if there is none. The file says so in\n"
         "'; expected: not-linearizable' and '; expected-sequential: sequentially-consistent'.\n"
         "\nWith --violation one reader, late in the history, reads once from a follower\n"
         "further behind: after a value v_b it reads an older value written before v_b by the\n"
         "same writer (or the initial 0). Each process's own order then forbids every order:\n"
         "not sequentially consistent, and not linearizable.\n"
         "\nExamples:\n"
         "  ariadne generate lagging-follower --ops 2000 -o stale.edn\n"
         "  ariadne check stale.edn --model 'register(0)' --consistency sequential\n"
         "  ariadne generate lagging-follower --ops 20000 --violation -o broken.edn\n\n" +
         generate_exit_statuses();
}

std::string atomic_help_footer() {
  return "\nAn atomic history records clients running operations against one simulated object\n"
         "that is truly atomic: each operation takes effect at one random point strictly\n"
         "inside its own interval, and its result is what the model's sequential state gives\n"
         "there, so the history is linearizable by construction. Every built-in model has an\n"
         "object: register, cas-register and etcd (read, write, cas; a cas that finds another\n"
         "value completes with :fail), multi-register (:txn of [f k v] micro-ops over :x :y :z\n"
         "or the spec's keys), mutex (a try-lock: an acquire of a taken lock fails, only the\n"
         "holder releases), set (add, read), unordered-queue, fifo-queue and stack (a removal\n"
         "from an empty one fails; with --empty-observations it returns :empty, an\n"
         "observation, as Violin, LiMo and fastlin record it), priority-queue and\n"
         "max-priority-queue (insert [priority x], poll, peek; :empty on an empty queue), kv\n"
         "(get, put, append of tokens \"v<n> \" on keys k0 k1 k2 or the spec's keys). --keys N\n"
         "spreads kv and multi-register operations over N keys.\n"
         "\nindependent(MODEL) is Jepsen's jepsen.independent: N keys 0 to N-1 (--keys N, else\n"
         "10), each an object of MODEL of its own, every value the tuple [key value]; any model\n"
         "but independent itself. With --violation MODEL's pattern runs on one of the keys.\n"
         "\nWith --crash-rate R each operation crashes with probability R: it completes with\n"
         ":info (or, after the last invocation, not at all) and its client goes on as a new\n"
         "process. A crashed operation takes effect before its :info, after it, or never.\n"
         "\n--values unique makes every value written, added, enqueued or pushed fresh, which\n"
         "for registers is the case Gibbons and Korach show checkable in polynomial time;\n"
         "a priority queue's inserts are then fresh integers that are their own priorities\n"
         "(fastlin's histories), the case its unique-value engine decides;\n"
         "--values K draws them from K values (0 to K-1; kv tokens \"v0 \" to \"v<K-1> \"),\n"
         "which for registers is NP-complete in general. The mutex has no values.\n"
         "\n--violation injects a small pattern of operations, one after another in real time,\n"
         "on fresh values, whose results no order can explain whatever the rest did: a stale\n"
         "read (registers, etcd, multi-register and kv per key), a read missing an added\n"
         "element (set), one element dequeued twice (unordered-queue), two elements dequeued\n"
         "or popped in the wrong order (fifo-queue, stack), an element polled while one ahead\n"
         "of it was surely there (priority queues), a value removed after a removal found\n"
         "the container empty (--empty-observations), or the lock acquired twice while real\n"
         "time keeps every release out of the gap (mutex). The file's notes name the\n"
         "operations and say why.\n"
         "\nWith --count N --out-dir DIR, N files with seeds S to S+N-1 are written to DIR as\n"
         "atomic-<model>-<ops>-<seed>[-empty][-violation].edn, and their paths printed.\n"
         "\nExamples:\n"
         "  ariadne generate atomic --model 'register(0)' --ops 60 --seed 3 -o register.edn\n"
         "  ariadne check register.edn --model 'register(0)'\n"
         "  ariadne generate atomic --model kv --ops 120 --crash-rate 0.2 --violation -o kv.edn\n"
         "  ariadne generate atomic --model 'register(0)' --ops 2000 --processes 16 --values 2 -o hard.edn\n"
         "  ariadne generate atomic --model stack --violation --count 10 --out-dir stacks; ariadne corpus stacks\n"
         "  ariadne generate atomic --model fifo-queue --empty-observations --violation -o empty.edn\n"
         "  ariadne generate atomic --model max-priority-queue --ops 1000000 --values unique -o pq.edn\n"
         "  ariadne generate atomic --model kv --ops 1000000 --keys 1000 --processes 50 --crash-rate 0 -o big.edn\n"
         "  ariadne generate atomic --model 'independent(cas-register)' --keys 100 --ops 100000 --violation -o "
         "jepsen.edn\n"
         "  ariadne check jepsen.edn --independent --model cas-register\n\n" +
         generate_exit_statuses();
}

std::string explore_help_footer() {
  return "\nA design is a small state machine of a system: nodes, clients, a coordinator. Each\n"
         "step lists every successor of a state; a trajectory picks one at a time (uniformly\n"
         "at random, or all of them with --exhaustive) and records the history its clients\n"
         "see. That history is checked against a register as it grows, so a trajectory ends\n"
         "at the first result no order of operations explains: a counterexample.\n"
         "\nA counterexample is shrunk: steps are removed while it still fails, then every\n"
         "shorter trajectory is searched (for --shrink-seconds), so the one shown is the\n"
         "shortest there is when the report says so. It is printed like Knossos' Redis report:\n"
         "the system's final state, the history up to the first operation that cannot be\n"
         "linearized, then re-checked by ariadne check with its minimal core and explanation.\n"
         "\n--replay runs one trajectory you write, as the step names reports print, and checks\n"
         "its history whatever the verdict: to show a known scenario, or to ask what a design\n"
         "does next (a step that is not enabled is an error listing the ones that are).\n"
         "\nThe exhaustive search renames the unique values written, so states that differ only\n"
         "in which numbers were written are visited once, and stores 120-bit hashes of states.\n"
         "\nExamples:\n"
         "  ariadne explore --list\n"
         "  ariadne explore redis-wait --depth 15 --trajectories 40000 --jobs 4\n"
         "  ariadne explore redis-wait --exhaustive --depth 15 -o counterexample.edn --html cx.html\n"
         "  ariadne explore redis-wait-fenced --exhaustive --depth 20\n"
         "  ariadne explore redis-redux --param partition-fraction=0.45 --depth 100 --no-shrink\n"
         "  ariadne explore redis-wait --replay 'c1 write; c1 read'\n"
         "\nExit status:\n"
         "  0   no counterexample (in the whole space to --depth with --exhaustive)\n"
         "  1   a counterexample was found\n"
         "  2   the search stopped at --timeout or --memory-limit before finding one\n"
         "  64  usage error (unknown design or parameter, bad option)\n"
         "  70  internal error (a bug: please report it)\n"
         "  130 stopped by Ctrl-C (143: by SIGTERM); what was found so far is printed\n"
         "\n--timeout is the whole command's: search, shrinking (at most --shrink-seconds of it)\n"
         "and the certifying check.\n";
}

}  // namespace ariadne::cli
