// ariadne's command line: parses arguments with CLI11, runs a subcommand, and maps
// every outcome to the exit statuses of common/exit_status.hpp. No exception leaves main():
// users' scripts must always get one of the documented statuses, and an uncaught
// exception would abort with a signal instead.
#include "cli/check/check_command.hpp"
#include "cli/common/exit_status.hpp"
#include "cli/common/help_text.hpp"
#include "cli/convert_command.hpp"
#include "cli/corpus/corpus_command.hpp"
#include "cli/cross_check/cross_check_command.hpp"
#include "cli/explore/explore_command.hpp"
#include "cli/generate_command.hpp"
#include "cli/proof/proof_commands.hpp"
#include "engines/engine_table.hpp"

#include <ariadne/check.hpp>

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

namespace ariadne::cli {

namespace {

// CLI11's ranged validators print their bounds as 300-digit numbers; these say it
// in words and add nothing to the option's type in --help.
CLI::Validator at_least(double minimum, std::string words) {
  return CLI::Validator(
      [minimum, words](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return "";  // the conversion reports it
        return value >= minimum ? "" : "must be " + words + ", got " + text;
      },
      "", "");
}

// CLI11 reads "-1" into an unsigned option as its wrap-around, 2^64-1; counts and
// seeds must be written as plain decimal digits instead.
CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        return digits ? "" : "must be a whole number (decimal digits), got " + text;
      },
      "", "");
}

// --engine, --timeout and --memory-limit, which `check` and `corpus` share.
// `scope` ends the limits' descriptions, e.g. " (per file)".
void add_limit_options(CLI::App& command, SearchLimits& limits, const std::string& scope) {
  std::string engines = "auto";
  for (const engines::EngineRow& row : engines::engine_rows()) engines += "|" + std::string(row.name);
  command.add_option("--engine", limits.engine,
                     "Which engine decides (default auto: the unique-value test, WGL, then a race; see Engines below)")
      ->type_name(engines);
  command.add_option("--timeout", limits.timeout_seconds, "Give up after this many seconds, answering unknown" + scope)
      ->type_name("SECONDS")
      ->check(at_least(0, "zero or more"));
  command.add_option("--memory-limit", limits.memory_limit,
                     "Search memory before answering unknown: bytes, or with K/M/G/KiB/MiB/GiB (default 2GiB)" +
                         scope)
      ->type_name("BYTES");
}

void add_check_command(CLI::App& app, CheckCommandOptions& options) {
  CLI::App* check = app.add_subcommand("check", "Decide whether one history is linearizable");
  check->footer(check_help_footer);
  check
      ->add_option("FILE", options.file,
                   "History file (Jepsen EDN or log, Porcupine kv log, JSON), or a Jepsen store folder (its "
                   "history.edn, else history.txt)")
      ->required();
  check->add_option("-m,--model", options.model, "Model name or spec, e.g. cas-register or 'cas-register(0)'")
      ->required();
  check->add_option("--init", options.init, "Initial state as EDN (overrides the spec's), e.g. 0 or '{:x 0}'");
  check->add_flag("--independent", options.independent,
                  "Values are [key value] tuples (Jepsen's jepsen.independent): check each key as its own history "
                  "of the model, keys in parallel; the same as --model 'independent(MODEL)'");
  check->add_option("--format", options.format, "Input format (default: detected from the content)")
      ->type_name("auto|edn|jepsen-log|porcupine-kv|json");
  add_limit_options(*check, options.limits, "");
  check->add_option("--jobs", options.jobs, "Worker threads (default: all cores)")->type_name("N");
  CLI::Option* check_json = check->add_flag("--json", options.json, "Print one JSON object instead of the human report");
  check
      ->add_flag("--edn", options.edn,
                 "Print one EDN map in the shape a Jepsen checker returns (:valid?, :core, :failing-op, ...)")
      ->excludes(check_json);
  check->add_flag("--progress", options.progress,
                  "Print progress lines (phase, elapsed time, engines running) on stderr from the start, "
                  "also when it is not a terminal (on a terminal, a progress line shows after 2 s anyway)");
  check->add_flag("--full", options.full, "Print every table row (by default the first 40)");
  check->add_flag("--explain", options.explain,
                  "Not linearizable: say in words which ops conflict, the real-time facts binding them, and why "
                  "no order works");
  check->add_flag("--no-core", options.no_core,
                  "Not linearizable: report the failing partition instead of shrinking it to a minimal core");
  check->add_option("--core-budget", options.core_budget,
                    "Not linearizable: how long shrinking the core may take before a core not yet minimal is "
                    "reported (default: 2 s plus ten times the verdict's time; --timeout still bounds it)")
      ->type_name("SECONDS")
      ->check(at_least(0, "zero or more"));
  check->add_flag("--prefix", options.prefix,
                  "Not linearizable: print the longest linearizable prefix and its order (Knossos, Porcupine)");
  check->add_option("--html", options.html, "Write a self-contained HTML report of the history to FILE")
      ->type_name("FILE");
  check->add_option("--proof", options.proof,
                    "Not linearizable: write the core's CNF and a DRAT proof into DIR (check with verify-proof)")
      ->type_name("DIR");
}

void add_corpus_command(CLI::App& app, CorpusCommandOptions& options) {
  CLI::App* corpus = app.add_subcommand("corpus", "Check every history of a corpus against its expected verdict");
  corpus->footer(corpus_help_footer);
  // Not required: --merge reads shard reports instead; run_corpus_command asks for one or the other.
  corpus->add_option("CORPUS", options.corpus, "An expected.tsv, or a directory of .edn files with headers");
  corpus->add_option("-j,--jobs", options.jobs, "Files checked at once (default: number of cores)")
      ->type_name("N")
      ->check(at_least(1, "at least 1"));
  add_limit_options(*corpus, options.limits, " (per file)");
  corpus->add_flag("--json", options.json, "Print one JSON object with every row and the totals");
  corpus->add_option("--certify", options.certify_dir,
                     "Write each row's certificate into DIR (witness, or minimal core, explanation and proof), "
                     "replay it, and index them in DIR/certificates.tsv")
      ->type_name("DIR");
  corpus->add_option("--shard", options.shard,
                     "Check only shard I of N (0-based, as SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX): "
                     "every Nth row from row I; --json writes a report for --merge")
      ->type_name("I/N");
  corpus->add_option("--merge", options.merge_reports,
                     "Join the --json reports of all N shards into the report of one whole run")
      ->type_name("REPORT.json");
}

// The output options every generate family shares. -o and --out-dir exclude each
// other; run_generate_command says so, rather than CLI11's "Excludes:" notes
// cluttering the help. `file_names` is the pattern of the names --out-dir writes.
void add_generate_output_options(CLI::App& family, GenerateCommandOptions& options, const std::string& file_names) {
  family.add_option("-o,--output", options.output, "Write to FILE instead of stdout")->type_name("FILE");
  family.add_option("--out-dir", options.out_dir, "Write --count files named " + file_names + " into DIR")
      ->type_name("DIR");
  family.add_option("--count", options.count, "With --out-dir: this many files, seeds S to S+N-1")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
}

void add_crash_storm_command(CLI::App& generate, GenerateCommandOptions& options) {
  CLI::App* storm = generate.add_subcommand(
      "crash-storm", "A cas-register history in which many writes crash and stay open (hard for backtracking)");
  storm->footer(crash_storm_help_footer);
  storm->parse_complete_callback([&options] { options.family = "crash-storm"; });
  auto& shape = options.crash_storm;
  storm->add_option("--ops", shape.operations, "Operations, crashed writes included")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  storm->add_option("--crashed-writes", shape.crashed_writes, "Writes that complete with :info (at most --ops)")
      ->type_name("K")
      ->capture_default_str()
      ->check(whole_number());
  storm->add_option("--clients", shape.clients, "Client processes running at once")
      ->type_name("C")
      ->capture_default_str()
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  storm->add_flag("--stale-read", shape.stale_read,
                  "Make one read return an overwritten value: not linearizable by construction");
  storm->add_option("--seed", shape.seed, "Random seed; the same options and seed give the same bytes")
      ->type_name("S")
      ->capture_default_str()
      ->check(whole_number());
  add_generate_output_options(*storm, options, "crash-storm-<ops>-<k>-<seed>[-stale].edn");
}

void add_atomic_command(CLI::App& generate, GenerateCommandOptions& options) {
  CLI::App* atomic = generate.add_subcommand(
      "atomic", "A history of one simulated atomic object, any model: linearizable, or with --violation not");
  atomic->footer(atomic_help_footer);
  atomic->parse_complete_callback([&options] { options.family = "atomic"; });
  auto& shape = options.atomic;
  atomic->add_option("-m,--model", shape.model_spec, "Model spec, e.g. 'register(0)', cas-register, kv, fifo-queue")
      ->type_name("SPEC")
      ->required();
  atomic->add_option("--ops", shape.operations, "Invocations, crashed ones and the violation's included")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  atomic->add_option("--processes", shape.processes, "Client processes running at once")
      ->type_name("P")
      ->capture_default_str()
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  atomic->add_option("--keys", shape.keys, "kv and multi-register: spread the operations over N keys (default: the spec's, else 3); independent(MODEL): N independent keys (default 10)")
      ->type_name("N")
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  atomic->add_option("--values", options.atomic_values,
                     "unique: every value written or inserted is fresh; K: drawn from K values, 0 to K-1")
      ->type_name("unique|K")
      ->capture_default_str();
  atomic->add_option("--crash-rate", shape.crash_rate,
                     "Probability that an operation crashes (:info, or no completion at the end)")
      ->type_name("R")
      ->capture_default_str();
  atomic->add_flag("--violation", shape.violation,
                   "Inject a pattern no order explains: not linearizable by construction");
  atomic->add_option("--seed", shape.seed, "Random seed; the same options and seed give the same bytes")
      ->type_name("S")
      ->capture_default_str()
      ->check(whole_number());
  add_generate_output_options(*atomic, options, "atomic-<model>-<ops>-<seed>[-violation].edn");
}

// `generate` groups the families; each family is its own subcommand with its shape
// options and the output options every family shares.
void add_generate_command(CLI::App& app, GenerateCommandOptions& options) {
  CLI::App* generate =
      app.add_subcommand("generate", "Write synthetic histories whose verdict is known by construction");
  generate->footer(generate_help_footer);
  // Not require_subcommand(1): CLI11 would then report a misspelt family as "A
  // subcommand is required" instead of naming it; run_generate_command reports a
  // missing one.
  generate->require_subcommand(0, 1);
  add_crash_storm_command(*generate, options);
  add_atomic_command(*generate, options);
}

void add_convert_command(CLI::App& app, ConvertCommandOptions& options) {
  CLI::App* convert = app.add_subcommand(
      "convert", "Write a history, or a whole expected.tsv corpus, in another checker's input format");
  convert->footer(
      "\nThe events keep their order, so op ids (invocation positions) and real time are kept;\n"
      "jepsen-log has no :key (a keyed history is an error) and drops :index; json has no keywords\n"
      "inside collections and no strings that are not UTF-8 (either is an error). Knossos reads edn;\n"
      "Porcupine's tests read jepsen-log (etcd) and porcupine-kv (kv).\n"
      "\nExamples:\n"
      "  ariadne convert history.edn --to json -o history.json\n"
      "  ariadne convert --corpus ../shared/corpus/knossos/expected.tsv --to jepsen-log --out-dir knossos-logs\n");
  convert->add_option("FILE", options.file, "History file to convert");
  convert->add_option("--corpus", options.corpus, "Convert every row of this expected.tsv instead")->type_name("TSV");
  convert->add_option("--to", options.to, "The format to write")
      ->required()
      ->type_name("edn|jepsen-log|porcupine-kv|json");
  convert->add_option("--format", options.format, "Input format (default: detected from the content)")
      ->type_name("auto|edn|jepsen-log|porcupine-kv|json");
  convert->add_option("-o,--output", options.output, "Write to FILE instead of stdout")->type_name("FILE");
  convert->add_option("--out-dir", options.out_dir,
                      "With --corpus: write the converted files and their expected.tsv here")
      ->type_name("DIR");
}

// --import takes two words, the checker and its results; CLI11 collects them here
// and run() moves them into the options.
void add_cross_check_command(CLI::App& app, CrossCheckOptions& options, std::vector<std::string>& import) {
  CLI::App* cross = app.add_subcommand(
      "cross-check", "Run every engine on every history of corpora and report any disagreement or bad certificate");
  cross->footer(cross_check_help_footer);
  cross->add_option("CORPUS", options.corpora, "expected.tsv files or directories (folders of families are read whole)")
      ->required();
  cross->add_option("--engines", options.engines, "Comma-separated engines to run on every file")
      ->type_name("LIST")
      ->capture_default_str();
  cross->add_option("--timeout", options.timeout_seconds, "Seconds each engine may take on each file")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(at_least(0, "zero or more"));
  cross->add_option("--memory-limit", options.memory_limit, "Search memory per engine and file (default 2GiB)")
      ->type_name("BYTES");
  cross->add_option("-j,--jobs", options.jobs, "Files checked at once (default: number of cores)")
      ->type_name("N")
      ->check(at_least(1, "at least 1"));
  cross->add_flag("!--no-proofs", options.proofs,
                  "Skip certifying refutations (minimal core and DRAT proof); witnesses are still replayed");
  cross->add_option("--import", import,
                    "Compare another checker's verdicts too: knossos (result maps) or porcupine "
                    "(file<TAB>true|false|unknown)")
      ->expected(2)
      ->type_name("CHECKER RESULTS");
  cross->add_flag("--json", options.json, "Print one JSON object with every row, run and total");
}

void add_explore_command(CLI::App& app, ExploreCommandOptions& options) {
  CLI::App* explore = app.add_subcommand(
      "explore", "Model-check a system design: walk its states, check each history online, shrink a counterexample");
  explore->footer(explore_help_footer);
  explore->add_option("DESIGN", options.design, "The design to explore (--list shows them), e.g. redis-wait");
  explore->add_flag("--list", options.list, "List the designs and their parameters");
  explore->add_option("--depth", options.depth, "Steps per trajectory, or the exhaustive search's bound")
      ->type_name("N")
      ->capture_default_str()
      ->check(at_least(1, "at least 1"));
  explore->add_option("--trajectories", options.trajectories, "Random trajectories to walk in all")
      ->type_name("K")
      ->capture_default_str()
      ->check(whole_number());
  explore->add_option("--seed", options.seed, "Random seed; trajectory i is the same whatever --jobs is")
      ->type_name("S")
      ->capture_default_str()
      ->check(whole_number());
  explore->add_option("-j,--jobs", options.jobs, "Threads walking trajectories (default: number of cores)")
      ->type_name("J")
      ->check(at_least(1, "at least 1"));
  explore->add_flag("--exhaustive", options.exhaustive,
                    "Search every trajectory of up to --depth steps (depth-first, states visited once)");
  explore->add_option("--timeout", options.timeout_seconds, "Stop searching after this many seconds")
      ->type_name("SECONDS")
      ->check(at_least(0, "zero or more"));
  explore->add_option("--memory-limit", options.memory_limit, "Memory for the exhaustive search's visited set")
      ->type_name("BYTES")
      ->capture_default_str();
  explore->add_option("--shrink-seconds", options.shrink_seconds,
                      "Time to spend looking for a shorter counterexample")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(at_least(0, "zero or more"));
  explore->add_flag("--no-shrink", options.no_shrink, "Report the counterexample as found");
  explore->add_option("--replay", options.replay,
                      "Replay one trajectory given as step names, 'c1 write; n2 replicate-from-primary; ...' or "
                      "@FILE (a step per line), and check its history")
      ->type_name("STEPS");
  explore->add_option("--param", options.params, "A design parameter (see --list); repeatable")
      ->type_name("NAME=VALUE");
  explore->add_flag("--json", options.json, "Print one JSON object instead of the human report");
  explore->add_option("--html", options.html, "Write the counterexample's timeline as an HTML page")
      ->type_name("FILE");
  explore->add_option("-o,--output", options.output, "Write the counterexample's history as EDN (for corpus/)")
      ->type_name("FILE");
}

void add_verify_commands(CLI::App& app, std::string& proof_dir, VerifyWitnessOptions& witness) {
  CLI::App* proof = app.add_subcommand(
      "verify-proof", "Check a proof written by check --proof: formula, lemmas and DRAT, without the solver");
  proof->add_option("DIR", proof_dir, "The directory check --proof wrote")->required();
  CLI::App* verify = app.add_subcommand("verify-witness",
                                        "Check that a linearization (op ids, e.g. from check --json) fits a history");
  verify->add_option("FILE", witness.file, "History file")->required();
  verify->add_option("-m,--model", witness.model, "Model name or spec")->required();
  verify->add_option("--init", witness.init, "Initial state as EDN (overrides the spec's)");
  verify->add_option("--format", witness.format, "Input format (default: detected from the content)")
      ->type_name("auto|edn|jepsen-log|porcupine-kv|json");
  verify->add_option("-w,--witness", witness.witness,
                     "JSON file: an array of op ids, or check --json output with its \"linearization\"")
      ->required()
      ->type_name("W.json");
}

int run(int argc, char** argv) {
  CLI::App app(program_description(), "ariadne");
  app.set_version_flag("--version", version_text());
  app.footer(main_help_footer);

  CheckCommandOptions check_options;
  CorpusCommandOptions corpus_options;
  GenerateCommandOptions generate_options;
  add_check_command(app, check_options);
  add_corpus_command(app, corpus_options);
  add_generate_command(app, generate_options);
  ConvertCommandOptions convert_options;
  add_convert_command(app, convert_options);
  CrossCheckOptions cross_check_options;
  std::vector<std::string> import;
  add_cross_check_command(app, cross_check_options, import);
  ExploreCommandOptions explore_options;
  add_explore_command(app, explore_options);
  std::string proof_dir;
  VerifyWitnessOptions witness_options;
  add_verify_commands(app, proof_dir, witness_options);
  app.require_subcommand(1);

  if (argc <= 1) {
    std::cerr << app.help() << std::flush;
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version arrive as "errors" with status 0; CLI11 prints them.
    if (error.get_exit_code() == 0) return app.exit(error);
    throw;
  }

  if (app.got_subcommand("check")) return run_check_command(check_options);
  if (app.got_subcommand("generate")) return run_generate_command(generate_options);
  if (app.got_subcommand("convert")) return run_convert_command(convert_options);
  if (app.got_subcommand("cross-check")) {
    if (import.size() == 2) {
      cross_check_options.import_checker = import[0];
      cross_check_options.import_results = import[1];
    }
    return run_cross_check_command(cross_check_options);
  }
  if (app.got_subcommand("explore")) return run_explore_command(explore_options);
  if (app.got_subcommand("verify-proof")) return run_verify_proof_command(proof_dir);
  if (app.got_subcommand("verify-witness")) return run_verify_witness_command(witness_options);
  return run_corpus_command(corpus_options);
}

}  // namespace

}  // namespace ariadne::cli

int main(int argc, char** argv) {
  return ariadne::cli::run_guarded([argc, argv] { return ariadne::cli::run(argc, argv); });
}
