// See command_table.hpp. Each command's own file declares its options struct, the
// function that adds those options to a CLI11 subcommand, and the function that runs
// the command; a row names the three, and attach() ties them together.
#include "cli/command_table.hpp"

#include "cli/check_command.hpp"
#include "cli/convert_command.hpp"
#include "cli/corpus_command.hpp"
#include "cli/cross_check_command.hpp"
#include "cli/explore_command.hpp"
#include "cli/generate_command.hpp"
#include "cli/verify_commands.hpp"

#include <memory>

namespace ariadne::cli {

namespace {

// The options live as long as the handler that reads them: CLI11 writes into them
// while it parses, and the handler runs the command on them afterwards.
template <typename Options, void (*add_options)(CLI::App&, Options&), int (*run)(const Options&)>
CommandHandler attach(CLI::App& command) {
  auto options = std::make_shared<Options>();
  add_options(command, *options);
  return [options] { return run(*options); };
}

constexpr Command kCommands[] = {
    {"check", "Decide whether one history is linearizable",
     attach<CheckCommandOptions, add_check_options, run_check_command>},
    {"corpus", "Check every history of a corpus against its expected verdict",
     attach<CorpusCommandOptions, add_corpus_options, run_corpus_command>},
    {"generate", "Write synthetic histories whose verdict is known by construction",
     attach<GenerateCommandOptions, add_generate_options, run_generate_command>},
    {"convert", "Write a history, or a whole expected.tsv corpus, in another checker's input format",
     attach<ConvertCommandOptions, add_convert_options, run_convert_command>},
    {"cross-check", "Run every engine on every history of corpora and report any disagreement or bad certificate",
     attach<CrossCheckOptions, add_cross_check_options, run_cross_check_command>},
    {"explore", "Model-check a system design: walk its states, check each history online, shrink a counterexample",
     attach<ExploreCommandOptions, add_explore_options, run_explore_command>},
    {"verify-proof", "Check a proof written by check --proof: formula, lemmas and DRAT, without the solver",
     attach<VerifyProofOptions, add_verify_proof_options, run_verify_proof_command>},
    {"verify-witness", "Check that a linearization (op ids, e.g. from check --json) fits a history",
     attach<VerifyWitnessOptions, add_verify_witness_options, run_verify_witness_command>},
};

}  // namespace

std::span<const Command> command_table() { return kCommands; }

}  // namespace ariadne::cli
