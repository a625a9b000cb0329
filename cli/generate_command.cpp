// `ariadne generate`: build the shape from the options, generate, and write the file
// with its header. Every file's `; generated:` line names one seed and no output
// option, so running it prints that very file to stdout, whichever way it was first
// written (alone, with -o, or as one of a --count batch).
#include "cli/generate_command.hpp"

#include "answer/text_files.hpp"
#include "cli/help_text.hpp"
#include "cli/shared_options.hpp"
#include "generators/generated_history.hpp"

#include <ariadne/errors.hpp>
#include <ariadne/model.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>

namespace ariadne::cli {

using answer::print;
using answer::write_text_file;

namespace fs = std::filesystem;

namespace {

void write_generated(const fs::path& path, const std::string& text) {
  if (!write_text_file(path, text)) throw UsageError("cannot write " + path.string() + ": " + std::strerror(errno));
}

// A word a POSIX shell reads back unchanged: bare when it holds only characters no
// shell treats specially, otherwise in single quotes (a quote inside becomes '\'').
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_-.,/:=+@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The command that prints exactly this history, every shape option spelled out,
// e.g. "ariadne generate crash-storm --ops 60 --crashed-writes 4 --clients 4 --seed 7".
std::string crash_storm_command(const generators::CrashStormShape& shape) {
  std::string command = "ariadne generate crash-storm --ops " + std::to_string(shape.operations) +
                        " --crashed-writes " + std::to_string(shape.crashed_writes) + " --clients " +
                        std::to_string(shape.clients);
  if (shape.stale_read) command += " --stale-read";
  command += " --seed " + std::to_string(shape.seed);
  return command;
}

// "crash-storm-<ops>-<crashed writes>-<seed>[-stale].edn".
std::string crash_storm_file_name(const generators::CrashStormShape& shape) {
  return "crash-storm-" + std::to_string(shape.operations) + "-" + std::to_string(shape.crashed_writes) + "-" +
         std::to_string(shape.seed) + (shape.stale_read ? "-stale" : "") + ".edn";
}

// The command that prints exactly this history, e.g. "ariadne generate atomic --model
// 'register(0)' --ops 40 --processes 4 --values unique --crash-rate 0.1 --seed 1": the
// model's canonical spec, quoted for a POSIX shell where it needs to be.
std::string atomic_command(const generators::AtomicShape& shape) {
  std::string command = "ariadne generate atomic --model " + shell_word(shape.model_spec) + " --ops " +
                        std::to_string(shape.operations) + " --processes " + std::to_string(shape.processes) +
                        (shape.keys > 0 ? " --keys " + std::to_string(shape.keys) : std::string()) + " --values " +
                        generators::value_domain_text(shape.values) + " --crash-rate " +
                        generators::format_crash_rate(shape.crash_rate);
  if (shape.empty_observations) command += " --empty-observations";
  if (shape.violation) command += " --violation";
  command += " --seed " + std::to_string(shape.seed);
  return command;
}

// "atomic-<model name>-<ops>-<seed>[-violation].edn".
std::string atomic_file_name(const generators::AtomicShape& shape) {
  // independent(cas-register) becomes independent-cas-register: no parentheses for shells.
  std::string model;
  for (const char c : make_model_from_spec(shape.model_spec)->name()) {
    if (c == '(') model += '-';
    if (c != '(' && c != ')') model += c;
  }
  return "atomic-" + model + "-" + std::to_string(shape.operations) + "-" + std::to_string(shape.seed) +
         (shape.empty_observations ? "-empty" : "") + (shape.violation ? "-violation" : "") + ".edn";
}

// The command that prints exactly this history, every shape option spelled out.
std::string lagging_follower_command(const generators::LaggingFollowerShape& shape) {
  std::string command = "ariadne generate lagging-follower --ops " + std::to_string(shape.operations) + " --writers " +
                        std::to_string(shape.writers) + " --readers " + std::to_string(shape.readers) +
                        " --followers " + std::to_string(shape.followers) + " --max-lag " +
                        std::to_string(shape.max_lag);
  if (shape.violation) command += " --violation";
  command += " --seed " + std::to_string(shape.seed);
  return command;
}

// "lagging-follower-<ops>-<seed>[-violation].edn".
std::string lagging_follower_file_name(const generators::LaggingFollowerShape& shape) {
  return "lagging-follower-" + std::to_string(shape.operations) + "-" + std::to_string(shape.seed) +
         (shape.violation ? "-violation" : "") + ".edn";
}

// The files of the chosen family: the first seed, and for any seed the file's name
// and its whole text. Shapes are read and checked here, once, before any file is
// written.
struct FamilyFiles {
  std::uint64_t first_seed = 1;
  std::function<std::string(std::uint64_t)> name;
  std::function<std::string(std::uint64_t)> text;
};

// Any family whose shape has a seed: its file name, generator and command.
template <typename Shape>
FamilyFiles files_of(const Shape& shape, std::string (*name)(const Shape&),
                     generators::GeneratedHistory (*generate)(const Shape&), std::string (*command)(const Shape&)) {
  auto with_seed = [shape](std::uint64_t seed) {
    Shape seeded = shape;
    seeded.seed = seed;
    return seeded;
  };
  return {shape.seed, [with_seed, name](std::uint64_t seed) { return name(with_seed(seed)); },
          [with_seed, generate, command](std::uint64_t seed) {
            const Shape seeded = with_seed(seed);
            return generators::format_generated_file(generate(seeded), command(seeded));
          }};
}

FamilyFiles family_files(const GenerateCommandOptions& options) {
  if (options.family == "crash-storm") {
    return files_of(options.crash_storm, crash_storm_file_name, generators::generate_crash_storm, crash_storm_command);
  }
  if (options.family == "lagging-follower") {
    return files_of(options.lagging_follower, lagging_follower_file_name, generators::generate_lagging_follower,
                    lagging_follower_command);
  }
  generators::AtomicShape shape = options.atomic;
  shape.values = generators::parse_value_domain(options.atomic_values);
  // The canonical spec: the file's header and command then name the model one way,
  // however it was typed.
  shape.model_spec = make_model_from_spec(shape.model_spec)->spec();
  return files_of(shape, atomic_file_name, generators::generate_atomic_history, atomic_command);
}

void check_batch_options(const GenerateCommandOptions& options, std::uint64_t first_seed) {
  if (options.count == 0) throw UsageError("--count must be at least 1");
  if (options.count > 1 && !options.out_dir) {
    throw UsageError("--count " + std::to_string(options.count) + " needs --out-dir DIR to put the files in");
  }
  if (options.output && options.out_dir) throw UsageError("-o and --out-dir cannot be combined");
  if (options.count - 1 > std::numeric_limits<std::uint64_t>::max() - first_seed) {
    throw UsageError("--seed " + std::to_string(first_seed) + " plus --count " + std::to_string(options.count) +
                     " runs past the largest seed");
  }
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

void add_crash_storm_options(CLI::App& storm, GenerateCommandOptions& options) {
  storm.footer(crash_storm_help_footer);
  storm.parse_complete_callback([&options] { options.family = "crash-storm"; });
  auto& shape = options.crash_storm;
  storm.add_option("--ops", shape.operations, "Operations, crashed writes included")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  storm.add_option("--crashed-writes", shape.crashed_writes, "Writes that complete with :info (at most --ops)")
      ->type_name("K")
      ->capture_default_str()
      ->check(whole_number());
  storm.add_option("--clients", shape.clients, "Client processes running at once")
      ->type_name("C")
      ->capture_default_str()
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  storm.add_flag("--stale-read", shape.stale_read,
                 "Make one read return an overwritten value: not linearizable by construction");
  storm.add_option("--seed", shape.seed, "Random seed; the same options and seed give the same bytes")
      ->type_name("S")
      ->capture_default_str()
      ->check(whole_number());
  add_generate_output_options(storm, options, "crash-storm-<ops>-<k>-<seed>[-stale].edn");
}

void add_atomic_options(CLI::App& atomic, GenerateCommandOptions& options) {
  atomic.footer(atomic_help_footer);
  atomic.parse_complete_callback([&options] { options.family = "atomic"; });
  auto& shape = options.atomic;
  atomic.add_option("-m,--model", shape.model_spec, "Model spec, e.g. 'register(0)', cas-register, kv, fifo-queue")
      ->type_name("SPEC")
      ->required();
  atomic.add_option("--ops", shape.operations, "Invocations, crashed ones and the violation's included")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  atomic.add_option("--processes", shape.processes, "Client processes running at once")
      ->type_name("P")
      ->capture_default_str()
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  atomic
      .add_option("--keys", shape.keys,
                  "kv and multi-register: spread the operations over N keys (default: the spec's, else 3); "
                  "independent(MODEL): N independent keys (default 10)")
      ->type_name("N")
      ->check(whole_number())
      ->check(at_least(1, "at least 1"));
  atomic
      .add_option("--values", options.atomic_values,
                  "unique: every value written or inserted is fresh; K: drawn from K values, 0 to K-1")
      ->type_name("unique|K")
      ->capture_default_str();
  atomic
      .add_option("--crash-rate", shape.crash_rate,
                  "Probability that an operation crashes (:info, or no completion at the end)")
      ->type_name("R")
      ->capture_default_str();
  atomic.add_flag("--empty-observations", shape.empty_observations,
                  "Queues and stacks: a removal that finds nothing returns :empty (an observation), not :fail");
  atomic.add_flag("--violation", shape.violation,
                  "Inject a pattern no order explains: not linearizable by construction");
  atomic.add_option("--seed", shape.seed, "Random seed; the same options and seed give the same bytes")
      ->type_name("S")
      ->capture_default_str()
      ->check(whole_number());
  add_generate_output_options(atomic, options, "atomic-<model>-<ops>-<seed>[-empty][-violation].edn");
}

void add_lagging_follower_options(CLI::App& family, GenerateCommandOptions& options) {
  family.footer(lagging_follower_help_footer);
  family.parse_complete_callback([&options] { options.family = "lagging-follower"; });
  auto& shape = options.lagging_follower;
  const auto count = [&family](const std::string& name, std::size_t& value, const std::string& what) {
    family.add_option(name, value, what)
        ->type_name("N")
        ->capture_default_str()
        ->check(whole_number())
        ->check(at_least(1, "at least 1"));
  };
  count("--ops", shape.operations, "Invocations, reads and writes");
  count("--writers", shape.writers, "Processes that write through the leader");
  count("--readers", shape.readers, "Processes that read, each from one follower");
  count("--followers", shape.followers, "Followers serving the reads");
  family.add_option("--max-lag", shape.max_lag, "How many log entries a follower may be behind")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number());
  family.add_flag("--violation", shape.violation,
                  "One reader reads once from a follower further behind: not sequentially consistent either");
  family.add_option("--seed", shape.seed, "Random seed; the same options and seed give the same bytes")
      ->type_name("S")
      ->capture_default_str()
      ->check(whole_number());
  add_generate_output_options(family, options, "lagging-follower-<ops>-<seed>[-violation].edn");
}

}  // namespace

// `generate` groups the families; each family is its own subcommand with its shape
// options and the output options every family shares.
void add_generate_options(CLI::App& generate, GenerateCommandOptions& options) {
  generate.footer(generate_help_footer);
  // Not require_subcommand(1): CLI11 would then report a misspelt family as "A
  // subcommand is required" instead of naming it; run_generate_command reports a
  // missing one.
  generate.require_subcommand(0, 1);
  add_crash_storm_options(
      *generate.add_subcommand(
          "crash-storm", "A cas-register history in which many writes crash and stay open (hard for backtracking)"),
      options);
  add_atomic_options(
      *generate.add_subcommand(
          "atomic", "A history of one simulated atomic object, any model: linearizable, or with --violation not"),
      options);
  add_lagging_follower_options(
      *generate.add_subcommand("lagging-follower",
                               "A register read from lagging followers: sequentially consistent, not linearizable; "
                               "with --violation neither"),
      options);
}

int run_generate_command(const GenerateCommandOptions& options) {
  if (options.family.empty()) {
    throw UsageError(
        "generate needs a family, e.g. 'ariadne generate crash-storm'; families: crash-storm, atomic, "
        "lagging-follower");
  }
  const FamilyFiles files = family_files(options);
  check_batch_options(options, files.first_seed);
  if (!options.out_dir) {
    const std::string text = files.text(files.first_seed);
    if (options.output) {
      write_generated(*options.output, text);
    } else {
      print(text);
    }
    return 0;
  }

  const fs::path directory(*options.out_dir);
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) throw UsageError("cannot create " + directory.string() + ": " + error.message());
  for (std::size_t i = 0; i < options.count; ++i) {
    const std::uint64_t seed = files.first_seed + i;
    const fs::path file = directory / files.name(seed);
    write_generated(file, files.text(seed));
    // One path per line, so a script can pick up exactly the files written.
    std::printf("%s\n", file.string().c_str());
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace ariadne::cli
